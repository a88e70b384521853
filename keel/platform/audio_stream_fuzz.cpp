// Fuzz target: the mixer's streaming Vorbis decoder (music and long sounds built with
// Stream(true)), which decodes a pack chunk while it plays. A hostile or damaged pack reaches it
// with bytes the build never checked, so it must refuse them or decode them without crashing,
// within its fixed arena and window, once VorbisStream::check (run by Mixer::add_sound)
// accepted them. The first byte picks the channel count and looping.
#include "keel/platform/detail/audio_stream.h"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using keel::platform::detail::VorbisStream;
  if (size < 1) return 0;
  const keel::u16 channels = (data[0] & 1) != 0 ? 2 : 1;
  const bool loop = (data[0] & 2) != 0;
  const keel::ByteSpan ogg = keel::as_bytes(std::span<const uint8_t>(data + 1, size - 1));
  if (!VorbisStream::check(ogg, channels)) return 0;  // what Mixer::add_sound refuses never streams
  static VorbisStream stream;  // one arena for the whole run, as the mixer keeps its streams
  if (!stream.open(ogg, channels, loop)) return 0;
  // Three windows and a bit: enough to refill, keep the carried frame and (looping) restart.
  constexpr keel::u64 kFrames = 3 * VorbisStream::kWindowFrames + 100;
  for (keel::u64 i = 0; i < kFrames; i += 7) {
    if (!stream.ensure(i)) break;
    const float* f = stream.frame(i);
    volatile float sink = f[0] + f[channels - 1];
    (void)sink;
  }
  // Past the end (or anywhere after a refusal) the frame is the window's silent frame.
  if (stream.frame(~keel::u64{0})[0] != 0.0f) std::abort();
  stream.close();
  return 0;
}
