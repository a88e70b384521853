#include "keel/assets/build/preview.h"

namespace keel::assets {

// Placeholder until the mesh processor lands.
Result<Picture> picture_of_mesh(const pack::PackFile& /*pack*/, std::string_view name) {
  return Unexpected(
      Error(ErrorCode::kNotFound, "no mesh pictures yet (asset '" + std::string(name) + "')"));
}

}  // namespace keel::assets
