// Fuzz target: the WAV reader of the Sound handler (source files are external data).
#include "keel/assets/build/sound_source.h"
#include "keel/assets/sound.h"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace keel::assets;
  const keel::ByteSpan bytes = keel::as_bytes(std::span<const uint8_t>(data, size));
  keel::Result<DecodedSound> sound = read_wav(bytes, "fuzz.wav");
  if (!sound) return 0;
  if (sound->channels < 1 || sound->channels > 2) std::abort();
  if (sound->samples.size() % sound->channels != 0) std::abort();
  if (sound->frames() <= 4096) {  // bounded work per input
    const std::vector<float> out =
        resample(sound->samples, sound->channels, sound->sample_rate, kSoundRate);
    (void)to_pcm16(out);
  }
  return 0;
}
