// Lossless compression for pack blocks (Golden Rules ch. 5.7): zstd (default), zlib, or stored.
//
// - compress()/decompress(): whole buffers (the tools, and any caller with the data in memory).
// - BlockDecoder: push-style decompression into a fixed, exactly sized output buffer, fed in
//   pieces as the file is read (decompression starts before the block is fully read); the
//   loader's path.
// - StreamCompressor / StreamDecompressor: the book's XFileWrite / XFileRead: compression through
//   a small output buffer handed to a sink whenever it fills (the final flush may fill it several
//   times), decompression pulling input through a small input buffer from a source. The writer
//   compresses blocks through StreamCompressor (giving up early on incompressible data) and
//   `keel-pack extract` streams a chunk out through StreamDecompressor.
// Every decoder treats its input as hostile: corrupt, truncated or over-long data is an error,
// never a crash, and output never exceeds the buffer it was given. An unknown method is
// kUnsupported; a codec library that cannot get memory or start is kRefused.
#pragma once

#include "keel/core/bytes.h"
#include "keel/core/error.h"
#include "keel/pack/format.h"

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <vector>

namespace keel::pack {

// Default levels: zstd 3, zlib 6. `level` 0 picks the default.
Result<ByteBuffer> compress(Compression method, ByteSpan input, int level = 0);

// Decompresses `input` into exactly `output.size()` bytes. Fails (kCorrupt) if the stream is
// damaged, ends early, produces more or fewer bytes, or has bytes after its end.
Status decompress(Compression method, ByteSpan input, MutableByteSpan output);

// Largest plausible expansion of `stored` bytes by `method` (deflate: 1032:1; zstd: a 4-byte RLE
// block yields at most 128 KiB). Readers refuse sizes beyond it before allocating.
u64 max_expansion(Compression method, u64 stored);

// Push-style decoder into a fixed output buffer.
class BlockDecoder {
 public:
  BlockDecoder();
  ~BlockDecoder();
  BlockDecoder(BlockDecoder&&) noexcept;
  BlockDecoder& operator=(BlockDecoder&&) noexcept;

  // Starts a new stream; the decoder's context is reused between streams. push() and finish()
  // before a successful begin() fail with kInvalidArgument.
  Status begin(Compression method, MutableByteSpan output);
  Status push(ByteSpan input);
  // All input pushed: the stream must have ended with the output exactly full.
  Status finish();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

using ByteSink = std::function<Status(ByteSpan)>;
// Fills the span with up to span.size() bytes; returns how many (0 = end of input).
using ByteSource = std::function<Result<usize>(MutableByteSpan)>;

class StreamCompressor {
 public:
  // `total_size`: the whole input's size when known (zstd records it in the frame); writing
  // another amount is then an error.
  static Result<StreamCompressor> create(Compression method, int level, usize buffer_size,
                                         ByteSink sink,
                                         std::optional<u64> total_size = std::nullopt);
  StreamCompressor(StreamCompressor&&) noexcept;
  StreamCompressor& operator=(StreamCompressor&&) noexcept;
  ~StreamCompressor();

  Status write(ByteSpan input);
  Status finish();  // final flush: may hand the sink several full buffers

  u64 sink_calls() const;         // buffers handed to the sink so far
  u64 finish_sink_calls() const;  // of those, during finish()
  u64 bytes_out() const;

 private:
  struct Impl;
  explicit StreamCompressor(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

class StreamDecompressor {
 public:
  static Result<StreamDecompressor> create(Compression method, usize buffer_size,
                                           ByteSource source);
  StreamDecompressor(StreamDecompressor&&) noexcept;
  StreamDecompressor& operator=(StreamDecompressor&&) noexcept;
  ~StreamDecompressor();

  // Produces up to output.size() bytes (>= 1; an empty output is kInvalidArgument); 0 once the
  // stream has ended. A stream that ends before its end marker, or has input after it, is an
  // error.
  Result<usize> read(MutableByteSpan output);

  u64 source_calls() const;

 private:
  struct Impl;
  explicit StreamDecompressor(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace keel::pack
