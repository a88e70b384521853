#include "keel/assets/sound.h"

#include "keel/assets/detail/little_endian.h"
#include "keel/core/assert.h"

#include <bit>
#include <cmath>
#include <cstring>

namespace keel::assets {
namespace {

using detail::get16;
using detail::get32;
using detail::put16;
using detail::put32;

static_assert(std::endian::native == std::endian::little,
              "sound chunks hold little-endian PCM that the mixer reads in place");

constexpr u32 kMinRate = 8000;
constexpr u32 kMaxRate = 192000;
constexpr u32 kLoopFlag = 1u;

Unexpected sound_corrupt(usize offset, std::string_view what) {
  return fail_at(SourceLocation::bytes("sound chunk", offset), ErrorCode::kCorrupt, "{}", what);
}

[[maybe_unused]] bool header_ok(const SoundInfo& info) {
  return info.channels >= 1 && info.channels <= kMaxSoundChannels && info.sample_rate >= kMinRate &&
         info.sample_rate <= kMaxRate && std::isfinite(info.volume) && info.volume >= 0.0f &&
         info.volume <= kMaxSoundVolume;
}

ByteBuffer encode_header(const SoundInfo& info, usize data_bytes) {
  ByteBuffer out;
  out.reserve(kSoundHeaderBytes + data_bytes);
  put32(out, kSoundMagic);
  put32(out, kSoundVersion);
  put16(out, static_cast<u16>(info.encoding));
  put16(out, info.channels);
  put32(out, info.sample_rate);
  put32(out, info.frame_count);
  put32(out, std::bit_cast<u32>(info.volume));
  put32(out, info.loop ? kLoopFlag : 0u);
  put32(out, static_cast<u32>(data_bytes));
  return out;
}

}  // namespace

ByteBuffer encode_sound(const SoundInfo& info, ByteSpan data) {
  KEEL_ASSERT(header_ok(info), "encode_sound: channels 1..2, rate 8..192 kHz, volume 0..4");
  KEEL_ASSERT(info.encoding != SoundEncoding::kPcm16 ||
                  data.size() == usize{info.frame_count} * info.channels * 2,
              "encode_sound: PCM data must hold frame_count x channels 16-bit samples");
  KEEL_ASSERT(data.size() <= 0xFFFFFFFFu, "encode_sound: data over 4 GiB");
  ByteBuffer out = encode_header(info, data.size());
  out.insert(out.end(), data.begin(), data.end());
  return out;
}

ByteBuffer encode_sound_pcm(const SoundInfo& info, std::span<const s16> samples) {
  SoundInfo pcm = info;
  pcm.encoding = SoundEncoding::kPcm16;
  return encode_sound(pcm, std::as_bytes(samples));
}

Result<SoundView> SoundView::parse(ByteSpan bytes) {
  if (bytes.size() < kSoundHeaderBytes) return sound_corrupt(0, "shorter than a sound header");
  if (get32(bytes, 0) != kSoundMagic) return sound_corrupt(0, "not a sound chunk (magic)");
  if (get32(bytes, 4) != kSoundVersion) {
    return fail_at(SourceLocation::bytes("sound chunk", 4), ErrorCode::kUnsupported,
                   "sound chunk version {} (this build reads {})", get32(bytes, 4), kSoundVersion);
  }
  SoundView view;
  SoundInfo& info = view.info_;
  const u32 encoding = get16(bytes, 8);
  if (encoding > 1) return sound_corrupt(8, "unknown sound encoding");
  info.encoding = static_cast<SoundEncoding>(encoding);
  info.channels = static_cast<u16>(get16(bytes, 10));
  if (info.channels < 1 || info.channels > kMaxSoundChannels) {
    return sound_corrupt(10, "a sound has 1 or 2 channels");
  }
  info.sample_rate = get32(bytes, 12);
  if (info.sample_rate < kMinRate || info.sample_rate > kMaxRate) {
    return sound_corrupt(12, "sample rate outside 8 kHz .. 192 kHz");
  }
  info.frame_count = get32(bytes, 16);
  info.volume = std::bit_cast<float>(get32(bytes, 20));
  if (!std::isfinite(info.volume) || info.volume < 0.0f || info.volume > kMaxSoundVolume) {
    return sound_corrupt(20, "volume outside 0 .. 4");
  }
  const u32 flags = get32(bytes, 24);
  if ((flags & ~kLoopFlag) != 0) return sound_corrupt(24, "unknown sound flags");
  info.loop = (flags & kLoopFlag) != 0;
  const u32 data_bytes = get32(bytes, 28);
  if (data_bytes > bytes.size() - kSoundHeaderBytes)
    return sound_corrupt(28, "data runs past the chunk");
  view.data_ = bytes.subspan(kSoundHeaderBytes, data_bytes);
  if (info.encoding == SoundEncoding::kPcm16) {
    if (u64{data_bytes} != u64{info.frame_count} * info.channels * 2) {
      return sound_corrupt(28, "PCM data size is not frame_count x channels x 2");
    }
    if (reinterpret_cast<uintptr_t>(view.data_.data()) % alignof(s16) != 0) {
      return sound_corrupt(kSoundHeaderBytes, "PCM data is not 2-byte aligned");
    }
    view.pcm_ =
        std::span<const s16>(reinterpret_cast<const s16*>(view.data_.data()), data_bytes / 2);
  } else if (data_bytes < 4 || std::memcmp(view.data_.data(), "OggS", 4) != 0) {
    return sound_corrupt(kSoundHeaderBytes, "Vorbis data does not start with an Ogg page");
  }
  return view;
}

double SoundView::duration() const {
  return static_cast<double>(info_.frame_count) / static_cast<double>(info_.sample_rate);
}

}  // namespace keel::assets
