#include "keel/platform/detail/audio_stream.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <climits>
#include <csignal>
#include <cstring>
#include <thread>

#include <sys/wait.h>
#include <unistd.h>

// libstb-dev ships stb_vorbis's implementation in libstb: this is the declarations only.
#define STB_VORBIS_HEADER_ONLY
#include <stb/stb_vorbis.h>

namespace keel::platform::detail {

VorbisStream::VorbisStream()
    : arena_(std::make_unique<char[]>(kArenaBytes)), window_(kWindowFrames * 2, 0.0f) {}

VorbisStream::~VorbisStream() { close(); }

namespace {

// The child's exit codes (not 1: a sanitizer's report of a crash in the child exits with 1).
constexpr int kDecodes = 0;
constexpr int kDoesNotOpen = 10;
constexpr int kBadChannels = 11;
constexpr int kTooLong = 12;
constexpr u64 kMaxCheckedFrames = u64{48000} * 60 * 60;  // an hour
constexpr std::chrono::seconds kCheckTimeLimit{60};      // an hour decodes in well under this

// Decodes all of `ogg` exactly as a stream will (the same arena size, the same output channels),
// then restarts it as a looping stream does. Allocates nothing: the caller gave the memory.
int decode_all(ByteSpan ogg, u16 channels, char* arena, float* window) {
  stb_vorbis_alloc alloc{arena, static_cast<int>(VorbisStream::kArenaBytes)};
  int error = 0;
  stb_vorbis* v = stb_vorbis_open_memory(reinterpret_cast<const unsigned char*>(ogg.data()),
                                         static_cast<int>(ogg.size()), &error, &alloc);
  if (v == nullptr) return kDoesNotOpen;
  const stb_vorbis_info info = stb_vorbis_get_info(v);
  if (info.channels < 1 || info.channels > 2) return kBadChannels;
  const int room = static_cast<int>(VorbisStream::kWindowFrames * channels);
  u64 frames = 0;
  for (int n; (n = stb_vorbis_get_samples_float_interleaved(v, channels, window, room)) > 0;) {
    frames += static_cast<u64>(n);
    if (frames > kMaxCheckedFrames) return kTooLong;
  }
  if (stb_vorbis_seek_start(v) != 0)
    stb_vorbis_get_samples_float_interleaved(v, channels, window, room);
  stb_vorbis_close(v);
  return kDecodes;
}

}  // namespace

Status VorbisStream::check(ByteSpan ogg, u16 channels) {
  if (channels < 1 || channels > 2) {
    return fail(ErrorCode::kInvalidArgument, "a stream has 1 or 2 channels, not {}", channels);
  }
  if (ogg.size() > INT_MAX) return fail(ErrorCode::kOutOfRange, "Vorbis data over 2 GiB");
  if (ogg.size() < 4 || std::memcmp(ogg.data(), "OggS", 4) != 0) {  // no child for plain junk
    return fail(ErrorCode::kCorrupt, "Vorbis data does not start with an Ogg page");
  }
  // stb_vorbis trusts the sizes a file states when it decodes in an arena (a negative one walks
  // out of it), so the data is decoded once in a child process, in the same arena, before any
  // stream may play it: a crash there refuses the sound instead of taking the game down. The
  // memory is allocated before the fork; the child only decodes and exits.
  const std::unique_ptr<char[]> arena = std::make_unique<char[]>(kArenaBytes);
  std::vector<float> window(usize{kWindowFrames} * 2);
  const pid_t child = ::fork();
  if (child < 0) {
    return fail(ErrorCode::kIo, "cannot check Vorbis data: fork failed ({})", std::strerror(errno));
  }
  if (child == 0) ::_exit(decode_all(ogg, channels, arena.get(), window.data()));
  // A decoder that never returns (a hostile file could find a loop) is killed after the limit.
  int status = 0;
  const auto deadline = std::chrono::steady_clock::now() + kCheckTimeLimit;
  for (;;) {
    const pid_t done = ::waitpid(child, &status, WNOHANG);
    if (done == child) break;
    if (done < 0 && errno != EINTR) {
      return fail(ErrorCode::kIo, "cannot check Vorbis data: waitpid failed ({})",
                  std::strerror(errno));
    }
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(child, SIGKILL);
      while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
      }
      return fail(ErrorCode::kCorrupt, "Vorbis data takes over {} s to decode",
                  std::chrono::duration_cast<std::chrono::seconds>(kCheckTimeLimit).count());
    }
    std::this_thread::sleep_for(std::chrono::microseconds(500));
  }
  if (WIFSIGNALED(status)) {
    return fail(ErrorCode::kCorrupt, "Vorbis data crashes the decoder (signal {})",
                WTERMSIG(status));
  }
  switch (WIFEXITED(status) ? WEXITSTATUS(status) : -1) {
    case kDecodes: return {};
    case kDoesNotOpen: return fail(ErrorCode::kCorrupt, "Vorbis data does not open");
    case kBadChannels: return fail(ErrorCode::kCorrupt, "Vorbis data is not mono or stereo");
    case kTooLong: return fail(ErrorCode::kOutOfRange, "Vorbis data is over an hour long");
    default: return fail(ErrorCode::kCorrupt, "Vorbis data crashes the decoder");
  }
}

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
  // Silence is its own constant: the window's spare frame held another stream's samples after
  // a stereo stream's decoder was reused for a mono one.
  static constexpr float kSilence[2] = {};
  if (i < base_ || i >= base_ + count_) return kSilence;
  return &window_[static_cast<usize>(i - base_) * channels_];
}

}  // namespace keel::platform::detail
