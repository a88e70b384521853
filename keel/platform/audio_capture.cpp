#include "keel/platform/audio_capture.h"

#include "keel/assets/sound_wav.h"
#include "keel/core/file.h"
#include "keel/platform/audio.h"

#include <algorithm>
#include <cmath>

namespace keel::platform {

AudioCapture::AudioCapture(double max_seconds) {
  const double seconds = std::isfinite(max_seconds) ? std::clamp(max_seconds, 0.0, 20000.0) : 0.0;
  max_samples_ = static_cast<usize>(seconds * kMixRate) * kMixChannels;
}

void AudioCapture::append(std::span<const s16> stereo) {
  const usize room = max_samples_ - std::min(max_samples_, samples_.size());
  const usize take = std::min(room, stereo.size()) & ~usize{1};
  samples_.insert(samples_.end(), stereo.begin(),
                  stereo.begin() + static_cast<std::ptrdiff_t>(take));
  dropped_ += (stereo.size() - take) / kMixChannels;
}

void AudioCapture::clear() {
  samples_.clear();
  dropped_ = 0;
}

Status AudioCapture::write_wav(const std::filesystem::path& path) const {
  if (path.empty()) return fail(ErrorCode::kInvalidArgument, "write_wav: empty path");
  return write_file_atomic(path, assets::encode_wav_s16(kMixRate, kMixChannels, samples_));
}

}  // namespace keel::platform
