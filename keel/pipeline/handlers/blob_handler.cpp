// Blob("name" [, "source"]) [{ Alignment(n); BlockType(n); }]: a file as one chunk.
#include "keel/pack/format.h"
#include "keel/pipeline/handlers/builtin_handlers.h"
#include "keel/pipeline/handlers/handler_support.h"

#include <fmt/format.h>

#include <bit>
#include <filesystem>
#include <system_error>

namespace keel::pipeline {
namespace {
// Sources above this size are streamed into the intermediate (OutputFile::add_file_chunk); the
// smaller ones are read whole, which costs nothing extra since the host keeps the contents of
// sources up to 8 MiB from hashing them (find_source) for read_file.
constexpr u64 kStreamBlobAbove = u64{8} << 20;
}  // namespace

using text::kNumber;
using text::kString;

bool build_blob(BuildContext& ctx) {
  const text::Token& cmd = ctx.command();
  if (!ctx.check(cmd, {kString, kString},
                 {.min_params = 1, .conditional = text::Conditional::kAllowed})) {
    return false;
  }
  u32 alignment = 4;
  u16 block_type = kBlockGeneral;
  bool options_ok = true;
  for (const text::Token& opt : text::chain(cmd.conditional)) {
    if (!ctx.check(opt, {kNumber})) {
      options_ok = false;
      continue;
    }
    const s32 value = opt.param(0)->as_int();
    if (opt.is("Alignment")) {
      if (value <= 0 || value > 65536 || !std::has_single_bit(static_cast<u32>(value))) {
        ctx.error(*opt.param(0), "the alignment must be a power of two from 1 to 65536");
        options_ok = false;
      }
      alignment = static_cast<u32>(value);
    } else if (opt.is("BlockType")) {
      if (value < 0 || value > 0xFFFF) {
        ctx.error(*opt.param(0), "a block type is 0 to 65535");
        options_ok = false;
      }
      block_type = static_cast<u16>(value);
    } else {
      ctx.error(opt, fmt::format("unknown Blob option `{}` (Alignment, BlockType)", opt.text));
      options_ok = false;
    }
  }
  if (!options_ok) return false;

  const std::string_view name = cmd.param(0)->text;
  const text::Token& source_at = cmd.param_count() > 1 ? *cmd.param(1) : *cmd.param(0);
  const Result<std::string> path = require_source(ctx, source_at, source_at.text);
  if (!path) return false;
  if (!ctx.set_output(name)) return false;
  // Up to date means this source (same content, so same size) was packed before: no stat needed.
  if (ctx.up_to_date()) return true;
  // A block the readers refuse (over ReadOptions' limit) fails here, before any work, naming the
  // asset, instead of at repack time after reading and copying the whole source.
  std::error_code ec;
  const u64 size = std::filesystem::file_size(*path, ec);
  if (const u64 limit = pack::ReadOptions{}.max_block_length; !ec && size + alignment > limit) {
    ctx.error(source_at, fmt::format("Blob `{}`: source `{}` has {} bytes; a block may hold at "
                                     "most {} bytes (1 GiB), so the data file could not be read",
                                     name, source_at.text, size, limit));
    return false;
  }
  OutputFile* out = nullptr;
  u32 chunk = 0;
  if (!ec && size > kStreamBlobAbove) {
    // Copied from the file in pieces when the output is closed: memory does not grow with it.
    out = ctx.create_output();
    if (out == nullptr) return false;
    chunk = out->add_file_chunk(name, block_type, *path, alignment);
  } else {
    // Small: the host kept the bytes it hashed (one read of the file, no second open).
    Result<std::string> bytes = ctx.read_file(*path);
    if (!bytes) return false;
    out = ctx.create_output();
    if (out == nullptr) return false;
    chunk = out->add_chunk(name, block_type, as_bytes(*bytes), alignment);
  }
  if (chunk == 0) {
    out->close();
    return false;
  }
  out->add_item(name, kBlobType, chunk);
  return out->close();
}
}  // namespace keel::pipeline
