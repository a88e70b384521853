// The mixer: sound effects and music from packs (assets::SoundView chunks the `Sound` handler
// built), voices with volume, pan, pitch and looping, 2-D positional panning and attenuation
// around a listener, and master / music / effects volumes. Output is 48 kHz interleaved stereo
// s16, pulled by an audio device (keel/platform/audio_device.h): SDL's callback thread, or the
// null device on the game thread, driven by the frame clock.
//
//   keel::platform::Mixer mixer;
//   SoundId laser = mixer.add_sound("laser", *keel::assets::SoundView::parse(chunk));
//   mixer.set_listener({400, 300});
//   mixer.play(laser, {.volume = 0.5f, .positional = true, .position = {700, 300}});  // right
//   auto device = keel::platform::open_audio_device(mixer, {.headless = true});
//   device->advance(frame.dt);                                   // null device: mixes dt seconds
//
// Threads: add_sound, find_sound, play, stop, set_* are for ONE thread (the game's); mix() runs on
// one other thread (or the same). Commands travel through a lock-free single-producer queue; the
// bus volumes and the listener are atomics. mix() allocates nothing (streamed Vorbis sounds decode
// into arenas made by the constructor).
#pragma once

#include "keel/assets/sound.h"
#include "keel/core/error.h"
#include "keel/core/types.h"
#include "keel/spatial/vec2.h"

#include <array>
#include <atomic>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

namespace keel::settings {
class Settings;
}  // namespace keel::settings

namespace keel::platform {

namespace detail {
struct MixerState;
struct MixerCommand;
}  // namespace detail

inline constexpr u32 kMixRate = assets::kSoundRate;  // 48 kHz
inline constexpr u16 kMixChannels = 2;               // interleaved left, right

enum class AudioBus : u8 { kEffects = 0, kMusic = 1 };
inline constexpr usize kAudioBusCount = 2;

// A sound registered with a mixer (1-based; 0 is none).
struct SoundId {
  u32 value = 0;
  explicit operator bool() const { return value != 0; }
  friend bool operator==(SoundId, SoundId) = default;
};

// One play() (never reused by the same mixer; 0 is none).
struct VoiceId {
  u32 value = 0;
  explicit operator bool() const { return value != 0; }
  friend bool operator==(VoiceId, VoiceId) = default;
};

enum class LoopMode : u8 { kSound, kOnce, kLoop };  // kSound: as the asset says (Loop(...))

struct PlayParams {
  float volume = 1.0f;  // times the sound's own volume; 0 .. 4
  float pan = 0.0f;     // -1 (left) .. 1 (right); ignored when positional
  float pitch = 1.0f;   // playback speed 0.125 .. 8 (changes pitch too)
  LoopMode loop = LoopMode::kSound;
  AudioBus bus = AudioBus::kEffects;
  bool positional = false;      // pan and attenuate from `position` and the listener
  spatial::Vec2 position = {};  // world units
};

// How distance becomes gain and pan (world units).
struct Attenuation {
  float reference = 100.0f;  // full volume up to here, then reference / distance ...
  float maximum = 2000.0f;   // ... times a linear fade that reaches 0 here
  float pan_width = 600.0f;  // a horizontal offset this large pans fully to one side
};

struct MixerConfig {
  u32 max_voices = 64;
  u32 max_streams = 2;  // Vorbis voices at once (each owns a 512 KiB decoder arena)
  u32 max_sounds = 1024;
  Attenuation attenuation = {};
};

// Gains of one voice: the pan law and the positional model, exposed for tests and tools.
struct StereoGain {
  float left = 0;
  float right = 0;
};
// Constant-power pan for a mono source: left = cos(a), right = sin(a), a = (pan + 1) pi / 4
// (-3 dB each in the centre). A stereo source is balanced instead: the far side fades linearly
// (1 - |pan|), the near side stays 1.
StereoGain pan_gains(float pan, u16 source_channels);
// Gain (0 .. 1) and pan (-1 .. 1) of a sound at `source` heard at `listener`.
float distance_gain(float distance, const Attenuation& attenuation);
float positional_pan(spatial::Vec2 listener, spatial::Vec2 source, const Attenuation& a);

class Mixer {
 public:
  explicit Mixer(const MixerConfig& config = {});
  ~Mixer();
  Mixer(const Mixer&) = delete;
  Mixer& operator=(const Mixer&) = delete;

  // Registers a sound under `name` (the asset's name; a later add with the same name replaces
  // the lookup). The view's bytes must outlive the mixer. kOverflow past max_sounds; an empty
  // name is kInvalidArgument.
  Result<SoundId> add_sound(std::string_view name, const assets::SoundView& sound);
  SoundId find_sound(std::string_view name) const;  // {} when unknown
  u32 sound_count() const;

  // Queues a voice. {} (and nothing queued) for an unknown or foreign SoundId or a full command
  // queue; out-of-range or NaN parameters are clamped (NaN: the default). A voice that finds
  // every slot busy when mixing starts replaces the quietest one; a Vorbis voice that finds no
  // free stream decoder does not start (counted in dropped_commands()).
  VoiceId play(SoundId sound, const PlayParams& params = {});
  VoiceId play(std::string_view sound_name, const PlayParams& params = {});
  void stop(VoiceId voice);  // ignored for ended or unknown voices
  void stop_all();
  void set_voice_volume(VoiceId voice, float volume);
  void set_voice_position(VoiceId voice, spatial::Vec2 position);

  // Latest value wins; read by mix() at the start of each block.
  void set_listener(spatial::Vec2 position);
  void set_master_volume(float volume);  // 0 .. 4 (settings: "volume")
  void set_bus_volume(AudioBus bus, float volume);
  float master_volume() const;
  float bus_volume(AudioBus bus) const;

  // Mixing thread: fills `out` (interleaved stereo, out.size() even) with the next frames.
  // Hard clip at full scale (the count is in clipped_samples()).
  void mix(std::span<s16> out);

  // Statistics (any thread): voices sounding after the last mix(), samples clipped so far,
  // commands dropped because the queue was full.
  u32 active_voices() const { return active_.load(std::memory_order_relaxed); }
  u64 clipped_samples() const { return clipped_.load(std::memory_order_relaxed); }
  u64 dropped_commands() const { return dropped_.load(std::memory_order_relaxed); }
  u64 mixed_frames() const { return mixed_.load(std::memory_order_relaxed); }

 private:
  bool send(const detail::MixerCommand& command);
  void apply(const detail::MixerCommand& command);
  void mix_block(std::span<s16> out);

  std::unique_ptr<detail::MixerState> state_;
  u32 next_voice_ = 1;
  std::atomic<u32> sound_count_{0};
  std::atomic<u64> listener_{0};  // two floats, one atomic: never torn
  std::atomic<u32> master_{0};    // float bits
  std::array<std::atomic<u32>, kAudioBusCount> bus_{};
  std::atomic<u32> active_{0};
  std::atomic<u64> clipped_{0};
  std::atomic<u64> dropped_{0};
  std::atomic<u64> mixed_{0};
};

// The settings that drive the mixer's volumes: "music_volume" and "effects_volume" (0 .. 1; the
// master volume is the standard setting "volume", settings/standard.h).
struct AudioSettings {
  f32 music_volume = 0.8f;
  f32 effects_volume = 1.0f;
};
// Registers music_volume and effects_volume bound to `values`. kAlreadyExists when one is taken.
Status add_audio_settings(settings::Settings& settings, AudioSettings& values);
// Applies master (the standard "volume") and the bus volumes.
void apply_audio_settings(Mixer& mixer, float master_volume, const AudioSettings& values);

}  // namespace keel::platform
