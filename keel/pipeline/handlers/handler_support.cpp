#include "keel/pipeline/handlers/handler_support.h"

#include <fmt/format.h>

namespace keel::pipeline {

Result<std::string> require_source(BuildContext& context, const text::Token& at,
                                   std::string_view name) {
  Result<std::string> path = context.find_source(name);
  if (!path && path.error().code() == ErrorCode::kNotFound) {
    // "not found in the include paths of (PC, Blob)", or why the file found cannot be used
    context.error(at, path.error().message());
  }
  return path;
}

Result<std::string> read_source(BuildContext& context, const text::Token& at,
                                std::string_view name) {
  Result<std::string> path = require_source(context, at, name);
  if (!path) return Unexpected(path.error());
  return context.read_file(*path);
}

void report_error(BuildContext& context, const Error& error) {
  text::Diagnostics diag;
  diag.add(text::Severity::kError, error);
  context.report(diag);
}

bool write_single_chunk(BuildContext& context, std::string_view name, std::string_view type,
                        ByteSpan data, u16 block_type, u32 alignment) {
  OutputFile* out = context.create_output();
  if (out == nullptr) return false;
  const u32 chunk = out->add_chunk(name, block_type, data, alignment);
  if (chunk == 0) {
    out->close();
    return false;
  }
  out->add_item(name, type, chunk);
  return out->close();
}

}  // namespace keel::pipeline
