#include "keel/pack/compression.h"

#include "keel/core/assert.h"

#include <zlib.h>
// For the parameter name ZSTD_d_stableOutBuffer only; it is passed through the stable
// ZSTD_DCtx_setParameter, no experimental function is called.
#define ZSTD_STATIC_LINKING_ONLY
#include <zstd.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>

namespace keel::pack {
namespace {

constexpr int kDefaultZstdLevel = 3;
constexpr int kDefaultZlibLevel = 6;
// zlib counts in uInt (32 bits); feed it in pieces no larger than this.
constexpr usize kZlibStep = std::numeric_limits<uInt>::max();

int zstd_level(int level) { return level == 0 ? kDefaultZstdLevel : level; }

Result<int> zlib_level(int level) {
  if (level == 0) return kDefaultZlibLevel;
  if (level < 1 || level > 9)
    return fail(ErrorCode::kInvalidArgument, "zlib level {} not in 1..9", level);
  return level;
}

Unexpected zstd_error(std::string_view what, size_t code) {
  return fail(ErrorCode::kCorrupt, "{}: zstd: {}", what, ZSTD_getErrorName(code));
}

Unexpected zlib_error(std::string_view what, int code, const z_stream& zs) {
  return fail(ErrorCode::kCorrupt, "{}: zlib: {} ({})", what, zs.msg ? zs.msg : "error", code);
}

Unexpected unknown_method(Compression method) {
  return fail(ErrorCode::kUnsupported, "unknown compression method {}", static_cast<int>(method));
}

bool known(Compression method) {
  return method == Compression::kNone || method == Compression::kZstd ||
         method == Compression::kZlib;
}

Bytef* zin(const std::byte* p) { return reinterpret_cast<Bytef*>(const_cast<std::byte*>(p)); }
Bytef* zout(std::byte* p) { return reinterpret_cast<Bytef*>(p); }

}  // namespace

// ---- whole buffers ----------------------------------------------------------------------------

Result<std::vector<std::byte>> compress(Compression method, std::span<const std::byte> input,
                                        int level) {
  std::vector<std::byte> out;
  switch (method) {
    case Compression::kNone: out.assign(input.begin(), input.end()); return out;
    case Compression::kZstd: {
      out.resize(ZSTD_compressBound(input.size()));
      ZSTD_CCtx* cctx = ZSTD_createCCtx();
      if (cctx == nullptr) return fail(ErrorCode::kOverflow, "zstd: out of memory");
      ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, zstd_level(level));
      ZSTD_CCtx_setParameter(cctx, ZSTD_c_contentSizeFlag, 1);
      const size_t n = ZSTD_compress2(cctx, out.data(), out.size(), input.data(), input.size());
      ZSTD_freeCCtx(cctx);
      if (ZSTD_isError(n)) {
        return fail(ErrorCode::kInvalidArgument, "zstd compression: {}", ZSTD_getErrorName(n));
      }
      out.resize(n);
      return out;
    }
    case Compression::kZlib: {
      auto lvl = zlib_level(level);
      if (!lvl) return std::unexpected(lvl.error());
      z_stream zs{};
      if (deflateInit(&zs, *lvl) != Z_OK) return fail(ErrorCode::kOverflow, "zlib: init failed");
      out.resize(deflateBound(&zs, static_cast<uLong>(input.size())) + 64);
      usize in_pos = 0;
      usize out_pos = 0;
      int rc = Z_OK;
      while (rc != Z_STREAM_END) {
        if (out_pos == out.size()) out.resize(out.size() * 2 + 64);
        const usize in_step = std::min(input.size() - in_pos, kZlibStep);
        const usize out_step = std::min(out.size() - out_pos, kZlibStep);
        zs.next_in = zin(input.data() + in_pos);
        zs.avail_in = static_cast<uInt>(in_step);
        zs.next_out = zout(out.data() + out_pos);
        zs.avail_out = static_cast<uInt>(out_step);
        const bool last = in_pos + in_step == input.size();
        rc = deflate(&zs, last ? Z_FINISH : Z_NO_FLUSH);
        in_pos += in_step - zs.avail_in;
        out_pos += out_step - zs.avail_out;
        if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR) {
          deflateEnd(&zs);
          return fail(ErrorCode::kInvalidArgument, "zlib compression failed ({})", rc);
        }
      }
      deflateEnd(&zs);
      out.resize(out_pos);
      return out;
    }
  }
  return unknown_method(method);
}

Status decompress(Compression method, std::span<const std::byte> input,
                  std::span<std::byte> output) {
  BlockDecoder decoder;
  if (auto s = decoder.begin(method, output); !s) return s;
  if (auto s = decoder.push(input); !s) return s;
  return decoder.finish();
}

u64 max_expansion(Compression method, u64 stored) {
  switch (method) {
    case Compression::kNone: return stored;
    case Compression::kZlib: return stored * 1032;            // deflate's limit
    case Compression::kZstd: return stored * 32768 + 131072;  // 4-byte RLE blocks of 128 KiB
  }
  return 0;
}

// ---- BlockDecoder -----------------------------------------------------------------------------

struct BlockDecoder::Impl {
  Compression method = Compression::kNone;
  ZSTD_DCtx* zstd = nullptr;
  z_stream zlib{};
  bool zlib_ready = false;
  std::span<std::byte> out;
  usize produced = 0;
  bool ended = false;

  ~Impl() {
    if (zstd != nullptr) ZSTD_freeDCtx(zstd);
    if (zlib_ready) inflateEnd(&zlib);
  }

  Status push_zstd(std::span<const std::byte> input) {
    ZSTD_inBuffer in{input.data(), input.size(), 0};
    while (in.pos < in.size) {
      if (ended) return fail(ErrorCode::kCorrupt, "zstd: data after the end of the stream");
      ZSTD_outBuffer o{out.data(), out.size(), produced};
      const usize in_before = in.pos;
      const size_t rc = ZSTD_decompressStream(zstd, &o, &in);
      if (ZSTD_isError(rc)) return zstd_error("block", rc);
      const bool progress = in.pos != in_before || o.pos != produced;
      produced = o.pos;
      if (rc == 0) {
        ended = true;
      } else if (!progress) {
        return fail(ErrorCode::kCorrupt, "zstd: stream holds more than {} bytes", out.size());
      }
    }
    return ok();
  }

  Status push_zlib(std::span<const std::byte> input) {
    usize in_pos = 0;
    while (in_pos < input.size()) {
      if (ended) return fail(ErrorCode::kCorrupt, "zlib: data after the end of the stream");
      const usize in_step = std::min(input.size() - in_pos, kZlibStep);
      const usize out_step = std::min(out.size() - produced, kZlibStep);
      zlib.next_in = zin(input.data() + in_pos);
      zlib.avail_in = static_cast<uInt>(in_step);
      Bytef spare = 0;  // zlib refuses a null output pointer even with no room
      zlib.next_out = out.empty() ? &spare : zout(out.data() + produced);
      zlib.avail_out = static_cast<uInt>(out_step);
      const int rc = inflate(&zlib, Z_NO_FLUSH);
      const usize used = in_step - zlib.avail_in;
      const usize made = out_step - zlib.avail_out;
      in_pos += used;
      produced += made;
      if (rc == Z_STREAM_END) {
        ended = true;
      } else if (rc == Z_BUF_ERROR || (rc == Z_OK && used == 0 && made == 0)) {
        if (produced == out.size()) {
          return fail(ErrorCode::kCorrupt, "zlib: stream holds more than {} bytes", out.size());
        }
        if (used == 0 && made == 0) return zlib_error("block", rc, zlib);
      } else if (rc != Z_OK) {
        return zlib_error("block", rc, zlib);
      }
    }
    return ok();
  }
};

BlockDecoder::BlockDecoder() : impl_(std::make_unique<Impl>()) {}
BlockDecoder::~BlockDecoder() = default;
BlockDecoder::BlockDecoder(BlockDecoder&&) noexcept = default;
BlockDecoder& BlockDecoder::operator=(BlockDecoder&&) noexcept = default;

Status BlockDecoder::begin(Compression method, std::span<std::byte> output) {
  if (!known(method)) return unknown_method(method);
  Impl& d = *impl_;
  d.method = method;
  d.out = output;
  d.produced = 0;
  d.ended = false;
  if (method == Compression::kZstd) {
    if (d.zstd == nullptr) {
      d.zstd = ZSTD_createDCtx();
      if (d.zstd == nullptr) return fail(ErrorCode::kOverflow, "zstd: out of memory");
      // The output is one fixed buffer: zstd decodes straight into it and uses it as its
      // window, so it allocates no window of its own (whatever size a hostile frame asks for)
      // and copies nothing.
      ZSTD_DCtx_setParameter(d.zstd, ZSTD_d_stableOutBuffer, 1);
    }
    ZSTD_DCtx_reset(d.zstd, ZSTD_reset_session_only);
  } else if (method == Compression::kZlib) {
    if (!d.zlib_ready) {
      d.zlib = z_stream{};
      if (inflateInit(&d.zlib) != Z_OK) return fail(ErrorCode::kOverflow, "zlib: init failed");
      d.zlib_ready = true;
    } else if (inflateReset(&d.zlib) != Z_OK) {
      return fail(ErrorCode::kOverflow, "zlib: reset failed");
    }
  }
  return ok();
}

Status BlockDecoder::push(std::span<const std::byte> input) {
  Impl& d = *impl_;
  switch (d.method) {
    case Compression::kNone:
      if (input.size() > d.out.size() - d.produced) {
        return fail(ErrorCode::kCorrupt, "raw block holds more than {} bytes", d.out.size());
      }
      if (!input.empty()) std::memcpy(d.out.data() + d.produced, input.data(), input.size());
      d.produced += input.size();
      return ok();
    case Compression::kZstd: return d.push_zstd(input);
    case Compression::kZlib: return d.push_zlib(input);
  }
  return unknown_method(d.method);
}

Status BlockDecoder::finish() {
  const Impl& d = *impl_;
  if (d.method != Compression::kNone && !d.ended) {
    return fail(ErrorCode::kCorrupt, "{} stream is truncated ({} of {} bytes)", to_string(d.method),
                d.produced, d.out.size());
  }
  if (d.produced != d.out.size()) {
    return fail(ErrorCode::kCorrupt, "block decodes to {} bytes, expected {}", d.produced,
                d.out.size());
  }
  return ok();
}

// ---- StreamCompressor -------------------------------------------------------------------------

struct StreamCompressor::Impl {
  Compression method = Compression::kNone;
  ZSTD_CCtx* zstd = nullptr;
  z_stream zlib{};
  bool zlib_ready = false;
  std::vector<std::byte> buffer;
  usize used = 0;
  ByteSink sink;
  u64 sink_calls = 0;
  u64 finish_sink_calls = 0;
  u64 bytes_out = 0;
  bool in_finish = false;
  bool finished = false;

  ~Impl() {
    if (zstd != nullptr) ZSTD_freeCCtx(zstd);
    if (zlib_ready) deflateEnd(&zlib);
  }

  Status emit() {
    if (used == 0) return ok();
    ++sink_calls;
    if (in_finish) ++finish_sink_calls;
    bytes_out += used;
    const usize n = used;
    used = 0;
    return sink(std::span<const std::byte>(buffer.data(), n));
  }

  // One compression step over `input` (advanced in place); `end` = finish the stream.
  // Returns true when the stream is complete (only possible with `end`).
  Result<bool> step(std::span<const std::byte>& input, bool end) {
    switch (method) {
      case Compression::kNone: {
        const usize n = std::min(input.size(), buffer.size() - used);
        if (n != 0) std::memcpy(buffer.data() + used, input.data(), n);
        used += n;
        input = input.subspan(n);
        return end && input.empty();
      }
      case Compression::kZstd: {
        ZSTD_inBuffer in{input.data(), input.size(), 0};
        ZSTD_outBuffer o{buffer.data(), buffer.size(), used};
        const size_t rc = ZSTD_compressStream2(zstd, &o, &in, end ? ZSTD_e_end : ZSTD_e_continue);
        if (ZSTD_isError(rc)) {
          return fail(ErrorCode::kInvalidArgument, "zstd compression: {}", ZSTD_getErrorName(rc));
        }
        used = o.pos;
        input = input.subspan(in.pos);
        return end && rc == 0;
      }
      case Compression::kZlib: {
        const usize in_step = std::min(input.size(), kZlibStep);
        zlib.next_in = zin(input.data());
        zlib.avail_in = static_cast<uInt>(in_step);
        zlib.next_out = zout(buffer.data() + used);
        zlib.avail_out = static_cast<uInt>(buffer.size() - used);
        const usize before_out = zlib.avail_out;
        const bool last = end && in_step == input.size();
        const int rc = deflate(&zlib, last ? Z_FINISH : Z_NO_FLUSH);
        if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR) {
          return fail(ErrorCode::kInvalidArgument, "zlib compression failed ({})", rc);
        }
        used += before_out - zlib.avail_out;
        input = input.subspan(in_step - zlib.avail_in);
        return rc == Z_STREAM_END;
      }
    }
    return unknown_method(method);
  }
};

StreamCompressor::StreamCompressor(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
StreamCompressor::StreamCompressor(StreamCompressor&&) noexcept = default;
StreamCompressor& StreamCompressor::operator=(StreamCompressor&&) noexcept = default;
StreamCompressor::~StreamCompressor() = default;

Result<StreamCompressor> StreamCompressor::create(Compression method, int level, usize buffer_size,
                                                  ByteSink sink) {
  if (!known(method)) return unknown_method(method);
  if (buffer_size == 0 || buffer_size > kZlibStep) {
    return fail(ErrorCode::kInvalidArgument, "output buffer size {} not in 1..{}", buffer_size,
                kZlibStep);
  }
  auto impl = std::make_unique<Impl>();
  impl->method = method;
  impl->buffer.resize(buffer_size);
  impl->sink = std::move(sink);
  if (method == Compression::kZstd) {
    impl->zstd = ZSTD_createCCtx();
    if (impl->zstd == nullptr) return fail(ErrorCode::kOverflow, "zstd: out of memory");
    ZSTD_CCtx_setParameter(impl->zstd, ZSTD_c_compressionLevel, zstd_level(level));
  } else if (method == Compression::kZlib) {
    auto lvl = zlib_level(level);
    if (!lvl) return std::unexpected(lvl.error());
    if (deflateInit(&impl->zlib, *lvl) != Z_OK) {
      return fail(ErrorCode::kOverflow, "zlib: init failed");
    }
    impl->zlib_ready = true;
  }
  return StreamCompressor(std::move(impl));
}

Status StreamCompressor::write(std::span<const std::byte> input) {
  Impl& c = *impl_;
  if (c.finished) return fail(ErrorCode::kInvalidArgument, "write after finish");
  while (!input.empty()) {
    auto done = c.step(input, false);
    if (!done) return std::unexpected(done.error());
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
  std::span<const std::byte> none;
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
  Compression method = Compression::kNone;
  ZSTD_DCtx* zstd = nullptr;
  z_stream zlib{};
  bool zlib_ready = false;
  std::vector<std::byte> buffer;
  usize in_pos = 0;
  usize in_len = 0;
  ByteSource source;
  bool source_done = false;
  bool ended = false;
  u64 source_calls = 0;
  // zstd's streaming decoder does not compare a frame's declared content size with what an empty
  // last block leaves it at, so the frame header is kept and checked at the end.
  std::array<u8, ZSTD_FRAMEHEADERSIZE_MAX> zstd_head{};
  usize zstd_head_size = 0;
  u64 total_out = 0;

  ~Impl() {
    if (zstd != nullptr) ZSTD_freeDCtx(zstd);
    if (zlib_ready) inflateEnd(&zlib);
  }

  Status refill() {
    if (in_pos < in_len || source_done) return ok();
    ++source_calls;
    auto n = source(std::span<std::byte>(buffer));
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
      return fail(ErrorCode::kTrailingData, "{} stream: data after its end", to_string(method));
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
  if (!known(method)) return unknown_method(method);
  if (buffer_size == 0 || buffer_size > kZlibStep) {
    return fail(ErrorCode::kInvalidArgument, "input buffer size {} not in 1..{}", buffer_size,
                kZlibStep);
  }
  auto impl = std::make_unique<Impl>();
  impl->method = method;
  impl->buffer.resize(buffer_size);
  impl->source = std::move(source);
  if (method == Compression::kZstd) {
    impl->zstd = ZSTD_createDCtx();
    if (impl->zstd == nullptr) return fail(ErrorCode::kOverflow, "zstd: out of memory");
  } else if (method == Compression::kZlib) {
    if (inflateInit(&impl->zlib) != Z_OK) return fail(ErrorCode::kOverflow, "zlib: init failed");
    impl->zlib_ready = true;
  }
  return StreamDecompressor(std::move(impl));
}

Result<usize> StreamDecompressor::read(std::span<std::byte> output) {
  KEEL_ASSERT(!output.empty());
  Impl& d = *impl_;
  usize produced = 0;
  while (produced == 0 && !d.ended) {
    if (auto s = d.refill(); !s) return std::unexpected(s.error());
    const usize avail = d.in_len - d.in_pos;
    const std::byte* in = d.buffer.data() + d.in_pos;
    usize used = 0;
    switch (d.method) {
      case Compression::kNone: {
        if (d.source_done) {
          d.ended = true;
          break;
        }
        const usize n = std::min(avail, output.size());
        std::memcpy(output.data(), in, n);
        used = produced = n;
        break;
      }
      case Compression::kZstd: {
        ZSTD_inBuffer ib{in, avail, 0};
        ZSTD_outBuffer ob{output.data(), output.size(), 0};
        const size_t rc = ZSTD_decompressStream(d.zstd, &ob, &ib);
        if (ZSTD_isError(rc)) return zstd_error("stream", rc);
        used = ib.pos;
        produced = ob.pos;
        const usize keep = std::min(used, d.zstd_head.size() - d.zstd_head_size);
        std::memcpy(d.zstd_head.data() + d.zstd_head_size, in, keep);
        d.zstd_head_size += keep;
        d.total_out += produced;
        if (rc == 0) {
          d.ended = true;
          const unsigned long long declared =
              ZSTD_getFrameContentSize(d.zstd_head.data(), d.zstd_head_size);
          if (declared != ZSTD_CONTENTSIZE_UNKNOWN && declared != ZSTD_CONTENTSIZE_ERROR &&
              declared != d.total_out) {
            return fail(ErrorCode::kCorrupt, "zstd stream: frame declares {} bytes, holds {}",
                        declared, d.total_out);
          }
        }
        break;
      }
      case Compression::kZlib: {
        d.zlib.next_in = zin(in);
        d.zlib.avail_in = static_cast<uInt>(avail);
        d.zlib.next_out = zout(output.data());
        d.zlib.avail_out = static_cast<uInt>(std::min(output.size(), kZlibStep));
        const uInt out_before = d.zlib.avail_out;
        const int rc = inflate(&d.zlib, Z_NO_FLUSH);
        if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR) {
          return zlib_error("stream", rc, d.zlib);
        }
        used = avail - d.zlib.avail_in;
        produced = out_before - d.zlib.avail_out;
        if (rc == Z_STREAM_END) d.ended = true;
        break;
      }
    }
    d.in_pos += used;
    if (!d.ended && used == 0 && produced == 0 && d.source_done) {
      return fail(ErrorCode::kCorrupt, "{} stream is truncated", to_string(d.method));
    }
  }
  if (d.ended && d.method != Compression::kNone) {
    if (auto s = d.check_trailing(); !s) return std::unexpected(s.error());
  }
  return produced;
}

u64 StreamDecompressor::source_calls() const { return impl_->source_calls; }

}  // namespace keel::pack
