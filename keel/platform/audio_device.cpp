#include "keel/platform/audio_device.h"

#include "keel/core/log.h"
#include "keel/platform/audio.h"
#include "keel/platform/audio_capture.h"

#include <SDL.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <vector>

namespace keel::platform {
namespace {

constexpr double kMaxAdvanceSeconds = 10.0;

class NullAudioDevice final : public AudioDevice {
 public:
  NullAudioDevice(Mixer& mixer, AudioCapture* capture)
      : mixer_(mixer), capture_(capture), scratch_(usize{kChunkFrames} * kMixChannels) {}

  std::string_view name() const override { return "null"; }
  bool is_null() const override { return true; }

  void advance(double seconds) override {
    if (!(seconds > 0.0)) return;  // negative, zero or NaN
    pending_ += std::min(seconds, kMaxAdvanceSeconds) * kMixRate;
    const double whole = std::floor(pending_ + 1e-6);  // 60 x (1/60 s) is exactly one second
    pending_ = std::max(0.0, pending_ - whole);
    u64 frames = static_cast<u64>(whole);
    while (frames > 0) {
      const u64 n = std::min<u64>(frames, kChunkFrames);
      const std::span<s16> out(scratch_.data(), n * kMixChannels);
      mixer_.mix(out);
      if (capture_ != nullptr) capture_->append(out);
      frames -= n;
    }
  }

 private:
  static constexpr u32 kChunkFrames = 1024;
  Mixer& mixer_;
  AudioCapture* capture_;
  std::vector<s16> scratch_;
  double pending_ = 0.0;  // frames owed, below one
};

class SdlAudioDevice final : public AudioDevice {
 public:
  SdlAudioDevice(Mixer& mixer, AudioCapture* capture) : mixer_(mixer), capture_(capture) {}
  ~SdlAudioDevice() override {
    if (device_ != 0) SDL_CloseAudioDevice(device_);  // waits for the callback to return
    if (initialised_) SDL_QuitSubSystem(SDL_INIT_AUDIO);
  }

  Status open(const AudioDeviceOptions& options) {
    if (!options.driver.empty()) SDL_SetHint("SDL_AUDIODRIVER", options.driver.c_str());
    if (SDL_InitSubSystem(SDL_INIT_AUDIO) != 0) {
      return fail(ErrorCode::kUnsupported, "SDL audio: {}", SDL_GetError());
    }
    initialised_ = true;
    SDL_AudioSpec want{};
    want.freq = static_cast<int>(kMixRate);
    want.format = AUDIO_S16SYS;
    want.channels = static_cast<Uint8>(kMixChannels);
    want.samples =
        static_cast<Uint16>(std::bit_floor(std::clamp(options.buffer_frames, 64u, 8192u)));
    want.callback = &SdlAudioDevice::callback;
    want.userdata = this;
    SDL_AudioSpec have{};
    device_ = SDL_OpenAudioDevice(nullptr, 0, &want, &have, 0);  // SDL converts if it must
    if (device_ == 0) return fail(ErrorCode::kUnsupported, "SDL audio device: {}", SDL_GetError());
    const char* driver = SDL_GetCurrentAudioDriver();
    name_ = driver != nullptr ? driver : "sdl";
    SDL_PauseAudioDevice(device_, 0);
    return {};
  }

  std::string_view name() const override { return name_; }
  bool is_null() const override { return false; }
  void advance(double) override {}

 private:
  static void callback(void* user, Uint8* stream, int bytes) {
    auto* self = static_cast<SdlAudioDevice*>(user);
    const std::span<s16> out(reinterpret_cast<s16*>(stream),
                             static_cast<usize>(std::max(bytes, 0)) / sizeof(s16));
    self->mixer_.mix(out);
    if (self->capture_ != nullptr) self->capture_->append(out);
  }

  Mixer& mixer_;
  AudioCapture* capture_;
  SDL_AudioDeviceID device_ = 0;
  bool initialised_ = false;
  std::string name_;
};

}  // namespace

std::unique_ptr<AudioDevice> open_null_audio_device(Mixer& mixer, AudioCapture* capture) {
  return std::make_unique<NullAudioDevice>(mixer, capture);
}

Result<std::unique_ptr<AudioDevice>> open_sdl_audio_device(Mixer& mixer,
                                                           const AudioDeviceOptions& options) {
  auto device = std::make_unique<SdlAudioDevice>(mixer, options.capture);
  Status opened = device->open(options);
  if (!opened) return Unexpected(opened.error());
  return std::unique_ptr<AudioDevice>(std::move(device));
}

std::unique_ptr<AudioDevice> open_audio_device(Mixer& mixer, const AudioDeviceOptions& options) {
  if (!options.headless) {
    Result<std::unique_ptr<AudioDevice>> sdl = open_sdl_audio_device(mixer, options);
    if (sdl) return std::move(*sdl);
    KEEL_LOG_WARN(log::Channel::kApp, "audio: {}; using the null device", sdl.error().message());
  }
  return open_null_audio_device(mixer, options.capture);
}

}  // namespace keel::platform
