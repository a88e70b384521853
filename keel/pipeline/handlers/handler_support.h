// Helpers for writing handlers, used by the built-in ones: only the BuildContext interface, so a
// plug-in may use them too (linking keel::pipeline_handlers).
#pragma once

#include "keel/core/bytes.h"
#include "keel/core/error.h"
#include "keel/pipeline/handler.h"

#include <string>
#include <string_view>

namespace keel::pipeline {

// find_source, reporting "source `x` not found in the include paths of (P, T)" at `at` when it
// is missing.
Result<std::string> require_source(BuildContext& context, const text::Token& at,
                                   std::string_view name);
// require_source + read_file: the source's contents.
Result<std::string> read_source(BuildContext& context, const text::Token& at,
                                std::string_view name);

// Reports an error that carries its own location (e.g. "keys.txt:4:1").
void report_error(BuildContext& context, const Error& error);

// Writes one asset with one chunk (its primary) and closes the output; false after reporting.
bool write_single_chunk(BuildContext& context, std::string_view name, std::string_view type,
                        ByteSpan data, u16 block_type = kBlockGeneral, u32 alignment = 4);

}  // namespace keel::pipeline
