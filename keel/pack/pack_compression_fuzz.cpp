// Fuzz target for the decoders: the first byte picks the method and buffer sizes, the rest is a
// (hostile) compressed stream. Streaming and whole-buffer decoding must agree and never crash.
#include "keel/pack/compression.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace keel;
  using namespace keel::pack;
  if (size == 0) return 0;
  const auto method = static_cast<Compression>(data[0] % 3);
  const usize in_buffer = 1 + (data[0] >> 2) % 32;
  const ByteSpan input = as_bytes(std::span<const u8>(data + 1, size - 1));

  usize pos = 0;
  auto stream = StreamDecompressor::create(method, in_buffer, [&](MutableByteSpan in) {
    const usize n = std::min(in.size(), input.size() - pos);
    std::copy_n(input.begin() + static_cast<std::ptrdiff_t>(pos), n, in.begin());
    pos += n;
    return Result<usize>(n);
  });
  ByteBuffer streamed;
  bool stream_ok = false;
  if (stream) {
    std::byte piece[61];
    for (;;) {
      auto n = stream->read(piece);
      if (!n) break;
      if (*n == 0) {
        stream_ok = true;
        break;
      }
      streamed.insert(streamed.end(), piece, piece + *n);
      if (streamed.size() > (1u << 20)) break;  // a bomb: stop reading, that is fine
    }
  }
  if (stream_ok) {
    // The whole-buffer decoder must agree on a stream that decoded cleanly.
    ByteBuffer whole(streamed.size());
    if (!decompress(method, input, whole) || whole != streamed) __builtin_trap();
  }
  return 0;
}
