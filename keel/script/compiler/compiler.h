// The script compiler: token tree (keel::text) -> Library of command streams.
//
//   text::Diagnostics diag;
//   auto doc = text::parse_file("guard.script", diag);
//   auto library = doc ? script::compile(doc->first(), commands, diag, {.source = doc.get()})
//                      : std::nullopt;
//   if (!library) fmt::print(stderr, "{}", diag.render());
//
// Every error is located (file:line:col) and the compiler keeps going after one, so a run reports
// every mistake in the file. Warnings (e.g. CHANGESCRIPT to a script not in this file) do not
// stop the compile.
#pragma once

#include "keel/script/commands.h"
#include "keel/script/library.h"
#include "keel/text/diagnostics.h"
#include "keel/text/document.h"
#include "keel/text/token.h"

#include <optional>

namespace keel::script {

struct CompileOptions {
  // Statements other than SCRIPT(...) are errors unless this is set, in which case they are left
  // alone (the file also defines other resources).
  bool skip_other_statements = false;
  // Line tables (offset -> line) for the debugger, trace and disassembler.
  bool debug_info = true;
  // The parsed document the tokens came from: its source lines are kept beside the line tables
  // so the disassembler can show them. Optional.
  const text::Document* source = nullptr;
  // Warn about CHANGESCRIPT/CALLSCRIPT targets that are not compiled in the same run.
  bool warn_unknown_targets = true;
};

// Compiles every SCRIPT statement of the chain that starts at `first`. Returns nullopt when there
// were errors (all of them are in `diagnostics`).
std::optional<Library> compile(const text::Token* first, const CommandSet& commands,
                               text::Diagnostics& diagnostics, const CompileOptions& options = {});

// Compiles exactly one SCRIPT statement (e.g. one resource of a build command file).
std::optional<Library> compile_one(const text::Token& script_statement, const CommandSet& commands,
                                   text::Diagnostics& diagnostics,
                                   const CompileOptions& options = {});

}  // namespace keel::script
