// Fuzz target: the atlas chunk view (chunks come from data files: external data).
#include "keel/assets/atlas.h"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const keel::ByteSpan bytes = keel::as_bytes(std::span<const uint8_t>(data, size));
  keel::Result<keel::assets::AtlasView> atlas = keel::assets::AtlasView::parse(bytes);
  if (!atlas) return 0;
  for (const keel::assets::AtlasFrame& f : *atlas) {
    // Every accepted frame lies inside the texture, its name inside the chunk, and finds itself.
    if (f.x + f.width > atlas->width() || f.y + f.height > atlas->height()) std::abort();
    const auto* name = reinterpret_cast<const std::byte*>(f.name.data());
    if (name < bytes.data() || name + f.name.size() > bytes.data() + size) std::abort();
    const std::optional<keel::assets::AtlasFrame> found = atlas->find(f.name);
    if (!found || *found != f) std::abort();
    const keel::assets::AtlasUv uv = atlas->uv(f);
    if (!(uv.u0 >= 0 && uv.u1 <= 1 && uv.v0 >= 0 && uv.v1 <= 1)) std::abort();
  }
  return 0;
}
