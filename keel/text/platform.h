// The PLATFORM(...) preprocessing pass (Golden Rules ch. 5) as a reusable tree transform.
//
// `PLATFORM("PC", "XBOX") X();` keeps X for PC and XBOX; `PLATFORM("-PC") X();` (or "!PC") keeps
// it for every platform but PC. A kept PLATFORM is replaced by its conditional command or block,
// in order; a dropped one disappears with it. The whole tree is searched, blocks included.
#pragma once

#include "keel/text/diagnostics.h"
#include "keel/text/document.h"

#include <string_view>

namespace keel::text {

// Rewrites `document` for `platform` (compared case-insensitively). Malformed PLATFORM commands
// (no parameters, non-strings, include and exclude mixed, no conditional) are reported and
// dropped. Returns false when there were errors.
bool preprocess_platform(Document& document, std::string_view platform, Diagnostics& diagnostics,
                         std::string_view command = "PLATFORM");

}  // namespace keel::text
