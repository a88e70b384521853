// The FSM compiler (Golden Rules ch. 7): FSM("name", "type") { ... } statements of the
// command-file language (keel::text) to a CompiledFsms image. The language is described in
// keel/fsm/README.md. Each FSM compiles alone: its parent, inherited states and transition
// targets outside it are checked when the image is loaded into an FsmLibrary.
//
//   text::Diagnostics diag;
//   auto doc = text::parse_file("fsm/character.fsm", diag);
//   std::optional<fsm::CompiledFsms> image;
//   if (doc) image = fsm::compile(doc->first(), types, diag);
//   if (!image) fmt::print(stderr, "{}", diag.render(*doc));   // file:line:col: error: ...
#pragma once

#include "keel/fsm/compiled.h"
#include "keel/fsm/compiler/fsm_type.h"
#include "keel/text/diagnostics.h"
#include "keel/text/token.h"

#include <optional>

namespace keel::fsm {

// Compiles every statement of the chain starting at `first` (each must be an FSM statement).
// Errors and warnings go to `diagnostics`; nullopt when there was an error.
std::optional<CompiledFsms> compile(const text::Token* first, const TypeRegistry& types,
                                    text::Diagnostics& diagnostics);

// Compiles exactly one FSM statement (its `next` is ignored).
std::optional<CompiledFsms> compile_one(const text::Token& fsm_statement, const TypeRegistry& types,
                                        text::Diagnostics& diagnostics);

}  // namespace keel::fsm
