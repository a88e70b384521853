// Blob("name" [, "source"]) [{ Alignment(n); BlockType(n); }]: a file as one chunk.
#include "keel/pipeline/builtin_handlers.h"
#include "keel/pipeline/handler_support.h"

#include <fmt/format.h>

#include <bit>

namespace keel::pipeline {

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
  std::string path;
  if (!require_source(ctx, source_at, source_at.text, path)) return false;
  if (!ctx.set_output(name)) return false;
  if (ctx.up_to_date()) return true;
  std::string bytes;
  if (!ctx.read_file(path, bytes)) return false;
  return write_single_chunk(ctx, name, kBlobType, as_bytes(bytes), block_type, alignment);
}

void register_builtin_handlers(Registrar& r) {
  r.add({.platform = kCommon,
         .type = kBlobType,
         .fn = build_blob,
         .version = 1,
         .description = "a file as one chunk"});
  r.add({.platform = kCommon,
         .type = kScriptType,
         .fn = build_script,
         .version = 1,
         .description = "compiled scripts (keel::script)"});
  r.add({.platform = kCommon,
         .type = kFsmType,
         .fn = build_fsm,
         .version = 1,
         .description = "compiled state machines (keel::fsm)"});
  r.add({.platform = kCommon,
         .type = kStringTableType,
         .fn = build_string_table,
         .version = 1,
         .description = "a localized string table, every language"});
}

}  // namespace keel::pipeline
