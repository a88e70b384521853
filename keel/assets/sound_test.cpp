#include "keel/assets/sound.h"

#include "keel/assets/sound_wav.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

namespace keel::assets {
namespace {

// A chunk copied into 4-byte aligned storage, as the pack loader hands it over.
struct AlignedChunk {
  explicit AlignedChunk(const ByteBuffer& bytes) : words((bytes.size() + 3) / 4) {
    if (!bytes.empty()) std::memcpy(words.data(), bytes.data(), bytes.size());
    size = bytes.size();
  }
  ByteSpan span() const { return std::as_bytes(std::span<const u32>(words)).first(size); }
  std::vector<u32> words;
  usize size = 0;
};

void put32(ByteBuffer& b, usize at, u32 v) {
  for (int i = 0; i < 4; ++i) b[at + i] = static_cast<std::byte>(v >> (8 * i));
}

ByteBuffer stereo_chunk() {
  const std::vector<s16> samples = {1, -1, 1000, -1000, 32767, -32768};
  return encode_sound_pcm(
      {.channels = 2, .sample_rate = kSoundRate, .frame_count = 3, .volume = 0.5f, .loop = true},
      samples);
}

TEST(SoundView, RoundTripsPcm) {
  const AlignedChunk chunk(stereo_chunk());
  Result<SoundView> view = SoundView::parse(chunk.span());
  ASSERT_TRUE(view) << view.error().to_string();
  EXPECT_EQ(view->encoding(), SoundEncoding::kPcm16);
  EXPECT_EQ(view->channels(), 2);
  EXPECT_EQ(view->sample_rate(), kSoundRate);
  EXPECT_EQ(view->frame_count(), 3u);
  EXPECT_FLOAT_EQ(view->volume(), 0.5f);
  EXPECT_TRUE(view->loops());
  ASSERT_EQ(view->pcm().size(), 6u);
  EXPECT_EQ(view->pcm()[4], 32767);
  EXPECT_EQ(view->pcm()[5], -32768);
  EXPECT_DOUBLE_EQ(view->duration(), 3.0 / kSoundRate);
}

TEST(SoundView, KeepsVorbisBytes) {
  const std::string ogg = "OggS and then the pages";
  const ByteBuffer bytes = encode_sound(
      {.encoding = SoundEncoding::kVorbis, .channels = 1, .sample_rate = 44100, .frame_count = 9},
      as_bytes(ogg));
  const AlignedChunk chunk(bytes);
  Result<SoundView> view = SoundView::parse(chunk.span());
  ASSERT_TRUE(view) << view.error().to_string();
  EXPECT_EQ(view->encoding(), SoundEncoding::kVorbis);
  EXPECT_TRUE(view->pcm().empty());
  EXPECT_EQ(keel::to_string(view->data()), ogg);
}

struct Damage {
  const char* what;
  usize offset;
  u32 value;
  usize expected_offset;
};

TEST(SoundView, BadChunksAreLocatedErrors) {
  const Damage cases[] = {
      {"magic", 0, 0x12345678u, 0},
      {"version", 4, 7, 4},
      {"encoding", 8, 0x00020009u, 8},
      {"channels", 8, 0x00030000u, 10},
      {"rate", 12, 100, 12},
      {"volume nan", 20, 0x7FC00000u, 20},
      {"volume big", 20, 0x41000000u, 20},
      {"flags", 24, 2, 24},
      {"data size", 28, 1000, 28},
      {"pcm size", 16, 4, 28},
  };
  for (const Damage& d : cases) {
    ByteBuffer bytes = stereo_chunk();
    put32(bytes, d.offset, d.value);
    const AlignedChunk chunk(bytes);
    Result<SoundView> view = SoundView::parse(chunk.span());
    ASSERT_FALSE(view) << d.what;
    EXPECT_TRUE(view.error().where().binary) << d.what;
    EXPECT_EQ(view.error().where().offset, d.expected_offset) << d.what;
  }
}

TEST(SoundView, EveryTruncationIsAnError) {
  const ByteBuffer bytes = stereo_chunk();
  for (usize n = 0; n < bytes.size(); ++n) {
    const AlignedChunk chunk(ByteBuffer(bytes.begin(), bytes.begin() + static_cast<long>(n)));
    EXPECT_FALSE(SoundView::parse(chunk.span())) << n;
  }
}

TEST(SoundView, VorbisWithoutOggPageIsAnError) {
  ByteBuffer bytes = encode_sound({.encoding = SoundEncoding::kVorbis}, as_bytes("RIFF"));
  const AlignedChunk chunk(bytes);
  EXPECT_FALSE(SoundView::parse(chunk.span()));
}

TEST(EntryPoints, AudioSoundViewEmptyAndMisaligned) {
  EXPECT_FALSE(SoundView::parse({}));
  const ByteBuffer bytes = stereo_chunk();
  std::vector<u32> words(bytes.size() / 4 + 2);
  auto* base = reinterpret_cast<std::byte*>(words.data()) + 1;  // odd address
  std::memcpy(base, bytes.data(), bytes.size());
  Result<SoundView> view = SoundView::parse(ByteSpan(base, bytes.size()));
  ASSERT_FALSE(view);
  EXPECT_EQ(view.error().where().offset, kSoundHeaderBytes);
}

TEST(SoundWav, HeaderIsCanonical) {
  const std::vector<s16> samples = {0, 1, 2, 3};
  const ByteBuffer wav = encode_wav_s16(48000, 2, samples);
  ASSERT_EQ(wav.size(), kWavHeaderBytes + 8);
  EXPECT_EQ(keel::to_string(ByteSpan(wav).first(4)), "RIFF");
  EXPECT_EQ(keel::to_string(ByteSpan(wav).subspan(8, 8)), "WAVEfmt ");
  EXPECT_EQ(keel::to_string(ByteSpan(wav).subspan(36, 4)), "data");
  EXPECT_EQ(static_cast<u8>(wav[40]), 8);      // data bytes
  EXPECT_EQ(static_cast<u8>(wav[44 + 6]), 3);  // the last sample, little-endian
}

}  // namespace
}  // namespace keel::assets
