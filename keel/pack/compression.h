// Lossless compression for pack blocks (Golden Rules ch. 5.7): zstd (default) and zlib.
//
// - compress()/decompress(): whole buffers, used by the writer and the tools.
// - BlockDecoder: push-style decompression into a fixed, exactly sized output buffer, fed in
//   pieces as the file is read (decompression starts before the block is fully read).
// - StreamCompressor / StreamDecompressor: the book's XFileWrite / XFileRead: compression through
//   a small output buffer handed to a sink whenever it fills (the final flush may fill it several
//   times), decompression pulling input through a small input buffer from a source.
// Every decoder treats its input as hostile: corrupt, truncated or over-long data is an error,
// never a crash, and output never exceeds the buffer it was given.
#pragma once

#include "keel/core/error.h"
#include "keel/pack/format.h"

#include <cstddef>
#include <functional>
#include <memory>
#include <span>
#include <vector>

namespace keel::pack {

// Default levels: zstd 3, zlib 6. `level` 0 picks the default.
Result<std::vector<std::byte>> compress(Compression method, std::span<const std::byte> input,
                                        int level = 0);

// Decompresses `input` into exactly `output.size()` bytes. Fails (kCorrupt) if the stream is
// damaged, ends early, produces more or fewer bytes, or has bytes after its end.
Status decompress(Compression method, std::span<const std::byte> input,
                  std::span<std::byte> output);

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

  // Starts a new stream; the decoder's context is reused between streams.
  Status begin(Compression method, std::span<std::byte> output);
  Status push(std::span<const std::byte> input);
  // All input pushed: the stream must have ended with the output exactly full.
  Status finish();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

using ByteSink = std::function<Status(std::span<const std::byte>)>;
// Fills the span with up to span.size() bytes; returns how many (0 = end of input).
using ByteSource = std::function<Result<usize>(std::span<std::byte>)>;

class StreamCompressor {
 public:
  static Result<StreamCompressor> create(Compression method, int level, usize buffer_size,
                                         ByteSink sink);
  StreamCompressor(StreamCompressor&&) noexcept;
  StreamCompressor& operator=(StreamCompressor&&) noexcept;
  ~StreamCompressor();

  Status write(std::span<const std::byte> input);
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

  // Produces up to output.size() bytes; 0 once the stream has ended. A stream that ends before its
  // end marker, or has input after it, is an error.
  Result<usize> read(std::span<std::byte> output);

  u64 source_calls() const;

 private:
  struct Impl;
  explicit StreamDecompressor(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace keel::pack
