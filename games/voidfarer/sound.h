// Voidfarer's sounds: plays the Sim's SoundEvents on a keel/platform Mixer, panned and attenuated
// around the listener (the player's ship), and the music.
//
//   SoundPlayer sounds(mixer, sim.pack());
//   sounds.play(sim.take_sounds(), player_position);   // each frame
#pragma once

#include "sim.h"

#include "keel/pack/loader.h"
#include "keel/platform/audio.h"

#include <span>

namespace keel::voidfarer {

class SoundPlayer {
 public:
  // Adds the pack's Sound assets to `mixer` (which must outlive the player).
  SoundPlayer(platform::Mixer& mixer, const pack::LoadedPack& pack);

  void play(std::span<const SoundEvent> events, world::Vec2 listener);
  u32 played() const { return played_; }

 private:
  platform::Mixer& mixer_;
  u32 played_ = 0;
};

}  // namespace keel::voidfarer
