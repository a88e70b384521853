// Capture of the mixed output (48 kHz stereo s16) to a WAV file: headless runs record what they
// would have played, tests compare it, `sox out.wav -n stat` inspects it.
//
//   keel::platform::AudioCapture capture;
//   auto device = keel::platform::open_audio_device(mixer, {.headless = true, .capture =
//   &capture});
//   ... device->advance(dt) every frame ...
//   capture.write_wav("out.wav");                  // atomically (core/file.h)
#pragma once

#include "keel/core/error.h"
#include "keel/core/types.h"

#include <filesystem>
#include <span>
#include <vector>

namespace keel::platform {

class AudioCapture {
 public:
  // Keeps at most `max_seconds` of audio (clamped to 20000 s, what a WAV can hold; later frames
  // are counted in dropped_frames()).
  explicit AudioCapture(double max_seconds = 600.0);

  // The mixing thread's side: appends interleaved stereo frames. With an SDL device, read the
  // capture only after the device is closed; with the null device, on the thread that advances it.
  void append(std::span<const s16> stereo);

  std::span<const s16> samples() const { return samples_; }  // interleaved stereo
  u64 frames() const { return samples_.size() / 2; }
  u64 dropped_frames() const { return dropped_; }
  void clear();

  // The capture as a 48 kHz 16-bit stereo WAV, replacing `path` atomically.
  Status write_wav(const std::filesystem::path& path) const;

 private:
  std::vector<s16> samples_;
  usize max_samples_ = 0;
  u64 dropped_ = 0;
};

}  // namespace keel::platform
