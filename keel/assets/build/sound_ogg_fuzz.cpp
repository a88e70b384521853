// Fuzz target: the Ogg Vorbis reader of the Sound handler (stb_vorbis; external data).
#include "keel/assets/build/sound_source.h"

#include <cmath>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace keel::assets;
  const keel::ByteSpan bytes = keel::as_bytes(std::span<const uint8_t>(data, size));
  keel::Result<DecodedSound> sound = read_ogg_vorbis(bytes, "fuzz.ogg");
  if (!sound) return 0;
  if (sound->channels < 1 || sound->channels > 2 || sound->samples.empty()) std::abort();
  for (float s : sound->samples) {
    if (!std::isfinite(s)) std::abort();
  }
  return 0;
}
