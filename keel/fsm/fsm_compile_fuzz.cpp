// Fuzz target: arbitrary text as FSM source. Parsing and compiling report errors and never
// crash; whatever compiles is a valid image (it reloads from its bytes) and runs.
#include "keel/core/bytes.h"
#include "keel/fsm/compiler/compiler.h"
#include "keel/fsm/testing/exercise.h"
#include "keel/text/document.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  keel::text::Diagnostics diag;
  auto doc = keel::text::parse(
      keel::to_string(keel::as_bytes(std::span<const uint8_t>(data, size))), "fuzz.fsm", diag);
  if (!doc) return 0;
  keel::fsm::TypeRegistry types(keel::fsm::UnknownTypes::kAutoAssign);
  std::optional<keel::fsm::CompiledFsms> image = keel::fsm::compile(doc->first(), types, diag);
  (void)diag.render(*doc);
  if (!image) return 0;
  const keel::Result<keel::fsm::CompiledFsms> reloaded =
      keel::fsm::CompiledFsms::from_bytes(image->to_bytes());
  if (!reloaded) __builtin_trap();
  keel::fsm::testing::exercise(*reloaded, 1);
  return 0;
}
