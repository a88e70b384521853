#include "sound.h"

namespace keel::voidfarer {

// Skeleton: the sounds are not added yet.
SoundPlayer::SoundPlayer(platform::Mixer& mixer, const pack::LoadedPack&) : mixer_(mixer) {}

void SoundPlayer::play(std::span<const SoundEvent> events, world::Vec2 listener) {
  mixer_.set_listener(listener);
  played_ += static_cast<u32>(events.size());
}

}  // namespace keel::voidfarer
