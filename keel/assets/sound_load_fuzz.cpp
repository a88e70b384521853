// Fuzz target: the sound chunk view (data files are external data).
#include "keel/assets/sound.h"

#include <cstdlib>
#include <cstring>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace keel::assets;
  std::vector<keel::u32> aligned((size + 3) / 4);  // pack chunks are 4-byte aligned
  if (size != 0) std::memcpy(aligned.data(), data, size);
  const keel::ByteSpan bytes = std::as_bytes(std::span<const keel::u32>(aligned)).first(size);
  keel::Result<SoundView> sound = SoundView::parse(bytes);
  if (!sound) return 0;
  if (sound->channels() < 1 || sound->channels() > kMaxSoundChannels) std::abort();
  if (sound->data().size() > size - kSoundHeaderBytes) std::abort();
  if (sound->encoding() == SoundEncoding::kPcm16) {
    if (sound->pcm().size() != keel::usize{sound->frame_count()} * sound->channels()) std::abort();
    long sum = 0;
    for (keel::s16 s : sound->pcm()) sum += s;  // every sample readable
    (void)sum;
  }
  (void)sound->duration();
  return 0;
}
