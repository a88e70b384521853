// Decodes a Vorbis sound chunk a window at a time while it plays (sounds built with
// Stream(true)). Used by the mixer on the thread that mixes; the decoder's memory is one arena
// allocated up front, so starting and playing a stream allocates nothing.
#pragma once

#include "keel/core/bytes.h"
#include "keel/core/error.h"
#include "keel/core/types.h"

#include <memory>
#include <vector>

struct stb_vorbis;

namespace keel::platform::detail {

class VorbisStream {
 public:
  static constexpr usize kArenaBytes = 512 * 1024;  // stb_vorbis's working memory
  static constexpr u32 kWindowFrames = 2048;

  VorbisStream();
  ~VorbisStream();
  VorbisStream(const VorbisStream&) = delete;
  VorbisStream& operator=(const VorbisStream&) = delete;

  // Whether `ogg` may be streamed as `channels` channels: it is decoded to its end (and
  // restarted) in a child process, in an arena of kArenaBytes as a stream decodes it. stb_vorbis
  // trusts the sizes a file states when it decodes in an arena (a negative one writes outside
  // it), so the mixer streams only data that passed this check: Mixer::add_sound runs it on the
  // calling thread (a few milliseconds per second of sound), never the mixing thread.
  static Status check(ByteSpan ogg, u16 channels);

  // Starts decoding `ogg` (check()ed) as `channels` interleaved channels; false when stb_vorbis
  // refuses it. A looping stream restarts at its beginning forever: frame indices keep growing.
  bool open(ByteSpan ogg, u16 channels, bool loop);
  void close();
  bool is_open() const { return vorbis_ != nullptr; }

  // Makes frames `i` and `i + 1` resident when the stream has them (i never decreases by more
  // than a window between calls). False when `i` is past the end of a non-looping stream.
  bool ensure(u64 i);
  // Frame `i` (after ensure(i)); the channel values, or zeros past the end.
  const float* frame(u64 i) const;

 private:
  bool refill();

  stb_vorbis* vorbis_ = nullptr;
  std::unique_ptr<char[]> arena_;
  std::vector<float> window_;  // kWindowFrames x channels
  u64 base_ = 0;               // absolute index of window_[0]
  u32 count_ = 0;              // frames resident
  u16 channels_ = 1;
  bool loop_ = false;
  bool eof_ = false;
};

}  // namespace keel::platform::detail
