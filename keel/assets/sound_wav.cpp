#include "keel/assets/sound_wav.h"

#include "keel/assets/detail/little_endian.h"
#include "keel/core/assert.h"

#include <algorithm>

namespace keel::assets {
namespace {

using detail::put16;
using detail::put32;

void put_tag(ByteBuffer& out, const char (&tag)[5]) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<std::byte>(tag[i]));
}

}  // namespace

ByteBuffer wav_header_s16(u32 sample_rate, u16 channels, u32 frames) {
  KEEL_ASSERT(channels >= 1, "wav_header_s16: a WAV file has at least one channel");
  const u64 data_bytes = std::min<u64>(u64{frames} * channels * 2, 0xFFFFFFFFu - 36);
  ByteBuffer out;
  out.reserve(kWavHeaderBytes);
  put_tag(out, "RIFF");
  put32(out, static_cast<u32>(36 + data_bytes));
  put_tag(out, "WAVE");
  put_tag(out, "fmt ");
  put32(out, 16);
  put16(out, 1);  // PCM
  put16(out, channels);
  put32(out, sample_rate);
  put32(out, sample_rate * channels * 2u);  // bytes per second
  put16(out, channels * 2u);                // block align
  put16(out, 16);                           // bits per sample
  put_tag(out, "data");
  put32(out, static_cast<u32>(data_bytes));
  return out;
}

ByteBuffer encode_wav_s16(u32 sample_rate, u16 channels, std::span<const s16> samples) {
  KEEL_ASSERT(channels >= 1 && samples.size() % channels == 0,
              "encode_wav_s16: the samples must be whole frames of `channels` samples");
  const u16 ch = std::max<u16>(channels, 1);
  ByteBuffer out = wav_header_s16(sample_rate, ch, static_cast<u32>(samples.size() / ch));
  out.reserve(out.size() + samples.size() * 2);
  for (s16 s : samples) put16(out, static_cast<u16>(s));
  return out;
}

}  // namespace keel::assets
