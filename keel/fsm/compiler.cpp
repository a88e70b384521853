#include "keel/fsm/compiler.h"

namespace keel::fsm {

std::optional<CompiledFsms> compile(const text::Token* first, const TypeRegistry& types,
                                    text::Diagnostics& diagnostics) {
  (void)first;
  (void)types;
  diagnostics.error(SourceLocation{}, "the FSM compiler is not written yet");
  return std::nullopt;
}

std::optional<CompiledFsms> compile_one(const text::Token& fsm_statement, const TypeRegistry& types,
                                        text::Diagnostics& diagnostics) {
  (void)fsm_statement;
  return compile(nullptr, types, diagnostics);
}

}  // namespace keel::fsm
