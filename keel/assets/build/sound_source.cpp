#include "keel/assets/build/sound_source.h"

#include "keel/assets/detail/little_endian.h"
#include "keel/core/assert.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <numbers>
#include <string>

namespace keel::assets {
namespace {

constexpr u32 kMinRate = 1000;
constexpr u32 kMaxRate = 192000;

using detail::get16;
using detail::get32;
bool tag_is(ByteSpan b, usize at, const char* tag) {
  return std::memcmp(b.data() + at, tag, 4) == 0;
}

Unexpected bad(std::string_view name, u64 offset, ErrorCode code, std::string_view what) {
  return fail_at(SourceLocation::bytes(std::string(name), offset), code, "{}", what);
}

struct WavFormat {
  usize at = 0;  // offset of the fmt chunk's payload
  u32 format = 0;
  u16 channels = 0;
  u32 rate = 0;
  u32 block_align = 0;
  u32 bits = 0;
};

struct WavChunks {
  WavFormat format;
  bool has_fmt = false;
  usize data_at = 0;
  usize data_bytes = 0;
  bool has_data = false;
};

Result<WavFormat> read_fmt(ByteSpan b, usize at, u32 size, std::string_view name) {
  if (size < 16) return bad(name, at - 4, ErrorCode::kCorrupt, "fmt chunk shorter than 16 bytes");
  WavFormat f;
  f.at = at;
  f.format = get16(b, at);
  f.channels = static_cast<u16>(get16(b, at + 2));
  f.rate = get32(b, at + 4);
  f.block_align = get16(b, at + 12);
  f.bits = get16(b, at + 14);
  if (f.format == 0xFFFE) {  // WAVE_FORMAT_EXTENSIBLE: the real format is the GUID's first u16
    if (size < 40) return bad(name, at, ErrorCode::kCorrupt, "extensible fmt chunk too short");
    f.format = get16(b, at + 24);
  }
  if (f.format != 1 && f.format != 3) {
    return bad(name, at, ErrorCode::kUnsupported,
               "WAV format is neither PCM (1) nor IEEE float (3); compressed WAV is not read");
  }
  if (f.channels == 0) return bad(name, at + 2, ErrorCode::kCorrupt, "WAV has 0 channels");
  if (f.channels > 2) {
    return bad(name, at + 2, ErrorCode::kUnsupported, "only mono and stereo WAV files are read");
  }
  if (f.rate < kMinRate || f.rate > kMaxRate) {
    return bad(name, at + 4, ErrorCode::kCorrupt, "sample rate outside 1 kHz .. 192 kHz");
  }
  const bool pcm_ok =
      f.format == 1 && (f.bits == 8 || f.bits == 16 || f.bits == 24 || f.bits == 32);
  const bool float_ok = f.format == 3 && (f.bits == 32 || f.bits == 64);
  if (!pcm_ok && !float_ok) {
    return bad(name, at + 14, ErrorCode::kUnsupported,
               "bits per sample: PCM 8/16/24/32 or float 32/64");
  }
  if (f.block_align != f.channels * f.bits / 8) {
    return bad(name, at + 12, ErrorCode::kCorrupt,
               "block align is not channels x bytes per sample");
  }
  return f;
}

Result<WavChunks> find_wav_chunks(ByteSpan b, std::string_view name) {
  WavChunks chunks;
  usize at = 12;
  while (at + 8 <= b.size()) {
    const u32 size = get32(b, at + 4);
    const usize payload = at + 8;
    if (tag_is(b, at, "fmt ")) {
      if (size > b.size() - payload) {
        return bad(name, at + 4, ErrorCode::kCorrupt, "fmt chunk runs past the end of the file");
      }
      Result<WavFormat> f = read_fmt(b, payload, size, name);
      if (!f) return Unexpected(f.error());
      chunks.format = *f;
      chunks.has_fmt = true;
    } else if (tag_is(b, at, "data")) {
      if (size > b.size() - payload) {
        return bad(name, at + 4, ErrorCode::kCorrupt, "data chunk runs past the end of the file");
      }
      chunks.data_at = payload;
      chunks.data_bytes = size;
      chunks.has_data = true;
      if (chunks.has_fmt) break;
    }
    if (size > b.size() - payload) break;  // a trailing chunk we skip anyway
    at = payload + size + (size & 1u);
  }
  if (!chunks.has_fmt) return bad(name, 12, ErrorCode::kCorrupt, "WAV has no fmt chunk");
  if (!chunks.has_data) return bad(name, 12, ErrorCode::kCorrupt, "WAV has no data chunk");
  return chunks;
}

float decode_sample(ByteSpan b, usize at, const WavFormat& f) {
  switch (f.bits) {
    case 8: return (static_cast<float>(b[at]) - 128.0f) / 128.0f;
    case 16: return static_cast<float>(static_cast<s16>(get16(b, at))) / 32768.0f;
    case 24: {
      const u32 v = get16(b, at) | (static_cast<u32>(b[at + 2]) << 16);
      const s32 s = static_cast<s32>(v << 8) >> 8;
      return static_cast<float>(s) / 8388608.0f;
    }
    case 32:
      if (f.format == 3) return std::bit_cast<float>(get32(b, at));
      return static_cast<float>(static_cast<double>(static_cast<s32>(get32(b, at))) / 2147483648.0);
    default: {  // 64-bit float
      const u64 v = get32(b, at) | (static_cast<u64>(get32(b, at + 4)) << 32);
      return static_cast<float>(std::bit_cast<double>(v));
    }
  }
}

}  // namespace

bool is_ogg(ByteSpan bytes) { return bytes.size() >= 4 && tag_is(bytes, 0, "OggS"); }

Result<DecodedSound> read_wav(ByteSpan b, std::string_view name) {
  if (b.size() < 12 || !tag_is(b, 0, "RIFF") || !tag_is(b, 8, "WAVE")) {
    return bad(name, 0, ErrorCode::kCorrupt, "not a RIFF WAVE file");
  }
  Result<WavChunks> chunks = find_wav_chunks(b, name);
  if (!chunks) return Unexpected(chunks.error());
  const WavFormat& f = chunks->format;
  const usize frames = chunks->data_bytes / f.block_align;
  if (frames > kMaxSourceFrames) {
    return bad(name, chunks->data_at - 4, ErrorCode::kUnsupported, "WAV longer than 2^26 frames");
  }
  DecodedSound out;
  out.sample_rate = f.rate;
  out.channels = f.channels;
  out.samples.resize(frames * f.channels);
  const usize bytes_per_sample = f.bits / 8;
  for (usize i = 0; i < out.samples.size(); ++i) {
    const float v = decode_sample(b, chunks->data_at + i * bytes_per_sample, f);
    out.samples[i] = std::isfinite(v) ? v : 0.0f;
  }
  return out;
}

Result<DecodedSound> read_sound(ByteSpan bytes, std::string_view name) {
  if (is_ogg(bytes)) return read_ogg_vorbis(bytes, name);
  if (bytes.size() >= 4 && tag_is(bytes, 0, "RIFF")) return read_wav(bytes, name);
  return bad(name, 0, ErrorCode::kUnsupported, "not a WAV or Ogg Vorbis file");
}

std::vector<float> resample(std::span<const float> in, u16 channels, u32 from_rate, u32 to_rate) {
  KEEL_ASSERT(channels >= 1 && in.size() % std::max<u16>(channels, 1) == 0,
              "resample: the samples must be whole frames");
  KEEL_ASSERT(from_rate > 0 && to_rate > 0, "resample: rates must be positive");
  if (channels == 0 || from_rate == 0 || to_rate == 0) return {};
  if (from_rate == to_rate) return {in.begin(), in.end()};
  const usize frames = in.size() / channels;
  const usize out_frames = static_cast<usize>((u64{frames} * to_rate + from_rate - 1) / from_rate);
  const double step = static_cast<double>(from_rate) / to_rate;  // input frames per output frame
  const double cutoff = std::min(1.0, static_cast<double>(to_rate) / from_rate);
  constexpr double kHalfTaps = 16.0;
  const double half_width = kHalfTaps / cutoff;  // in input frames
  std::vector<float> out(out_frames * channels);
  std::vector<double> acc(channels);
  for (usize j = 0; j < out_frames; ++j) {
    const double t = static_cast<double>(j) * step;
    const s64 lo = std::max<s64>(0, static_cast<s64>(std::ceil(t - half_width)));
    const s64 hi = std::min<s64>(static_cast<s64>(frames) - 1, static_cast<s64>(t + half_width));
    std::fill(acc.begin(), acc.end(), 0.0);
    double weight_sum = 0.0;
    for (s64 i = lo; i <= hi; ++i) {
      const double x = t - static_cast<double>(i);
      const double px = std::numbers::pi * x * cutoff;
      const double sinc = x == 0.0 ? 1.0 : std::sin(px) / px;
      const double u = x / half_width;  // -1 .. 1
      const double window =
          0.42 + 0.5 * std::cos(std::numbers::pi * u) + 0.08 * std::cos(2.0 * std::numbers::pi * u);
      const double w = sinc * window;
      weight_sum += w;
      for (u16 c = 0; c < channels; ++c) acc[c] += w * in[static_cast<usize>(i) * channels + c];
    }
    const double norm = weight_sum != 0.0 ? 1.0 / weight_sum : 0.0;
    for (u16 c = 0; c < channels; ++c) out[j * channels + c] = static_cast<float>(acc[c] * norm);
  }
  return out;
}

std::vector<s16> to_pcm16(std::span<const float> samples) {
  std::vector<s16> out(samples.size());
  for (usize i = 0; i < samples.size(); ++i) {
    const float v = std::nearbyint(samples[i] * 32768.0f);
    out[i] = static_cast<s16>(std::clamp(std::isfinite(v) ? v : 0.0f, -32768.0f, 32767.0f));
  }
  return out;
}

}  // namespace keel::assets
