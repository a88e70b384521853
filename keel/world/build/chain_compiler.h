// The Chain statement of a command file, compiled to a ChainDef (keel/world/chain.h; the
// language is described there). Every mistake is reported at its token: unknown step parts,
// actions and conditions, wrong parameters, a Spawn of 0, a Dead(n) larger than what the step
// spawns, a step with two end conditions.
#pragma once

#include "keel/text/diagnostics.h"
#include "keel/text/token.h"
#include "keel/world/chain.h"

#include <optional>

namespace keel::world {

std::optional<ChainDef> compile_chain(const text::Token& cmd, text::Diagnostics& diagnostics);

}  // namespace keel::world
