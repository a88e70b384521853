// Fuzz target: the texture chunk view (chunks come from data files: external data).
#include "keel/assets/texture.h"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const keel::ByteSpan bytes = keel::as_bytes(std::span<const uint8_t>(data, size));
  keel::Result<keel::assets::Texture> texture = keel::assets::Texture::view(bytes);
  if (!texture) return 0;
  keel::u64 total = keel::assets::kTextureHeaderSize;
  for (keel::u32 i = 0; i < texture->level_count(); ++i) {
    const keel::assets::TextureLevel level = texture->level(i);
    if (level.data.data() < bytes.data() ||
        level.data.data() + level.data.size() > bytes.data() + size) {
      std::abort();  // every level lies inside the chunk
    }
    total += level.data.size();
  }
  if (total != size) std::abort();  // and together they fill it
  return 0;
}
