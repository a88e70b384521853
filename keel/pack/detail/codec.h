// The codec interface behind compression.h: one implementation per compression method
// (codec_stored.cpp, codec_zlib.cpp, codec_zstd.cpp), found through find_codec(), the only place
// that switches on the method. The drivers in compression.cpp (whole buffers, BlockDecoder,
// StreamCompressor, StreamDecompressor) are written once against this interface.
//
// Cursors follow zstd's buffer model: a span plus a position the codec advances. A decoder reset
// with `fixed_output` is promised that every step of the stream gets the same output span (the
// whole destination, filled from the front), so it may use that span as its window.
#pragma once

#include "keel/core/bytes.h"
#include "keel/core/error.h"
#include "keel/pack/format.h"

#include <memory>
#include <optional>
#include <string_view>

namespace keel::pack::detail {

struct InCursor {
  ByteSpan data;
  usize pos = 0;
  usize left() const { return data.size() - pos; }
  const std::byte* next() const { return data.data() + pos; }
};

struct OutCursor {
  MutableByteSpan data;
  usize pos = 0;
  usize left() const { return data.size() - pos; }
  std::byte* next() const { return data.data() + pos; }
};

class Encoder {
 public:
  virtual ~Encoder() = default;
  // Compresses from `in` into `out`, advancing both. With `end` (no input follows `in`), finishes
  // the stream. Returns true once the stream is complete (only with `end`).
  virtual Result<bool> step(InCursor& in, OutCursor& out, bool end) = 0;
};

class Decoder {
 public:
  virtual ~Decoder() = default;
  // Starts a new stream (the context is reused).
  virtual Status reset(bool fixed_output) = 0;
  // Decodes from `in` into `out`, advancing both. Returns true once the stream's end marker has
  // been decoded. A step that advances neither cursor is the driver's to judge (output full or
  // input exhausted).
  virtual Result<bool> step(InCursor& in, OutCursor& out) = 0;
};

struct Codec {
  Compression method;
  // False: the stream has no end marker and ends where its input ends (stored data).
  bool end_marker;
  // Largest plausible expansion of `stored` bytes; readers refuse larger sizes before allocating.
  u64 (*max_expansion)(u64 stored);
  // Output size that holds the compressed form of `size` bytes in one step.
  u64 (*bound)(u64 size);
  // `level` 0 = the codec's default; `size` = the total input when known up front.
  Result<std::unique_ptr<Encoder>> (*make_encoder)(int level, std::optional<u64> size);
  Result<std::unique_ptr<Decoder>> (*make_decoder)();
};

extern const Codec kStoredCodec;
extern const Codec kZlibCodec;
extern const Codec kZstdCodec;

// The codec of `method`, or null for a method this build does not know.
const Codec* find_codec(Compression method);

inline constexpr usize kCodecCount = 3;  // Compression values are 0 .. kCodecCount - 1

// A codec library could not get memory or set up its context. Never kOverflow (a writer ran out
// of room): kRefused, the code for a component that declined to start, until core has a code
// for exhausted resources (this is the one place to change).
Unexpected resource_error(Compression method, std::string_view what);
Unexpected unknown_method(Compression method);

}  // namespace keel::pack::detail
