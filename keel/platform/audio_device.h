// Audio devices: where the mixer's output goes.
//
//   SDL device   SDL_OpenAudioDevice at 48 kHz stereo s16 with a callback that calls
//                Mixer::mix on SDL's audio thread (any driver SDL has: pulseaudio, alsa, disk,
//                dummy, ...; SDL_AUDIODRIVER or AudioDeviceOptions::driver choose).
//   null device  no sound card: advance(dt) mixes dt seconds on the calling thread, so the frame
//                clock drives it and a headless run mixes exactly what it would have played
//                (deterministic, captured frame for frame).
//
//   auto device = keel::platform::open_audio_device(mixer, {.headless = args.headless});
//   every frame: device->advance(frame.dt);     // the null device mixes; SDL's does nothing
#pragma once

#include "keel/core/error.h"
#include "keel/core/types.h"

#include <memory>
#include <string>
#include <string_view>

namespace keel::platform {

class Mixer;
class AudioCapture;

struct AudioDeviceOptions {
  bool headless = false;            // true: the null device, without asking SDL
  AudioCapture* capture = nullptr;  // records everything mixed (must outlive the device)
  u32 buffer_frames = 1024;         // SDL buffer size (power of two, 64 .. 8192)
  std::string driver = {};          // SDL audio driver name; empty: SDL's choice
};

class AudioDevice {
 public:
  virtual ~AudioDevice() = default;
  virtual std::string_view name() const = 0;  // "null" or the SDL driver's name
  virtual bool is_null() const = 0;
  // Null device: mixes `seconds` more audio now (fractions of a frame carry over; at most 10 s
  // per call; negative or NaN is 0). SDL device: nothing, its thread pulls.
  virtual void advance(double seconds) = 0;
};

std::unique_ptr<AudioDevice> open_null_audio_device(Mixer& mixer, AudioCapture* capture = nullptr);
// Opens SDL's audio (initialising its audio subsystem); kUnsupported when SDL has no device.
Result<std::unique_ptr<AudioDevice>> open_sdl_audio_device(Mixer& mixer,
                                                           const AudioDeviceOptions& options);
// The SDL device unless headless, else (or when SDL fails) the null device. Never null.
std::unique_ptr<AudioDevice> open_audio_device(Mixer& mixer, const AudioDeviceOptions& options);

}  // namespace keel::platform
