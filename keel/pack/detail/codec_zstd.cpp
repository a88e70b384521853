// zstd, default level 3.
#include "keel/pack/detail/codec.h"

// For the parameter name ZSTD_d_stableOutBuffer only; it is passed through the stable
// ZSTD_DCtx_setParameter, no experimental function is called.
#define ZSTD_STATIC_LINKING_ONLY
#include <zstd.h>
#include <zstd_errors.h>

#include <algorithm>
#include <array>
#include <cstring>

namespace keel::pack::detail {
namespace {

constexpr int kDefaultZstdLevel = 3;

class ZstdEncoder final : public Encoder {
 public:
  ~ZstdEncoder() override { ZSTD_freeCCtx(ctx_); }
  Status init(int level, std::optional<u64> size) {
    ctx_ = ZSTD_createCCtx();
    if (ctx_ == nullptr) return resource_error(Compression::kZstd, "out of memory");
    ZSTD_CCtx_setParameter(ctx_, ZSTD_c_compressionLevel, level == 0 ? kDefaultZstdLevel : level);
    if (size) ZSTD_CCtx_setPledgedSrcSize(ctx_, *size);  // the frame records its content size
    return ok();
  }
  Result<bool> step(InCursor& in, OutCursor& out, bool end) override {
    ZSTD_inBuffer ib{in.data.data(), in.data.size(), in.pos};
    ZSTD_outBuffer ob{out.data.data(), out.data.size(), out.pos};
    const size_t rc = ZSTD_compressStream2(ctx_, &ob, &ib, end ? ZSTD_e_end : ZSTD_e_continue);
    if (ZSTD_isError(rc)) {
      if (ZSTD_getErrorCode(rc) == ZSTD_error_memory_allocation) {
        return resource_error(Compression::kZstd, "out of memory");
      }
      return fail(ErrorCode::kInvalidArgument, "zstd compression: {}", ZSTD_getErrorName(rc));
    }
    in.pos = ib.pos;
    out.pos = ob.pos;
    return end && rc == 0;
  }

 private:
  ZSTD_CCtx* ctx_ = nullptr;
};

class ZstdDecoder final : public Decoder {
 public:
  ~ZstdDecoder() override { ZSTD_freeDCtx(ctx_); }
  Status init() {
    ctx_ = ZSTD_createDCtx();
    if (ctx_ == nullptr) return resource_error(Compression::kZstd, "out of memory");
    return ok();
  }
  Status reset(bool fixed_output) override {
    ZSTD_DCtx_reset(ctx_, ZSTD_reset_session_only);
    // A fixed output is one buffer: zstd decodes straight into it and uses it as its window, so
    // it allocates no window of its own (whatever size a hostile frame asks for) and copies
    // nothing.
    ZSTD_DCtx_setParameter(ctx_, ZSTD_d_stableOutBuffer, fixed_output ? 1 : 0);
    head_size_ = 0;
    total_out_ = 0;
    return ok();
  }
  Result<bool> step(InCursor& in, OutCursor& out) override {
    ZSTD_inBuffer ib{in.data.data(), in.data.size(), in.pos};
    ZSTD_outBuffer ob{out.data.data(), out.data.size(), out.pos};
    const size_t rc = ZSTD_decompressStream(ctx_, &ob, &ib);
    if (ZSTD_isError(rc)) {
      if (ZSTD_getErrorCode(rc) == ZSTD_error_memory_allocation) {
        return resource_error(Compression::kZstd, "out of memory");
      }
      return fail(ErrorCode::kCorrupt, "zstd: {}", ZSTD_getErrorName(rc));
    }
    keep_head(in.next(), ib.pos - in.pos);
    total_out_ += ob.pos - out.pos;
    in.pos = ib.pos;
    out.pos = ob.pos;
    if (rc != 0) return false;
    return check_content_size();
  }

 private:
  // zstd's streaming decoder does not compare a frame's declared content size with what an empty
  // last block leaves it at, so the frame header is kept and checked at the end.
  void keep_head(const std::byte* consumed, usize n) {
    const usize keep = std::min(n, head_.size() - head_size_);
    if (keep != 0) std::memcpy(head_.data() + head_size_, consumed, keep);
    head_size_ += keep;
  }
  Result<bool> check_content_size() const {
    const unsigned long long declared = ZSTD_getFrameContentSize(head_.data(), head_size_);
    if (declared != ZSTD_CONTENTSIZE_UNKNOWN && declared != ZSTD_CONTENTSIZE_ERROR &&
        declared != total_out_) {
      return fail(ErrorCode::kCorrupt, "zstd: frame declares {} bytes, holds {}", declared,
                  total_out_);
    }
    return true;
  }

  ZSTD_DCtx* ctx_ = nullptr;
  std::array<std::byte, ZSTD_FRAMEHEADERSIZE_MAX> head_{};
  usize head_size_ = 0;
  u64 total_out_ = 0;
};

}  // namespace

const Codec kZstdCodec{
    .method = Compression::kZstd,
    .end_marker = true,
    // A 4-byte RLE block yields at most 128 KiB.
    .max_expansion = [](u64 stored) { return stored * 32768 + 131072; },
    .bound = [](u64 size) { return u64{ZSTD_compressBound(size)}; },
    .make_encoder = [](int level, std::optional<u64> size) -> Result<std::unique_ptr<Encoder>> {
      auto encoder = std::make_unique<ZstdEncoder>();
      if (auto s = encoder->init(level, size); !s) return std::unexpected(s.error());
      return encoder;
    },
    .make_decoder = []() -> Result<std::unique_ptr<Decoder>> {
      auto decoder = std::make_unique<ZstdDecoder>();
      if (auto s = decoder->init(); !s) return std::unexpected(s.error());
      return decoder;
    },
};

}  // namespace keel::pack::detail
