// The drivers of compression.h, written once against the codec interface (detail/codec.h).
#include "keel/pack/compression.h"

#include "keel/core/assert.h"
#include "keel/pack/detail/codec.h"

#include <algorithm>
#include <array>
#include <limits>

namespace keel::pack {

using detail::Codec;
using detail::InCursor;
using detail::OutCursor;

namespace {

// Largest buffer a streaming class accepts (zlib counts in 32 bits).
constexpr usize kMaxStreamBuffer = std::numeric_limits<u32>::max();

Result<const Codec*> codec_of(Compression method) {
  const Codec* codec = detail::find_codec(method);
  if (codec == nullptr) return detail::unknown_method(method);
  return codec;
}

Status check_buffer_size(usize size, const char* what) {
  if (size == 0 || size > kMaxStreamBuffer) {
    return fail(ErrorCode::kInvalidArgument, "{} buffer size {} not in 1..{}", what, size,
                kMaxStreamBuffer);
  }
  return ok();
}

}  // namespace

// ---- whole buffers ----------------------------------------------------------------------------

Result<ByteBuffer> compress(Compression method, ByteSpan input, int level) {
  auto codec = codec_of(method);
  if (!codec) return std::unexpected(codec.error());
  auto encoder = (*codec)->make_encoder(level, input.size());
  if (!encoder) return std::unexpected(encoder.error());
  ByteBuffer out((*codec)->bound(input.size()));
  InCursor in{input};
  OutCursor o{out};
  for (;;) {
    auto done = (*encoder)->step(in, o, true);
    if (!done) return std::unexpected(done.error());
    if (*done) break;
    if (o.left() == 0) {
      out.resize(out.size() * 2 + 64);
      o.data = out;
    }
  }
  out.resize(o.pos);
  return out;
}

Status decompress(Compression method, ByteSpan input, MutableByteSpan output) {
  BlockDecoder decoder;
  if (auto s = decoder.begin(method, output); !s) return s;
  if (auto s = decoder.push(input); !s) return s;
  return decoder.finish();
}

u64 max_expansion(Compression method, u64 stored) {
  const Codec* codec = detail::find_codec(method);
  return codec != nullptr ? codec->max_expansion(stored) : 0;
}

// ---- BlockDecoder -----------------------------------------------------------------------------

struct BlockDecoder::Impl {
  const Codec* codec = nullptr;  // null until begin() succeeds
  std::array<std::unique_ptr<detail::Decoder>, detail::kCodecCount> decoders;  // by method
  detail::Decoder* decoder = nullptr;
  OutCursor out;
  bool ended = false;
};

BlockDecoder::BlockDecoder() : impl_(std::make_unique<Impl>()) {}
BlockDecoder::~BlockDecoder() = default;
BlockDecoder::BlockDecoder(BlockDecoder&&) noexcept = default;
BlockDecoder& BlockDecoder::operator=(BlockDecoder&&) noexcept = default;

Status BlockDecoder::begin(Compression method, MutableByteSpan output) {
  Impl& d = *impl_;
  d.codec = nullptr;
  auto codec = codec_of(method);
  if (!codec) return std::unexpected(codec.error());
  auto& slot = d.decoders[static_cast<usize>(method)];
  if (slot == nullptr) {
    auto made = (*codec)->make_decoder();
    if (!made) return std::unexpected(made.error());
    slot = std::move(*made);
  }
  if (auto s = slot->reset(true); !s) return s;
  d.codec = *codec;
  d.decoder = slot.get();
  d.out = OutCursor{output};
  d.ended = false;
  return ok();
}

Status BlockDecoder::push(ByteSpan input) {
  Impl& d = *impl_;
  if (d.codec == nullptr) {
    return fail(ErrorCode::kInvalidArgument, "BlockDecoder::push before a successful begin()");
  }
  InCursor in{input};
  while (in.left() != 0) {
    const char* name = to_string(d.codec->method).data();
    if (d.ended) return fail(ErrorCode::kCorrupt, "{}: data after the end of the stream", name);
    const usize in_before = in.pos;
    const usize out_before = d.out.pos;
    auto ended = d.decoder->step(in, d.out);
    if (!ended) return std::unexpected(ended.error());
    d.ended = *ended;
    if (!d.ended && in.pos == in_before && d.out.pos == out_before) {
      if (d.out.left() == 0) {
        return fail(ErrorCode::kCorrupt, "{}: block holds more than {} bytes", name,
                    d.out.data.size());
      }
      return fail(ErrorCode::kCorrupt, "{}: the stream makes no progress", name);
    }
  }
  return ok();
}

Status BlockDecoder::finish() {
  const Impl& d = *impl_;
  if (d.codec == nullptr) {
    return fail(ErrorCode::kInvalidArgument, "BlockDecoder::finish before a successful begin()");
  }
  if (d.codec->end_marker && !d.ended) {
    return fail(ErrorCode::kCorrupt, "{} stream is truncated ({} of {} bytes)",
                to_string(d.codec->method), d.out.pos, d.out.data.size());
  }
  if (d.out.left() != 0) {
    return fail(ErrorCode::kCorrupt, "block decodes to {} bytes, expected {}", d.out.pos,
                d.out.data.size());
  }
  return ok();
}

// ---- StreamCompressor -------------------------------------------------------------------------

struct StreamCompressor::Impl {
  std::unique_ptr<detail::Encoder> encoder;
  ByteBuffer buffer;
  usize used = 0;
  ByteSink sink;
  u64 sink_calls = 0;
  u64 finish_sink_calls = 0;
  u64 bytes_out = 0;
  bool in_finish = false;
  bool finished = false;

  Status emit() {
    if (used == 0) return ok();
    ++sink_calls;
    if (in_finish) ++finish_sink_calls;
    bytes_out += used;
    const usize n = used;
    used = 0;
    return sink(ByteSpan(buffer.data(), n));
  }

  // One encoder step into the free part of the buffer; returns true when the stream is complete.
  Result<bool> step(InCursor& in, bool end) {
    OutCursor out{buffer, used};
    const usize in_before = in.pos;
    auto done = encoder->step(in, out, end);
    if (!done) return done;
    const bool progress = in.pos != in_before || out.pos != used;
    used = out.pos;
    if (!*done && !progress && used != buffer.size()) {
      return fail(ErrorCode::kInvalidArgument, "compression makes no progress");
    }
    return done;
  }
};

StreamCompressor::StreamCompressor(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
StreamCompressor::StreamCompressor(StreamCompressor&&) noexcept = default;
StreamCompressor& StreamCompressor::operator=(StreamCompressor&&) noexcept = default;
StreamCompressor::~StreamCompressor() = default;

Result<StreamCompressor> StreamCompressor::create(Compression method, int level, usize buffer_size,
                                                  ByteSink sink, std::optional<u64> total_size) {
  auto codec = codec_of(method);
  if (!codec) return std::unexpected(codec.error());
  if (auto s = check_buffer_size(buffer_size, "output"); !s) return std::unexpected(s.error());
  if (!sink) return fail(ErrorCode::kInvalidArgument, "StreamCompressor needs a sink");
  auto encoder = (*codec)->make_encoder(level, total_size);
  if (!encoder) return std::unexpected(encoder.error());
  auto impl = std::make_unique<Impl>();
  impl->encoder = std::move(*encoder);
  impl->buffer.resize(buffer_size);
  impl->sink = std::move(sink);
  return StreamCompressor(std::move(impl));
}

Status StreamCompressor::write(ByteSpan input) {
  Impl& c = *impl_;
  if (c.finished) return fail(ErrorCode::kInvalidArgument, "StreamCompressor: write after finish");
  InCursor in{input};
  while (in.left() != 0) {
    if (auto done = c.step(in, false); !done) return std::unexpected(done.error());
    if (c.used == c.buffer.size()) {
      if (auto s = c.emit(); !s) return s;
    }
  }
  return ok();
}

Status StreamCompressor::finish() {
  Impl& c = *impl_;
  if (c.finished) return ok();
  c.in_finish = true;
  InCursor none;
  for (;;) {
    auto done = c.step(none, true);
    if (!done) return std::unexpected(done.error());
    if (*done) break;
    // Not done: the output buffer is full (the final flush does not fit in one buffer).
    if (auto s = c.emit(); !s) return s;
  }
  c.finished = true;
  return c.emit();
}

u64 StreamCompressor::sink_calls() const { return impl_->sink_calls; }
u64 StreamCompressor::finish_sink_calls() const { return impl_->finish_sink_calls; }
u64 StreamCompressor::bytes_out() const { return impl_->bytes_out; }

// ---- StreamDecompressor -----------------------------------------------------------------------

struct StreamDecompressor::Impl {
  const Codec* codec = nullptr;
  std::unique_ptr<detail::Decoder> decoder;
  ByteBuffer buffer;
  usize in_pos = 0;
  usize in_len = 0;
  ByteSource source;
  bool source_done = false;
  bool ended = false;
  u64 source_calls = 0;

  Status refill() {
    if (in_pos < in_len || source_done) return ok();
    ++source_calls;
    auto n = source(MutableByteSpan(buffer));
    if (!n) return std::unexpected(n.error());
    if (*n > buffer.size()) {
      return fail(ErrorCode::kInvalidArgument, "source returned {} bytes for a {}-byte buffer", *n,
                  buffer.size());
    }
    in_pos = 0;
    in_len = *n;
    if (*n == 0) source_done = true;
    return ok();
  }

  // After the end marker nothing may follow, in the buffer or from the source.
  Status check_trailing() {
    if (in_pos == in_len) {
      if (auto s = refill(); !s) return s;
    }
    if (in_pos < in_len) {
      return fail(ErrorCode::kTrailingData, "{} stream: data after its end",
                  to_string(codec->method));
    }
    return ok();
  }

  // One decoder step from the input buffer into `out`.
  Status step(OutCursor& out) {
    if (source_done && !codec->end_marker) {
      ended = true;  // stored data ends with its input
      return ok();
    }
    InCursor in{ByteSpan(buffer.data(), in_len), in_pos};
    const usize out_before = out.pos;
    auto done = decoder->step(in, out);
    if (!done) return std::unexpected(done.error());
    const bool progress = in.pos != in_pos || out.pos != out_before;
    in_pos = in.pos;
    ended = *done;
    if (!ended && !progress) {
      if (source_done) {
        return fail(ErrorCode::kCorrupt, "{} stream is truncated", to_string(codec->method));
      }
      return fail(ErrorCode::kCorrupt, "{} stream makes no progress", to_string(codec->method));
    }
    return ok();
  }
};

StreamDecompressor::StreamDecompressor(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
StreamDecompressor::StreamDecompressor(StreamDecompressor&&) noexcept = default;
StreamDecompressor& StreamDecompressor::operator=(StreamDecompressor&&) noexcept = default;
StreamDecompressor::~StreamDecompressor() = default;

Result<StreamDecompressor> StreamDecompressor::create(Compression method, usize buffer_size,
                                                      ByteSource source) {
  auto codec = codec_of(method);
  if (!codec) return std::unexpected(codec.error());
  if (auto s = check_buffer_size(buffer_size, "input"); !s) return std::unexpected(s.error());
  if (!source) return fail(ErrorCode::kInvalidArgument, "StreamDecompressor needs a source");
  auto decoder = (*codec)->make_decoder();
  if (!decoder) return std::unexpected(decoder.error());
  if (auto s = (*decoder)->reset(false); !s) return std::unexpected(s.error());
  auto impl = std::make_unique<Impl>();
  impl->codec = *codec;
  impl->decoder = std::move(*decoder);
  impl->buffer.resize(buffer_size);
  impl->source = std::move(source);
  return StreamDecompressor(std::move(impl));
}

Result<usize> StreamDecompressor::read(MutableByteSpan output) {
  if (output.empty()) {
    return fail(ErrorCode::kInvalidArgument, "StreamDecompressor::read into an empty buffer");
  }
  Impl& d = *impl_;
  OutCursor out{output};
  while (out.pos == 0 && !d.ended) {
    if (auto s = d.refill(); !s) return std::unexpected(s.error());
    if (auto s = d.step(out); !s) return std::unexpected(s.error());
  }
  if (d.ended && d.codec->end_marker) {
    if (auto s = d.check_trailing(); !s) return std::unexpected(s.error());
  }
  return out.pos;
}

u64 StreamDecompressor::source_calls() const { return impl_->source_calls; }

}  // namespace keel::pack
