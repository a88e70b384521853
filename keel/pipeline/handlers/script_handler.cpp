// Script("name", "file.script"): every SCRIPT of a file; SCRIPT("name") { ... }: one script
// written in the command file. Both compile with the language's built-in commands plus PRINT,
// SET and ADD (keel::script basic commands).
#include "keel/pipeline/handlers/builtin_handlers.h"
#include "keel/pipeline/handlers/handler_support.h"
#include "keel/script/basic_commands.h"
#include "keel/script/compiler/compiler.h"
#include "keel/text/document.h"
#include "keel/text/platform.h"

#include <fmt/format.h>

namespace keel::pipeline {

namespace {

script::CommandSet build_commands() {
  script::CommandSet commands = script::default_commands();
  // The build only compiles: PRINT's handler never runs here.
  (void)script::add_basic_commands(commands, [](const script::Call&, std::string_view) {});
  return commands;
}

bool write_library(BuildContext& ctx, std::string_view name, const script::Library& library) {
  const ByteBuffer bytes = library.to_bytes();
  return write_single_chunk(ctx, name, kScriptType, bytes);
}

}  // namespace

bool build_script(BuildContext& ctx) {
  const text::Token& cmd = ctx.command();
  const script::CommandSet commands = build_commands();

  if (cmd.conditional != nullptr) {  // SCRIPT("name") { ... } in the command file
    if (!ctx.check(cmd, {text::kString}, {.conditional = text::Conditional::kRequired})) {
      return false;
    }
    const std::string_view name = cmd.param(0)->text;
    if (!ctx.set_output(name)) return false;
    if (ctx.up_to_date()) return true;
    text::Diagnostics diag;
    std::optional<script::Library> library = script::compile_one(cmd, commands, diag);
    ctx.report(diag);
    return library && write_library(ctx, name, *library);
  }

  if (!ctx.check(cmd, {text::kString, text::kString})) return false;
  const std::string_view name = cmd.param(0)->text;
  const Result<std::string> path = require_source(ctx, *cmd.param(1), cmd.param(1)->text);
  if (!path) return false;
  if (!ctx.set_output(name)) return false;
  if (ctx.up_to_date()) return true;
  Result<std::string> source = ctx.read_file(*path);
  if (!source) return false;
  text::Diagnostics diag;
  std::unique_ptr<text::Document> doc = text::parse(std::move(*source), *path, diag);
  std::optional<script::Library> library;
  if (doc && text::preprocess_platform(*doc, ctx.platform(), diag)) {
    library = script::compile(doc->first(), commands, diag, {.source = doc.get()});
  }
  ctx.report(diag, doc.get());
  if (library && library->empty()) {
    ctx.error(*cmd.param(1), fmt::format("`{}` defines no SCRIPT", cmd.param(1)->text));
    return false;
  }
  return library && write_library(ctx, name, *library);
}

}  // namespace keel::pipeline
