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
    consumed_ = 0;
    header_size_ = 0;
    next_block_ = 0;
    block_head_size_ = 0;
    past_last_block_ = false;
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
    if (Status walked = walk_blocks(in.next(), ib.pos - in.pos); !walked) {
      return std::unexpected(walked.error());
    }
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

  // zstd's streaming decoder also takes a compressed block of 0 bytes for the end of the frame
  // (it then needs 0 more bytes and decodes nothing), where its one-shot decoder reports
  // corruption: the consumed bytes are walked block header by block header to refuse one.
  Status walk_blocks(const std::byte* p, usize n) {
    const u64 start = consumed_;
    const u64 end = consumed_ + n;
    consumed_ = end;
    if (header_size_ == 0 && head_size_ >= 5) {
      static constexpr std::byte kMagic[4] = {std::byte{0x28}, std::byte{0xB5}, std::byte{0x2F},
                                              std::byte{0xFD}};
      const size_t size = ZSTD_frameHeaderSize(head_.data(), head_size_);
      if (std::memcmp(head_.data(), kMagic, 4) != 0 || ZSTD_isError(size)) {
        past_last_block_ = true;  // not a plain frame: zstd's own checks only
      } else {
        header_size_ = size;
        next_block_ = size;
      }
    }
    if (header_size_ == 0) return ok();
    for (u64 at = std::max(start, next_block_ + block_head_size_); !past_last_block_ && at < end;) {
      block_head_[block_head_size_++] = std::to_integer<u32>(p[at - start]);
      ++at;
      if (block_head_size_ < 3) continue;
      block_head_size_ = 0;
      const u32 head = block_head_[0] | block_head_[1] << 8 | block_head_[2] << 16;
      const u32 type = (head >> 1) & 3;
      const u32 size = head >> 3;
      if (type == 2 && size == 0) {
        return fail(ErrorCode::kCorrupt, "zstd: a compressed block of 0 bytes at byte {}", at - 3);
      }
      next_block_ = at + (type == 1 ? 1 : size);  // an RLE block holds one byte
      past_last_block_ = (head & 1) != 0;
      at = std::max(at, next_block_);
    }
    return ok();
  }

  ZSTD_DCtx* ctx_ = nullptr;
  u64 consumed_ = 0;     // frame bytes the decoder has taken
  u64 header_size_ = 0;  // the frame header's, once known (0 before)
  u64 next_block_ = 0;   // where the next block header starts
  std::array<u32, 3> block_head_{};
  u32 block_head_size_ = 0;
  bool past_last_block_ = false;
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
