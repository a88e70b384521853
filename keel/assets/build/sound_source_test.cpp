#include "keel/assets/build/sound_source.h"

#include "keel/assets/build/sound_handler.h"
#include "keel/assets/sound.h"
#include "keel/assets/sound_wav.h"
#include "keel/core/file.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <numbers>

namespace keel::assets {
namespace {

void put16(ByteBuffer& out, u32 v) {
  for (int i = 0; i < 2; ++i) out.push_back(static_cast<std::byte>(v >> (8 * i)));
}
void put32(ByteBuffer& out, u32 v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<std::byte>(v >> (8 * i)));
}
void put_tag(ByteBuffer& out, std::string_view tag) {
  for (char c : tag) out.push_back(static_cast<std::byte>(c));
}

// A WAV file with the given format fields and raw sample bytes; `extensible` wraps the format in
// WAVE_FORMAT_EXTENSIBLE; a LIST chunk before fmt checks that unknown chunks are skipped.
ByteBuffer make_wav(u32 format, u16 channels, u32 rate, u32 bits, const ByteBuffer& data,
                    bool extensible = false) {
  ByteBuffer fmt;
  put16(fmt, extensible ? 0xFFFE : format);
  put16(fmt, channels);
  put32(fmt, rate);
  put32(fmt, rate * channels * bits / 8);
  put16(fmt, channels * bits / 8);
  put16(fmt, bits);
  if (extensible) {
    put16(fmt, 22);
    put16(fmt, bits);
    put32(fmt, channels == 1 ? 4 : 3);
    put16(fmt, format);
    for (int i = 0; i < 14; ++i) fmt.push_back(std::byte{0x11});
  }
  ByteBuffer out;
  put_tag(out, "RIFF");
  put32(out, 0);  // ignored
  put_tag(out, "WAVE");
  put_tag(out, "LIST");
  put32(out, 3);
  put_tag(out, "abc");
  out.push_back(std::byte{0});  // pad to even
  put_tag(out, "fmt ");
  put32(out, static_cast<u32>(fmt.size()));
  out.insert(out.end(), fmt.begin(), fmt.end());
  put_tag(out, "data");
  put32(out, static_cast<u32>(data.size()));
  out.insert(out.end(), data.begin(), data.end());
  return out;
}

// Full scale, half scale negative and zero in each format.
struct FormatCase {
  const char* name;
  u32 format;
  u32 bits;
  ByteBuffer data;
};

std::vector<FormatCase> format_cases() {
  std::vector<FormatCase> cases;
  ByteBuffer d8 = {std::byte{255}, std::byte{64}, std::byte{128}};
  cases.push_back({"pcm8", 1, 8, d8});
  ByteBuffer d16;
  for (u32 v : {0x7FFFu, 0xC000u, 0u}) put16(d16, v);
  cases.push_back({"pcm16", 1, 16, d16});
  ByteBuffer d24;
  for (u32 v : {0x7FFFFFu, 0xC00000u, 0u}) {
    put16(d24, v & 0xFFFF);
    d24.push_back(static_cast<std::byte>(v >> 16));
  }
  cases.push_back({"pcm24", 1, 24, d24});
  ByteBuffer d32;
  for (u32 v : {0x7FFFFFFFu, 0xC0000000u, 0u}) put32(d32, v);
  cases.push_back({"pcm32", 1, 32, d32});
  ByteBuffer f32;
  for (float v : {1.0f, -0.5f, 0.0f}) put32(f32, std::bit_cast<u32>(v));
  cases.push_back({"float32", 3, 32, f32});
  ByteBuffer f64;
  for (double v : {1.0, -0.5, 0.0}) {
    const u64 b = std::bit_cast<u64>(v);
    put32(f64, static_cast<u32>(b));
    put32(f64, static_cast<u32>(b >> 32));
  }
  cases.push_back({"float64", 3, 64, f64});
  return cases;
}

TEST(SoundSource, ReadsEveryWavFormat) {
  for (bool extensible : {false, true}) {
    for (const FormatCase& c : format_cases()) {
      const ByteBuffer wav = make_wav(c.format, 1, 22050, c.bits, c.data, extensible);
      Result<DecodedSound> s = read_wav(wav, c.name);
      ASSERT_TRUE(s) << c.name << ": " << s.error().to_string();
      EXPECT_EQ(s->sample_rate, 22050u);
      EXPECT_EQ(s->channels, 1);
      ASSERT_EQ(s->samples.size(), 3u) << c.name;
      EXPECT_NEAR(s->samples[0], 1.0f, 1.0f / 127) << c.name;
      EXPECT_NEAR(s->samples[1], -0.5f, 1e-6f) << c.name;
      EXPECT_EQ(s->samples[2], 0.0f) << c.name;
    }
  }
}

TEST(SoundSource, ReadsStereoInterleaved) {
  const std::vector<s16> samples = {100, -100, 200, -200};
  const ByteBuffer wav = encode_wav_s16(44100, 2, samples);
  Result<DecodedSound> s = read_sound(wav, "stereo.wav");
  ASSERT_TRUE(s) << s.error().to_string();
  EXPECT_EQ(s->channels, 2);
  EXPECT_EQ(s->frames(), 2u);
  EXPECT_EQ(s->samples[3], -200.0f / 32768.0f);
}

struct BadWav {
  const char* what;
  usize offset;  // byte to change
  u8 value;
  u64 error_offset;
  ErrorCode code;
};

TEST(SoundSource, BadWavFilesGiveLocatedErrors) {
  // The file: RIFF(0) WAVE(8) LIST(12..23) fmt (24: payload 32) data(48: payload 56).
  ByteBuffer d16;
  for (u32 v : {1u, 2u}) put16(d16, v);
  const ByteBuffer good = make_wav(1, 1, 48000, 16, d16);
  ASSERT_TRUE(read_wav(good, "good.wav"));
  const BadWav cases[] = {
      {"magic", 0, 'X', 0, ErrorCode::kUnsupported},
      {"compressed", 32, 2, 32, ErrorCode::kUnsupported},
      {"no channels", 34, 0, 34, ErrorCode::kCorrupt},
      {"six channels", 34, 6, 34, ErrorCode::kUnsupported},
      {"rate", 38, 0, 36, ErrorCode::kCorrupt},
      {"block align", 44, 7, 44, ErrorCode::kCorrupt},
      {"bits", 46, 12, 46, ErrorCode::kUnsupported},
      {"data past end", 55, 1, 52, ErrorCode::kCorrupt},
      {"no fmt", 24, 'x', 12, ErrorCode::kCorrupt},
  };
  for (const BadWav& c : cases) {
    ByteBuffer bad = good;
    bad[c.offset] = std::byte{c.value};
    if (std::string_view(c.what) == "rate") bad[36] = bad[37] = std::byte{0};
    Result<DecodedSound> s = read_sound(bad, "bad.wav");
    ASSERT_FALSE(s) << c.what;
    EXPECT_EQ(s.error().code(), c.code) << c.what << ": " << s.error().to_string();
    EXPECT_EQ(s.error().where().file, "bad.wav") << c.what;
    EXPECT_EQ(s.error().where().offset, c.error_offset) << c.what << ": " << s.error().to_string();
  }
}

TEST(SoundSource, TruncatedWavFilesAreErrors) {
  ByteBuffer d16;
  for (u32 v : {1u, 2u, 3u}) put16(d16, v);
  const ByteBuffer good = make_wav(1, 1, 48000, 16, d16);
  for (usize n = 0; n < good.size(); ++n) {
    EXPECT_FALSE(read_sound(ByteSpan(good).first(n), "cut.wav")) << n;
  }
}

TEST(SoundSource, UnknownFilesAreUnsupported) {
  Result<DecodedSound> s = read_sound(as_bytes("ID3 an mp3"), "song.mp3");
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code(), ErrorCode::kUnsupported);
}

TEST(SoundSource, DecodesTheSampleOgg) {
  Result<std::string> ogg = read_file(KEEL_SOURCE_DIR "/data/assets/sounds/music.ogg");
  ASSERT_TRUE(ogg) << ogg.error().to_string();
  Result<DecodedSound> s = read_sound(as_bytes(*ogg), "music.ogg");
  ASSERT_TRUE(s) << s.error().to_string();
  EXPECT_EQ(s->sample_rate, 44100u);
  EXPECT_EQ(s->channels, 2);
  EXPECT_EQ(s->frames(), 4u * 44100u);  // eight notes of half a second
  float peak = 0;
  for (float v : s->samples) peak = std::max(peak, std::abs(v));
  EXPECT_GT(peak, 0.1f);
  EXPECT_LT(peak, 1.0f);
}

TEST(SoundSource, DamagedOggIsALocatedError) {
  Result<std::string> ogg = read_file(KEEL_SOURCE_DIR "/data/assets/sounds/music.ogg");
  ASSERT_TRUE(ogg);
  std::string bad = ogg->substr(0, 40);  // the first page cut short
  Result<DecodedSound> s = read_sound(as_bytes(bad), "cut.ogg");
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().where().file, "cut.ogg");
  EXPECT_TRUE(s.error().where().binary);
}

TEST(SoundSource, ResamplingKeepsASineAndItsLength) {
  constexpr u32 kFrom = 22050;
  std::vector<float> sine(kFrom);  // one second of 440 Hz
  for (usize i = 0; i < sine.size(); ++i) {
    sine[i] = 0.5f * std::sin(2.0f * std::numbers::pi_v<float> * 440.0f * i / kFrom);
  }
  const std::vector<float> out = resample(sine, 1, kFrom, kSoundRate);
  ASSERT_EQ(out.size(), kSoundRate);
  double error = 0;
  for (usize j = 1000; j < out.size() - 1000; ++j) {  // away from the edges
    const double want = 0.5 * std::sin(2.0 * std::numbers::pi * 440.0 * j / kSoundRate);
    error = std::max(error, std::abs(out[j] - want));
  }
  EXPECT_LT(error, 0.01);
}

TEST(SoundSource, ResamplingDownRemovesWhatCannotBeKept) {
  constexpr u32 kFrom = 96000;
  std::vector<float> tone(kFrom);  // 30 kHz: above 48 kHz's Nyquist limit
  for (usize i = 0; i < tone.size(); ++i) {
    tone[i] = 0.5f * std::sin(2.0f * std::numbers::pi_v<float> * 30000.0f * i / kFrom);
  }
  const std::vector<float> out = resample(tone, 1, kFrom, kSoundRate);
  float peak = 0;
  for (usize j = 1000; j < out.size() - 1000; ++j) peak = std::max(peak, std::abs(out[j]));
  EXPECT_LT(peak, 0.05f);  // not folded back as a 18 kHz alias
}

TEST(SoundSource, Pcm16ClampsAndRoundTrips) {
  const std::vector<float> in = {2.0f, -2.0f, 0.5f, -1.0f, 32767.0f / 32768.0f};
  const std::vector<s16> out = to_pcm16(in);
  EXPECT_EQ(out, (std::vector<s16>{32767, -32768, 16384, -32768, 32767}));
}

TEST(SoundChunk, WavBecomes48kPcm) {
  std::vector<s16> samples(22050, 1000);  // half a second at 44.1 kHz... of a constant
  const ByteBuffer wav = encode_wav_s16(44100, 1, samples);
  Result<ByteBuffer> chunk = build_sound_chunk(wav, "c.wav", {.volume = 0.8f, .loop = true});
  ASSERT_TRUE(chunk) << chunk.error().to_string();
  std::vector<u32> aligned((chunk->size() + 3) / 4);
  std::memcpy(aligned.data(), chunk->data(), chunk->size());
  Result<SoundView> view =
      SoundView::parse(std::as_bytes(std::span<const u32>(aligned)).first(chunk->size()));
  ASSERT_TRUE(view) << view.error().to_string();
  EXPECT_EQ(view->sample_rate(), kSoundRate);
  EXPECT_EQ(view->frame_count(), 24000u);
  EXPECT_FLOAT_EQ(view->volume(), 0.8f);
  EXPECT_TRUE(view->loops());
  EXPECT_EQ(view->pcm()[12000], 1000);  // a constant stays the constant
}

TEST(SoundChunk, StreamNeedsOgg) {
  const ByteBuffer wav = encode_wav_s16(44100, 1, std::vector<s16>(10, 0));
  Result<ByteBuffer> chunk = build_sound_chunk(wav, "c.wav", {.stream = true});
  ASSERT_FALSE(chunk);
  EXPECT_EQ(chunk.error().code(), ErrorCode::kInvalidArgument);
}

}  // namespace
}  // namespace keel::assets
