// The load-ready sound: a sound chunk that the `Sound` pipeline handler writes (sound effects and
// music, from WAV or Ogg Vorbis sources) and the mixer plays in place (keel/platform/audio.h).
//
//   auto sound = keel::assets::SoundView::parse(chunk_bytes);   // checks every count
//   if (sound->encoding() == keel::assets::SoundEncoding::kPcm16) {
//     std::span<const keel::s16> frames = ...;                 // sound->pcm() (interleaved)
//   }
//
// Two encodings. Short sounds (effects) are decoded at build time and resampled to the engine
// rate (kSoundRate): interleaved signed 16-bit PCM, ready to mix. Long sounds built with
// Stream(true) keep their Ogg Vorbis bytes (a tenth of the size) and are decoded a block at a
// time while they play; their sample rate is the source's (the mixer steps through it).
//
// Chunk layout (little-endian, 4-byte aligned):
//
//   u32 magic "KSND" | u32 version (1) | u16 encoding (0 PCM s16, 1 Ogg Vorbis) | u16 channels
//   u32 sample_rate | u32 frame_count | f32 volume (0..4, the asset's default gain)
//   u32 flags (bit 0: loops by default) | u32 data_bytes | data (PCM: frame_count x channels s16)
#pragma once

#include "keel/core/bytes.h"
#include "keel/core/error.h"
#include "keel/core/types.h"

#include <span>
#include <string_view>

namespace keel::assets {

inline constexpr u32 kSoundMagic = 0x444E534Bu;  // "KSND" read as a little-endian u32
inline constexpr u32 kSoundVersion = 1;
inline constexpr std::string_view kSoundType = "Sound";
inline constexpr u32 kSoundRate = 48000;        // the engine's mixing rate (Hz)
inline constexpr usize kSoundHeaderBytes = 32;  // the data starts here
inline constexpr u32 kMaxSoundChannels = 2;     // mono or stereo
inline constexpr float kMaxSoundVolume = 4.0f;

enum class SoundEncoding : u16 { kPcm16 = 0, kVorbis = 1 };

// Everything in a sound chunk's header, for the encoder and tests.
struct SoundInfo {
  SoundEncoding encoding = SoundEncoding::kPcm16;
  u16 channels = 1;
  u32 sample_rate = kSoundRate;
  u32 frame_count = 0;  // per channel; for Vorbis the decoder's count (0 when unknown)
  float volume = 1.0f;
  bool loop = false;
};

// The chunk bytes: header + data (PCM samples as little-endian s16, or the Ogg file as it is).
// Asserts on a header no SoundView would accept (channels, rate, volume, PCM size).
ByteBuffer encode_sound(const SoundInfo& info, ByteSpan data);
ByteBuffer encode_sound_pcm(const SoundInfo& info, std::span<const s16> samples);

class SoundView {
 public:
  // Checks the magic, version, encoding, channels (1 or 2), rate (8 kHz .. 192 kHz), volume
  // and that the data fits the chunk (PCM: exactly frame_count x channels samples). A bad chunk
  // is a located error (byte offset), never an out-of-bounds read. The bytes must outlive the view
  // and, for PCM, be 2-byte aligned (pack chunks are 4-byte aligned); a misaligned PCM chunk is
  // an error.
  static Result<SoundView> parse(ByteSpan bytes);

  const SoundInfo& info() const { return info_; }
  SoundEncoding encoding() const { return info_.encoding; }
  u16 channels() const { return info_.channels; }
  u32 sample_rate() const { return info_.sample_rate; }
  u32 frame_count() const { return info_.frame_count; }
  float volume() const { return info_.volume; }
  bool loops() const { return info_.loop; }
  // Seconds of sound (0 for a Vorbis chunk whose length is unknown).
  double duration() const;

  // Interleaved samples of a PCM chunk (empty for Vorbis).
  std::span<const s16> pcm() const { return pcm_; }
  // The encoded bytes of a Vorbis chunk (the whole data for PCM).
  ByteSpan data() const { return data_; }

 private:
  SoundInfo info_;
  ByteSpan data_;
  std::span<const s16> pcm_;
};

}  // namespace keel::assets
