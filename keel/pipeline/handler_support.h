// Helpers shared by the built-in handlers (not part of the plug-in interface).
#pragma once

#include "keel/pipeline/handler.h"

#include <cstddef>
#include <span>
#include <string>
#include <string_view>

namespace keel::pipeline {

// find_source, reporting "source `x` not found ..." at `at` when it is missing.
bool require_source(BuildContext& context, const text::Token& at, std::string_view name,
                    std::string& path);
// find_source + read_file.
bool read_source(BuildContext& context, const text::Token& at, std::string_view name,
                 std::string& bytes);

inline std::span<const std::byte> as_bytes(std::string_view text) {
  return {reinterpret_cast<const std::byte*>(text.data()), text.size()};
}

// Reports an error that carries its own location (e.g. "keys.txt:4:1").
void report_error(BuildContext& context, const Error& error);

// Writes one asset with one chunk (its primary) and closes the output.
bool write_single_chunk(BuildContext& context, std::string_view name, std::string_view type,
                        std::span<const std::byte> data, u16 block_type = kBlockGeneral,
                        u32 alignment = 4);

}  // namespace keel::pipeline
