#include "keel/platform/detail/audio_stream.h"

#include <algorithm>
#include <climits>

// libstb-dev ships stb_vorbis's implementation in libstb: this is the declarations only.
#define STB_VORBIS_HEADER_ONLY
#include <stb/stb_vorbis.h>

namespace keel::platform::detail {

VorbisStream::VorbisStream()
    : arena_(std::make_unique<char[]>(kArenaBytes)), window_((kWindowFrames + 1) * 2, 0.0f) {}

VorbisStream::~VorbisStream() { close(); }

bool VorbisStream::open(ByteSpan ogg, u16 channels, bool loop) {
  close();
  if (channels < 1 || channels > 2 || ogg.size() > INT_MAX) return false;
  stb_vorbis_alloc alloc{arena_.get(), static_cast<int>(kArenaBytes)};
  int error = 0;
  vorbis_ = stb_vorbis_open_memory(reinterpret_cast<const unsigned char*>(ogg.data()),
                                   static_cast<int>(ogg.size()), &error, &alloc);
  channels_ = channels;
  loop_ = loop;
  eof_ = false;
  base_ = 0;
  count_ = 0;
  return vorbis_ != nullptr;
}

void VorbisStream::close() {
  if (vorbis_ != nullptr) stb_vorbis_close(vorbis_);
  vorbis_ = nullptr;
}

bool VorbisStream::refill() {
  if (vorbis_ == nullptr || eof_) return false;
  if (count_ > 0) {  // keep the last frame: the interpolation between windows needs it
    std::copy_n(&window_[usize{count_ - 1} * channels_], channels_, window_.begin());
    base_ += count_ - 1;
    count_ = 1;
  }
  const int room = static_cast<int>((kWindowFrames - count_) * channels_);
  for (int attempt = 0; attempt < 2; ++attempt) {
    const int n = stb_vorbis_get_samples_float_interleaved(
        vorbis_, channels_, &window_[usize{count_} * channels_], room);
    if (n > 0) {
      count_ += static_cast<u32>(n);
      return true;
    }
    if (!loop_ || stb_vorbis_seek_start(vorbis_) == 0) break;
  }
  eof_ = true;
  return false;
}

bool VorbisStream::ensure(u64 i) {
  while (i + 1 >= base_ + count_ && refill()) {
  }
  return i >= base_ && i < base_ + count_;
}

const float* VorbisStream::frame(u64 i) const {
  if (i < base_ || i >= base_ + count_) return &window_[usize{kWindowFrames} * channels_];
  return &window_[static_cast<usize>(i - base_) * channels_];
}

}  // namespace keel::platform::detail
