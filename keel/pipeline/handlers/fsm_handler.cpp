// FSM("name", "file.fsm" [, "types.txt"]): every FSM of a file; FSM("name", "type") { ... }: one
// FSM written in the command file. Types come from the optional type description file
// (fsm::TypeRegistry::add_from_text); types it does not describe get behaviour bits in order of
// first appearance, as keel-fsm does.
#include "keel/fsm/compiler/compiler.h"
#include "keel/pipeline/handlers/builtin_handlers.h"
#include "keel/pipeline/handlers/handler_support.h"
#include "keel/text/document.h"
#include "keel/text/platform.h"

#include <fmt/format.h>

namespace keel::pipeline {

namespace {

bool write_fsms(BuildContext& ctx, std::string_view name, const fsm::CompiledFsms& image) {
  const ByteBuffer bytes = image.to_bytes();
  return write_single_chunk(ctx, name, kFsmType, bytes);
}

}  // namespace

bool build_fsm(BuildContext& ctx) {
  const text::Token& cmd = ctx.command();
  fsm::TypeRegistry types(fsm::UnknownTypes::kAutoAssign);

  if (cmd.conditional != nullptr) {  // FSM("name", "type") { ... } in the command file
    if (!ctx.check(cmd, {text::kString, text::kString},
                   {.conditional = text::Conditional::kRequired})) {
      return false;
    }
    const std::string_view name = cmd.param(0)->text;
    if (!ctx.set_output(name)) return false;
    if (ctx.up_to_date()) return true;
    text::Diagnostics diag;
    std::optional<fsm::CompiledFsms> image = fsm::compile_one(cmd, types, diag);
    ctx.report(diag);
    return image && write_fsms(ctx, name, *image);
  }

  if (!ctx.check(cmd, {text::kString, text::kString, text::kString}, {.min_params = 2})) {
    return false;
  }
  const std::string_view name = cmd.param(0)->text;
  const Result<std::string> path = require_source(ctx, *cmd.param(1), cmd.param(1)->text);
  if (!path) return false;
  std::string types_path;
  if (cmd.param_count() > 2) {
    Result<std::string> found = require_source(ctx, *cmd.param(2), cmd.param(2)->text);
    if (!found) return false;
    types_path = std::move(*found);
  }
  if (!ctx.set_output(name)) return false;
  if (ctx.up_to_date()) return true;

  text::Diagnostics diag;
  std::unique_ptr<text::Document> types_doc;
  if (!types_path.empty()) {
    Result<std::string> text = ctx.read_file(types_path);
    if (!text) return false;
    types_doc = text::parse(std::move(*text), types_path, diag);
    if (!types_doc || !types.add_from_text(types_doc->first(), diag)) {
      ctx.report(diag, types_doc.get());
      return false;
    }
  }
  Result<std::string> source = ctx.read_file(*path);
  if (!source) return false;
  std::unique_ptr<text::Document> doc = text::parse(std::move(*source), *path, diag);
  std::optional<fsm::CompiledFsms> image;
  if (doc && text::preprocess_platform(*doc, ctx.platform(), diag)) {
    image = fsm::compile(doc->first(), types, diag);
  }
  ctx.report(diag, doc.get());
  if (image && image->fsm_count() == 0) {
    ctx.error(*cmd.param(1), fmt::format("`{}` defines no FSM", cmd.param(1)->text));
    return false;
  }
  return image && write_fsms(ctx, name, *image);
}

}  // namespace keel::pipeline
