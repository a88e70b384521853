// Fuzz target: arbitrary bytes as a compiled FSM file. The loader must reject what is invalid
// with an error; whatever it accepts must link, instantiate and run without crashing.
#include "keel/core/bytes.h"
#include "keel/fsm/compiled.h"
#include "keel/fsm/testing/exercise.h"

#include <cstddef>
#include <cstdint>
#include <span>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const keel::ByteSpan bytes = keel::as_bytes(std::span<const uint8_t>(data, size));
  const keel::Result<keel::fsm::CompiledFsms> image = keel::fsm::CompiledFsms::from_bytes(bytes);
  if (!image) return 0;
  // A valid image writes back to the same bytes.
  const keel::ByteBuffer again = image->to_bytes();
  if (again.size() != size || !std::equal(again.begin(), again.end(), bytes.begin()))
    __builtin_trap();
  keel::fsm::testing::exercise(*image, 1);
  return 0;
}
