#include "keel/assets/build/preview.h"

namespace keel::assets {

// Placeholder until the texture processor lands.
Result<Picture> picture_of_texture(const pack::PackFile& /*pack*/, std::string_view name) {
  return Unexpected(
      Error(ErrorCode::kNotFound, "no texture pictures yet (asset '" + std::string(name) + "')"));
}

Status write_png(const Picture& /*picture*/, const std::filesystem::path& path) {
  return Unexpected(Error(ErrorCode::kIo, "PNG writing not available yet: " + path.string()));
}

}  // namespace keel::assets
