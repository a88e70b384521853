// Fuzz target: replay files (replay.h). Beyond "no crash": a replay that parses saves back to
// exactly the bytes it was parsed from (the layout has no slack), and every control byte it holds
// is one Controls::from_bits/bits round-trips.
#include "replay.h"

#include "keel/core/bytes.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const keel::ByteSpan input = keel::as_bytes(std::span(data, size));
  keel::Result<keel::voidfarer::Replay> replay = keel::voidfarer::Replay::parse(input);
  if (!replay) return 0;
  for (const keel::u8 b : replay->controls) {
    if (keel::voidfarer::Controls::from_bits(b).bits() != b) __builtin_trap();
  }
  keel::Result<keel::ByteBuffer> again = replay->to_bytes();
  if (!again || again->size() != size || std::memcmp(again->data(), data, size) != 0) {
    __builtin_trap();
  }
  return 0;
}
