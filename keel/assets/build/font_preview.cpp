#include "keel/assets/build/preview.h"

namespace keel::assets {

// Placeholder until the font processor lands.
Result<Picture> picture_of_font(const pack::PackFile& /*pack*/, std::string_view name) {
  return Unexpected(
      Error(ErrorCode::kNotFound, "no font pictures yet (asset '" + std::string(name) + "')"));
}

}  // namespace keel::assets
