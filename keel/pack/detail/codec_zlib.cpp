// zlib (deflate with the zlib wrapper), default level 6.
#include "keel/pack/detail/codec.h"

#include <zlib.h>

#include <algorithm>
#include <limits>

namespace keel::pack::detail {
namespace {

constexpr int kDefaultZlibLevel = 6;
// zlib counts in uInt (32 bits); it is fed in pieces no larger than this.
constexpr usize kStep = std::numeric_limits<uInt>::max();

Bytef* zin(const std::byte* p) { return reinterpret_cast<Bytef*>(const_cast<std::byte*>(p)); }
Bytef* zout(std::byte* p) { return reinterpret_cast<Bytef*>(p); }

Unexpected zlib_error(int code, const z_stream& zs) {
  if (code == Z_MEM_ERROR) return resource_error(Compression::kZlib, "out of memory");
  return fail(ErrorCode::kCorrupt, "zlib: {} ({})", zs.msg != nullptr ? zs.msg : "error", code);
}

// Points the stream at the cursors (at most kStep bytes each way); returns the step sizes.
std::pair<usize, usize> aim(z_stream& zs, const InCursor& in, OutCursor& out, Bytef& spare) {
  const usize in_step = std::min(in.left(), kStep);
  const usize out_step = std::min(out.left(), kStep);
  zs.next_in = zin(in.next());
  zs.avail_in = static_cast<uInt>(in_step);
  // zlib refuses a null output pointer even with no room.
  zs.next_out = out.data.empty() ? &spare : zout(out.next());
  zs.avail_out = static_cast<uInt>(out_step);
  return {in_step, out_step};
}

class ZlibEncoder final : public Encoder {
 public:
  ~ZlibEncoder() override { deflateEnd(&zs_); }
  Status init(int level) {
    if (deflateInit(&zs_, level) != Z_OK) return resource_error(Compression::kZlib, "init failed");
    return ok();
  }
  Result<bool> step(InCursor& in, OutCursor& out, bool end) override {
    Bytef spare = 0;
    const auto [in_step, out_step] = aim(zs_, in, out, spare);
    const bool last = end && in_step == in.left();
    const int rc = deflate(&zs_, last ? Z_FINISH : Z_NO_FLUSH);
    if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR) {
      if (rc == Z_MEM_ERROR) return resource_error(Compression::kZlib, "out of memory");
      return fail(ErrorCode::kInvalidArgument, "zlib compression failed ({})", rc);
    }
    in.pos += in_step - zs_.avail_in;
    out.pos += out_step - zs_.avail_out;
    return rc == Z_STREAM_END;
  }

 private:
  z_stream zs_{};
};

class ZlibDecoder final : public Decoder {
 public:
  ~ZlibDecoder() override { inflateEnd(&zs_); }
  Status init() {
    if (inflateInit(&zs_) != Z_OK) return resource_error(Compression::kZlib, "init failed");
    return ok();
  }
  Status reset(bool) override {
    if (inflateReset(&zs_) != Z_OK) return resource_error(Compression::kZlib, "reset failed");
    return ok();
  }
  Result<bool> step(InCursor& in, OutCursor& out) override {
    Bytef spare = 0;
    const auto [in_step, out_step] = aim(zs_, in, out, spare);
    const int rc = inflate(&zs_, Z_NO_FLUSH);
    in.pos += in_step - zs_.avail_in;
    out.pos += out_step - zs_.avail_out;
    if (rc == Z_STREAM_END) return true;
    if (rc == Z_OK || rc == Z_BUF_ERROR) return false;  // no progress: the driver judges
    if (rc == Z_NEED_DICT) return fail(ErrorCode::kCorrupt, "zlib: stream needs a dictionary");
    return zlib_error(rc, zs_);
  }

 private:
  z_stream zs_{};
};

}  // namespace

const Codec kZlibCodec{
    .method = Compression::kZlib,
    .end_marker = true,
    .max_expansion = [](u64 stored) { return stored * 1032; },  // deflate's limit
    .bound = [](u64 size) { return u64{compressBound(static_cast<uLong>(size))} + 64; },
    .make_encoder = [](int level, std::optional<u64>) -> Result<std::unique_ptr<Encoder>> {
      if (level == 0) level = kDefaultZlibLevel;
      if (level < 1 || level > 9) {
        return fail(ErrorCode::kInvalidArgument, "zlib level {} not in 1..9", level);
      }
      auto encoder = std::make_unique<ZlibEncoder>();
      if (auto s = encoder->init(level); !s) return std::unexpected(s.error());
      return encoder;
    },
    .make_decoder = []() -> Result<std::unique_ptr<Decoder>> {
      auto decoder = std::make_unique<ZlibDecoder>();
      if (auto s = decoder->init(); !s) return std::unexpected(s.error());
      return decoder;
    },
};

}  // namespace keel::pack::detail
