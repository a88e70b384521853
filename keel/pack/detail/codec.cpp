#include "keel/pack/detail/codec.h"

namespace keel::pack::detail {

const Codec* find_codec(Compression method) {
  switch (method) {
    case Compression::kNone: return &kStoredCodec;
    case Compression::kZstd: return &kZstdCodec;
    case Compression::kZlib: return &kZlibCodec;
  }
  return nullptr;
}

Unexpected resource_error(Compression method, std::string_view what) {
  return fail(ErrorCode::kOutOfMemory, "{}: {}", to_string(method), what);
}

Unexpected unknown_method(Compression method) {
  return fail(ErrorCode::kUnsupported, "unknown compression method {}", static_cast<int>(method));
}

}  // namespace keel::pack::detail
