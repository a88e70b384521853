// The RIFF WAVE file of 16-bit PCM: what audio capture writes (keel/platform/audio_capture.h)
// and what tests feed the Sound handler. Reading every WAV flavour is the build side's job
// (keel/assets/build/sound_source.h).
#pragma once

#include "keel/core/bytes.h"
#include "keel/core/types.h"

#include <span>

namespace keel::assets {

inline constexpr usize kWavHeaderBytes = 44;

// A canonical 44-byte header (RIFF, fmt with format 1, data) for `frames` frames.
ByteBuffer wav_header_s16(u32 sample_rate, u16 channels, u32 frames);

// The whole file: header + interleaved samples (little-endian). Asserts channels >= 1 and that
// the sample count is a multiple of `channels`.
ByteBuffer encode_wav_s16(u32 sample_rate, u16 channels, std::span<const s16> samples);

}  // namespace keel::assets
