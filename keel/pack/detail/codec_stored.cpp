// Stored data: no compression, no end marker (the stream ends with its input).
#include "keel/pack/detail/codec.h"

#include <algorithm>
#include <cstring>

namespace keel::pack::detail {
namespace {

void copy(InCursor& in, OutCursor& out) {
  const usize n = std::min(in.left(), out.left());
  if (n != 0) std::memcpy(out.next(), in.next(), n);
  in.pos += n;
  out.pos += n;
}

class StoredEncoder final : public Encoder {
 public:
  Result<bool> step(InCursor& in, OutCursor& out, bool end) override {
    copy(in, out);
    return end && in.left() == 0;
  }
};

class StoredDecoder final : public Decoder {
 public:
  Status reset(bool) override { return ok(); }
  Result<bool> step(InCursor& in, OutCursor& out) override {
    copy(in, out);
    return false;
  }
};

}  // namespace

const Codec kStoredCodec{
    .method = Compression::kNone,
    .end_marker = false,
    .max_expansion = [](u64 stored) { return stored; },
    .bound = [](u64 size) { return size; },
    .make_encoder = [](int, std::optional<u64>) -> Result<std::unique_ptr<Encoder>> {
      return std::make_unique<StoredEncoder>();
    },
    .make_decoder = []() -> Result<std::unique_ptr<Decoder>> {
      return std::make_unique<StoredDecoder>();
    },
};

}  // namespace keel::pack::detail
