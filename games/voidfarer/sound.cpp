#include "sound.h"

#include "keel/assets/sound.h"
#include "keel/core/hash.h"
#include "keel/core/log.h"
#include "keel/pack/format.h"

#include <algorithm>

namespace keel::voidfarer {

SoundPlayer::SoundPlayer(platform::Mixer& mixer, const pack::LoadedPack& pack) : mixer_(mixer) {
  const std::span<const pack::LoadedPack::Asset> assets = pack.assets();
  const std::vector<std::string>& names = pack.names();
  const Hash sound_type = pack::type_hash(assets::kSoundType);
  for (usize i = 0; i < assets.size() && i < names.size(); ++i) {
    if (assets[i].type_hash != sound_type || assets[i].asset == nullptr) continue;
    const auto* view = static_cast<const assets::SoundView*>(assets[i].asset);
    Result<platform::SoundId> id = mixer_.add_sound(names[i], *view);
    if (!id) continue;  // the mixer is full: the sound stays silent
    sounds_.push_back({.id = runtime_id(names[i]).value, .sound = *id});
  }
  thrust_sound_ = mixer_.find_sound("thrust");
  if (const platform::SoundId music = mixer_.find_sound("music")) {
    music_ =
        mixer_.play(music, {.loop = platform::LoopMode::kLoop, .bus = platform::AudioBus::kMusic});
  }
}

void SoundPlayer::set_thrust(bool on) {
  if (on && !thrust_ && thrust_sound_) {
    thrust_ = mixer_.play(thrust_sound_, {.loop = platform::LoopMode::kLoop});
  } else if (!on && thrust_) {
    mixer_.stop(thrust_);
    thrust_ = {};
  }
}

void SoundPlayer::play(std::span<const SoundEvent> events, world::Vec2 listener) {
  mixer_.set_listener(listener);
  for (Entry& e : sounds_) e.started = 0;
  for (const SoundEvent& event : events) {
    auto entry = std::find_if(sounds_.begin(), sounds_.end(),
                              [&](const Entry& e) { return e.id == event.sound; });
    if (entry == sounds_.end()) {
      ++unknown_;
      continue;
    }
    if (entry->started >= kMaxStartsPerSound) {
      ++skipped_;
      continue;
    }
    ++entry->started;
    if (mixer_.play(entry->sound,
                    {.volume = event.volume, .positional = true, .position = event.position})) {
      ++played_;
    }
  }
}

}  // namespace keel::voidfarer
