// Voidfarer's sounds: adds the pack's Sound assets to a keel/platform Mixer, plays the Sim's
// SoundEvents panned and attenuated around the listener (the player's ship: the mixer's
// Attenuation), the pack's "music" looped on the music bus when the pack has it, and the engine
// ("thrust", looped) while the player thrusts.
//
//   SoundPlayer sounds(mixer, sim.pack());             // the pack loaded with its names
//   sounds.play(sim.take_sounds(), player_position);   // each frame
//   sounds.set_thrust(controls.thrust);                // each frame
#pragma once

#include "sim.h"

#include "keel/pack/loader.h"
#include "keel/platform/audio.h"

#include <span>
#include <vector>

namespace keel::voidfarer {

class SoundPlayer {
 public:
  // At most this many voices of one sound start per frame (a volley of 200 shots is one sound
  // to the ear, and the mixer's voices are few).
  static constexpr u32 kMaxStartsPerSound = 4;

  // Adds the pack's Sound assets to `mixer` (which must outlive the player) by name, and starts
  // "music" looped. The pack must have been loaded with its names (LoadOptions::load_names).
  SoundPlayer(platform::Mixer& mixer, const pack::LoadedPack& pack);

  // Moves the listener and starts a voice per event (events of sounds the pack lacks are
  // counted in unknown()).
  void play(std::span<const SoundEvent> events, world::Vec2 listener);

  // Starts the looped "thrust" sound when `on` and it is not playing, stops it when not `on`
  // (nothing when the pack has no "thrust").
  void set_thrust(bool on);

  u32 played() const { return played_; }    // voices started
  u32 skipped() const { return skipped_; }  // over kMaxStartsPerSound in a frame
  u32 unknown() const { return unknown_; }  // events naming no sound of the pack
  usize sound_count() const { return sounds_.size(); }
  bool music_playing() const { return static_cast<bool>(music_); }
  bool thrust_playing() const { return static_cast<bool>(thrust_); }

 private:
  struct Entry {
    u32 id = 0;  // runtime_id(name).value, what SoundEvent::sound holds
    platform::SoundId sound;
    u32 started = 0;  // this frame
  };

  platform::Mixer& mixer_;
  std::vector<Entry> sounds_;
  platform::VoiceId music_;
  platform::SoundId thrust_sound_;
  platform::VoiceId thrust_;
  u32 played_ = 0;
  u32 skipped_ = 0;
  u32 unknown_ = 0;
};

}  // namespace keel::voidfarer
