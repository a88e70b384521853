// The mixer's machinery: commands, voices and their rendering (keel/platform/audio.h).
#pragma once

#include "keel/core/prehashed_map.h"
#include "keel/platform/audio.h"
#include "keel/platform/detail/audio_queue.h"
#include "keel/platform/detail/audio_stream.h"

#include <memory>
#include <vector>

namespace keel::platform::detail {

inline constexpr u32 kBlockFrames = 512;  // frames mixed per pass over the voices
inline constexpr usize kCommandCapacity = 1024;

struct MixerCommand {
  enum class Kind : u8 { kPlay, kStop, kStopAll, kVolume, kPosition };
  Kind kind = Kind::kPlay;
  u32 voice = 0;
  u32 sound = 0;
  PlayParams params;
};

struct Voice {
  u32 id = 0;  // 0: the slot is free
  const assets::SoundView* sound = nullptr;
  VorbisStream* stream = nullptr;  // Vorbis sounds only
  double position_frames = 0.0;    // read position in source frames (fractional)
  double step = 1.0;               // source frames per output frame
  float volume = 1.0f;
  float pan = 0.0f;
  bool loop = false;
  bool positional = false;
  bool fresh = true;  // no block mixed yet: start at the target gains (no ramp)
  AudioBus bus = AudioBus::kEffects;
  spatial::Vec2 position = {};
  StereoGain gain;  // the gains reached at the end of the last block
};

// What every voice of a block shares.
struct BlockGains {
  spatial::Vec2 listener;
  float bus[kAudioBusCount] = {};
};

struct MixerState {
  explicit MixerState(const MixerConfig& config);

  bool start(const MixerCommand& play);  // false: a Vorbis voice without a free decoder
  Voice* find(u32 voice_id);
  void release(Voice& voice);
  // Adds `frames` frames of `voice` to `acc` (interleaved stereo); frees the voice at its end.
  void render(Voice& voice, const BlockGains& gains, float* acc, u32 frames);
  StereoGain target_gain(const Voice& voice, const BlockGains& gains) const;

  MixerConfig config;
  std::unique_ptr<assets::SoundView[]> sounds;  // max_sounds; [0, sound_count) published
  PrehashedMap<u64, u32> names;                 // game thread: name hash -> SoundId
  SpscQueue<MixerCommand, kCommandCapacity> queue;
  std::vector<Voice> voices;
  std::vector<std::unique_ptr<VorbisStream>> streams;
  std::vector<VorbisStream*> free_streams;
  std::vector<float> accumulator;  // kBlockFrames x 2
};

}  // namespace keel::platform::detail
