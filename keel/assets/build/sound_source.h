// Sound sources for the `Sound` handler: RIFF WAVE (PCM 8/16/24/32-bit, IEEE float 32/64-bit,
// WAVE_FORMAT_EXTENSIBLE of those) and Ogg Vorbis (stb_vorbis from libstb), decoded to float,
// and the resampler that brings them to the engine rate.
//
//   Result<DecodedSound> s = read_sound(bytes, "laser.wav");    // by the file's magic
//   std::vector<float> at48k = resample(s->samples, s->channels, s->sample_rate, kSoundRate);
//
// Errors are located: the file name and the byte offset of the chunk or field that is wrong.
#pragma once

#include "keel/core/bytes.h"
#include "keel/core/error.h"
#include "keel/core/types.h"

#include <span>
#include <string_view>
#include <vector>

namespace keel::assets {

// At most this many frames per decoded source (about 23 minutes at 48 kHz): bounded memory for
// hostile files that claim huge lengths.
inline constexpr u32 kMaxSourceFrames = 1u << 26;

struct DecodedSound {
  u32 sample_rate = 0;
  u16 channels = 0;            // 1 or 2 (other counts are refused)
  std::vector<float> samples;  // interleaved, nominally -1 .. 1

  usize frames() const { return channels == 0 ? 0 : samples.size() / channels; }
};

Result<DecodedSound> read_wav(ByteSpan bytes, std::string_view name);
Result<DecodedSound> read_ogg_vorbis(ByteSpan bytes, std::string_view name);
// WAV ("RIFF....WAVE") or Ogg ("OggS"); anything else is kUnsupported.
Result<DecodedSound> read_sound(ByteSpan bytes, std::string_view name);

// True when the bytes start like an Ogg file.
bool is_ogg(ByteSpan bytes);

// Band-limited resampling (windowed sinc, 32 taps, Blackman window; the cut-off follows the lower
// of the two rates). Same rate: a copy. `channels` >= 1 and the sample count a multiple of it.
std::vector<float> resample(std::span<const float> samples, u16 channels, u32 from_rate,
                            u32 to_rate);

// Float to s16 with rounding and clamping (hard clip at full scale).
std::vector<s16> to_pcm16(std::span<const float> samples);

}  // namespace keel::assets
