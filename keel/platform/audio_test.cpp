#include "keel/platform/audio.h"

#include "keel/assets/sound_wav.h"
#include "keel/core/file.h"
#include "keel/platform/audio_capture.h"
#include "keel/platform/audio_device.h"
#include "keel/platform/detail/audio_stream.h"
#include "keel/settings/settings.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <numbers>
#include <vector>

namespace keel::platform {
namespace {

// A PCM sound chunk kept alive (4-byte aligned) with its view.
struct TestSound {
  TestSound(std::vector<s16> samples, u16 channels, bool loop = false, float volume = 1.0f,
            u32 rate = kMixRate) {
    const ByteBuffer bytes =
        assets::encode_sound_pcm({.channels = channels,
                                  .sample_rate = rate,
                                  .frame_count = static_cast<u32>(samples.size() / channels),
                                  .volume = volume,
                                  .loop = loop},
                                 samples);
    words.resize((bytes.size() + 3) / 4);
    std::memcpy(words.data(), bytes.data(), bytes.size());
    view = assets::SoundView::parse(std::as_bytes(std::span<const u32>(words)).first(bytes.size()))
               .value();
  }
  std::vector<u32> words;
  assets::SoundView view;
};

TestSound constant(s16 value, usize frames, bool loop = false) {
  return TestSound(std::vector<s16>(frames, value), 1, loop);
}

std::vector<s16> mix(Mixer& mixer, usize frames) {
  std::vector<s16> out(frames * 2);
  mixer.mix(out);
  return out;
}

TEST(AudioMath, ConstantPowerPanLaw) {
  const StereoGain centre = pan_gains(0.0f, 1);
  EXPECT_NEAR(centre.left, std::numbers::sqrt2_v<float> / 2, 1e-6f);
  EXPECT_NEAR(centre.right, std::numbers::sqrt2_v<float> / 2, 1e-6f);
  for (float pan : {-1.0f, -0.5f, 0.0f, 0.3f, 1.0f}) {
    const StereoGain g = pan_gains(pan, 1);
    EXPECT_NEAR(g.left * g.left + g.right * g.right, 1.0f, 1e-6f) << pan;  // constant power
  }
  EXPECT_NEAR(pan_gains(-1.0f, 1).right, 0.0f, 1e-6f);
  EXPECT_NEAR(pan_gains(1.0f, 1).left, 0.0f, 1e-6f);
  EXPECT_NEAR(pan_gains(5.0f, 1).left, 0.0f, 1e-6f);  // clamped
  const StereoGain stereo = pan_gains(0.0f, 2);
  EXPECT_EQ(stereo.left, 1.0f);
  EXPECT_EQ(stereo.right, 1.0f);
  const StereoGain balance = pan_gains(0.5f, 2);
  EXPECT_FLOAT_EQ(balance.left, 0.5f);
  EXPECT_EQ(balance.right, 1.0f);
}

TEST(AudioMath, DistanceAttenuation) {
  const Attenuation a{.reference = 100, .maximum = 2000, .pan_width = 600};
  EXPECT_EQ(distance_gain(0, a), 1.0f);
  EXPECT_EQ(distance_gain(100, a), 1.0f);
  EXPECT_FLOAT_EQ(distance_gain(200, a), 0.5f * 1800.0f / 1900.0f);
  EXPECT_EQ(distance_gain(2000, a), 0.0f);
  EXPECT_EQ(distance_gain(1e9f, a), 0.0f);
  float last = 1.0f;
  for (float d = 100; d < 2000; d += 50) {
    EXPECT_LE(distance_gain(d, a), last) << d;
    last = distance_gain(d, a);
  }
  EXPECT_FLOAT_EQ(positional_pan({0, 0}, {300, 50}, a), 0.5f);
  EXPECT_EQ(positional_pan({0, 0}, {-900, 0}, a), -1.0f);
}

TEST(AudioMixer, MonoCentredAndPanned) {
  TestSound s = constant(16384, 1000);  // 0.5
  Mixer mixer;
  const SoundId id = mixer.add_sound("c", s.view).value();
  ASSERT_TRUE(mixer.play(id));
  std::vector<s16> out = mix(mixer, 100);
  EXPECT_NEAR(out[0], 16384 * std::numbers::sqrt2 / 2, 1.0);
  EXPECT_EQ(out[0], out[1]);
  mixer.stop_all();
  ASSERT_TRUE(mixer.play(id, {.volume = 0.5f, .pan = -1.0f}));
  out = mix(mixer, 100);
  EXPECT_EQ(out[0], 8192);
  EXPECT_EQ(out[1], 0);
}

TEST(AudioMixer, SumsVoicesAndClipsAtFullScale) {
  TestSound s = constant(24576, 1000);  // 0.75
  Mixer mixer;
  const SoundId id = mixer.add_sound("loud", s.view).value();
  mixer.play(id, {.pan = -1.0f});
  mixer.play(id, {.pan = 1.0f});
  std::vector<s16> out = mix(mixer, 10);
  EXPECT_EQ(out[0], 24576);  // one voice each side: no clipping
  EXPECT_EQ(mixer.clipped_samples(), 0u);
  mixer.play(id, {.pan = -1.0f});
  out = mix(mixer, 10);
  EXPECT_EQ(out[0], 32767);  // 1.5: clipped
  EXPECT_EQ(out[1], 24576);
  EXPECT_EQ(mixer.clipped_samples(), 10u);
  EXPECT_EQ(mixer.active_voices(), 3u);
}

TEST(AudioMixer, PositionalPanningAndAttenuation) {
  TestSound s = constant(16384, 4800, true);
  Mixer mixer({.attenuation = {.reference = 100, .maximum = 2000, .pan_width = 600}});
  const SoundId id = mixer.add_sound("hum", s.view).value();
  mixer.set_listener({1000, 500});
  const VoiceId v = mixer.play(id, {.positional = true, .position = {1600, 500}});  // far right
  std::vector<s16> out = mix(mixer, 10);
  const float g = distance_gain(600, {.reference = 100, .maximum = 2000, .pan_width = 600});
  EXPECT_EQ(out[0], 0);
  EXPECT_NEAR(out[1], 16384 * g, 1.0);
  mixer.set_voice_position(v, {400, 500});  // far left: ramps over one block, then settles
  mix(mixer, 512);
  out = mix(mixer, 10);
  EXPECT_NEAR(out[0], 16384 * g, 1.0);
  EXPECT_EQ(out[1], 0);
  mixer.set_listener({400, 400});  // on top of it: full volume, centred
  mix(mixer, 512);
  out = mix(mixer, 10);
  EXPECT_NEAR(out[0], 16384 * std::numbers::sqrt2 / 2, 1.0);
  EXPECT_EQ(out[0], out[1]);
  mixer.set_listener({400, 3000});  // beyond the maximum distance: silent
  mix(mixer, 512);
  out = mix(mixer, 10);
  EXPECT_EQ(out[0], 0);
  EXPECT_EQ(out[1], 0);
}

TEST(AudioMixer, OneShotsEndAndLoopsRepeat) {
  std::vector<s16> ramp(100);
  for (usize i = 0; i < ramp.size(); ++i) ramp[i] = static_cast<s16>(i * 100);
  TestSound once(ramp, 1), looped(ramp, 1, true);
  Mixer mixer;
  const SoundId a = mixer.add_sound("once", once.view).value();
  const SoundId b = mixer.add_sound("looped", looped.view).value();
  mixer.play(a, {.pan = -1.0f});
  mixer.play(b, {.pan = 1.0f});
  const std::vector<s16> out = mix(mixer, 250);
  EXPECT_EQ(out[2 * 99], 9900);
  EXPECT_EQ(out[2 * 100], 0);        // the one-shot ended
  EXPECT_EQ(out[2 * 205 + 1], 500);  // the loop wrapped twice
  EXPECT_EQ(mixer.active_voices(), 1u);
}

TEST(AudioMixer, PitchStepsThroughTheSound) {
  std::vector<s16> ramp(100);
  for (usize i = 0; i < ramp.size(); ++i) ramp[i] = static_cast<s16>(i * 100);
  TestSound s(ramp, 1);
  Mixer mixer;
  const SoundId id = mixer.add_sound("ramp", s.view).value();
  mixer.play(id, {.pan = -1.0f, .pitch = 2.0f});
  std::vector<s16> out = mix(mixer, 60);
  EXPECT_EQ(out[2 * 10], 2000);  // twice as fast
  EXPECT_EQ(out[2 * 50], 0);     // and over in half the time
  mixer.play(id, {.pan = -1.0f, .pitch = 0.5f});
  out = mix(mixer, 4);
  EXPECT_EQ(out[2 * 1], 50);  // half way between 0 and 100: interpolated
}

TEST(AudioMixer, BusAndMasterVolumes) {
  TestSound s = constant(16384, 1000, true);
  Mixer mixer;
  const SoundId id = mixer.add_sound("x", s.view).value();
  mixer.play(id, {.pan = -1.0f, .bus = AudioBus::kMusic});
  mixer.set_bus_volume(AudioBus::kMusic, 0.5f);
  mixer.set_master_volume(0.5f);
  EXPECT_EQ(mix(mixer, 10)[0], 4096);
  mixer.set_bus_volume(AudioBus::kEffects, 0.0f);  // not this voice's bus
  mix(mixer, 512);
  EXPECT_EQ(mix(mixer, 10)[0], 4096);
  settings::Settings settings;
  AudioSettings values;
  ASSERT_TRUE(add_audio_settings(settings, values));
  ASSERT_TRUE(settings.apply("music_volume=0.25"));
  apply_audio_settings(mixer, 1.0f, values);
  EXPECT_EQ(mixer.bus_volume(AudioBus::kMusic), 0.25f);
  mix(mixer, 512);
  EXPECT_EQ(mix(mixer, 10)[0], 4096);
  EXPECT_FALSE(add_audio_settings(settings, values));  // already registered
}

TEST(AudioMixer, StopAndVoiceStealing) {
  TestSound s = constant(1000, 1000, true);
  Mixer mixer({.max_voices = 2});
  const SoundId id = mixer.add_sound("x", s.view).value();
  const VoiceId v1 = mixer.play(id);
  mixer.play(id, {.volume = 2.0f});
  mixer.play(id, {.volume = 3.0f});  // replaces the quietest, v1
  mix(mixer, 10);
  EXPECT_EQ(mixer.active_voices(), 2u);
  mixer.stop(v1);  // already gone: ignored
  mix(mixer, 10);
  EXPECT_EQ(mixer.active_voices(), 2u);
  mixer.stop_all();
  mix(mixer, 10);
  EXPECT_EQ(mixer.active_voices(), 0u);
}

TEST(AudioMixer, StreamsVorbisAndLoops) {
  Result<std::string> ogg = read_file(KEEL_SOURCE_DIR "/data/assets/sounds/music.ogg");
  ASSERT_TRUE(ogg) << ogg.error().to_string();
  const ByteBuffer bytes = assets::encode_sound({.encoding = assets::SoundEncoding::kVorbis,
                                                 .channels = 2,
                                                 .sample_rate = 44100,
                                                 .frame_count = 4 * 44100,
                                                 .loop = true},
                                                as_bytes(*ogg));
  std::vector<u32> words((bytes.size() + 3) / 4);
  std::memcpy(words.data(), bytes.data(), bytes.size());
  const assets::SoundView view =
      assets::SoundView::parse(std::as_bytes(std::span<const u32>(words)).first(bytes.size()))
          .value();
  Mixer mixer({.max_streams = 1});
  const SoundId id = mixer.add_sound("music", view).value();
  ASSERT_TRUE(mixer.play(id, {.bus = AudioBus::kMusic}));
  ASSERT_TRUE(mixer.play(id));         // no free decoder: refused when mixing starts
  std::vector<s16> out(kMixRate * 2);  // one second
  double energy = 0;
  for (int second = 0; second < 5; ++second) {  // past the end: the loop restarts it
    mixer.mix(out);
    for (s16 v : out) energy += static_cast<double>(v) * v;
  }
  EXPECT_EQ(mixer.active_voices(), 1u);
  EXPECT_EQ(mixer.dropped_commands(), 1u);
  EXPECT_GT(energy / (5.0 * out.size()), 1e4);  // well above silence (RMS > 100)
}

// The mixer reuses its decoders: a mono stream opened on the decoder a stereo one used must
// still read silence past its end (it once read the stereo stream's old samples there, which the
// last frame's interpolation mixed in). Found by the audio_stream fuzz target.
TEST(AudioStream, ReusedDecoderIsSilentPastTheEnd) {
  Result<std::string> ogg = read_file(KEEL_SOURCE_DIR "/data/assets/sounds/music.ogg");
  ASSERT_TRUE(ogg) << ogg.error().to_string();
  detail::VorbisStream stream;
  ASSERT_TRUE(stream.open(as_bytes(*ogg), 2, false));
  ASSERT_TRUE(stream.ensure(detail::VorbisStream::kWindowFrames + 10));
  ASSERT_TRUE(stream.open(as_bytes(*ogg), 1, false));
  bool heard = false;
  for (u64 i = 0; i < 2000 && stream.ensure(i); ++i) heard = heard || stream.frame(i)[0] != 0.0f;
  EXPECT_TRUE(heard);
  EXPECT_EQ(stream.frame(~u64{0})[0], 0.0f);
  EXPECT_EQ(stream.frame(detail::VorbisStream::kWindowFrames * 4)[0], 0.0f);
}

// stb_vorbis decodes in the stream's arena trusting the sizes the file states; this damaged
// file (found by the audio_stream fuzz target: the corpus file minus its first byte) makes it
// write outside the arena. The check decodes it in a child process first, so the crash is the
// child's, and add_sound refuses the sound with its name.
TEST(AudioStream, DataThatCrashesTheDecoderIsRefusedBeforeItStreams) {
  Result<std::string> bad =
      read_file(KEEL_SOURCE_DIR "/fuzz/corpus/audio_stream/stb_arena_overrun");
  ASSERT_TRUE(bad) << bad.error().to_string();
  const ByteSpan ogg = as_bytes(*bad).subspan(1);
  Status st = detail::VorbisStream::check(ogg, 1);
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message().find("crashes the decoder"), std::string::npos)
      << st.error().message();
  EXPECT_FALSE(detail::VorbisStream::check(as_bytes(std::string_view("OggS and no more")), 2));

  Result<std::string> good = read_file(KEEL_SOURCE_DIR "/data/assets/sounds/music.ogg");
  ASSERT_TRUE(good);
  EXPECT_TRUE(detail::VorbisStream::check(as_bytes(*good), 2));
  EXPECT_FALSE(detail::VorbisStream::check(as_bytes(*good), 3));

  const ByteBuffer bytes = assets::encode_sound({.encoding = assets::SoundEncoding::kVorbis,
                                                 .channels = 1,
                                                 .sample_rate = 44100,
                                                 .frame_count = 44100},
                                                ogg);
  std::vector<u32> words((bytes.size() + 3) / 4);
  std::memcpy(words.data(), bytes.data(), bytes.size());
  const assets::SoundView view =
      assets::SoundView::parse(std::as_bytes(std::span<const u32>(words)).first(bytes.size()))
          .value();
  Mixer mixer;
  Result<SoundId> added = mixer.add_sound("broken_music", view);
  ASSERT_FALSE(added);
  EXPECT_NE(added.error().message().find("`broken_music`"), std::string::npos);
  EXPECT_EQ(mixer.sound_count(), 0u);
}

TEST(AudioCaptureTest, NullDeviceFollowsTheFrameClockAndRoundTrips) {
  TestSound s = constant(8192, 48000);
  Mixer mixer;
  const SoundId id = mixer.add_sound("x", s.view).value();
  AudioCapture capture;
  std::unique_ptr<AudioDevice> device =
      open_audio_device(mixer, {.headless = true, .capture = &capture});
  ASSERT_TRUE(device->is_null());
  mixer.play(id, {.pan = 1.0f});
  for (int frame = 0; frame < 60; ++frame) device->advance(1.0 / 60.0);
  EXPECT_EQ(capture.frames(), 48000u);  // fractions of a frame carried over
  EXPECT_EQ(capture.samples()[1], 8192);
  EXPECT_EQ(capture.samples()[0], 0);
  const std::filesystem::path path = std::filesystem::path(KEEL_TEST_TMPDIR) / "capture.wav";
  std::filesystem::create_directories(path.parent_path());
  ASSERT_TRUE(capture.write_wav(path));
  Result<std::string> file = read_file(path);
  ASSERT_TRUE(file);
  const ByteBuffer expect = assets::encode_wav_s16(kMixRate, 2, capture.samples());
  ASSERT_EQ(file->size(), expect.size());
  EXPECT_EQ(std::memcmp(file->data(), expect.data(), expect.size()), 0);
  EXPECT_EQ(file->size(), assets::kWavHeaderBytes + 48000u * 4);
}

TEST(AudioCaptureTest, KeepsAtMostItsLimit) {
  AudioCapture capture(0.001);  // 48 frames
  const std::vector<s16> block(200, 1);
  capture.append(block);
  EXPECT_EQ(capture.frames(), 48u);
  EXPECT_EQ(capture.dropped_frames(), 52u);
}

TEST(EntryPoints, AudioMixerBadCalls) {
  Mixer mixer({.max_sounds = 1});
  TestSound s = constant(1, 10);
  EXPECT_FALSE(mixer.add_sound("", s.view));
  ASSERT_TRUE(mixer.add_sound("a", s.view));
  Result<SoundId> over = mixer.add_sound("b", s.view);
  ASSERT_FALSE(over);
  EXPECT_EQ(over.error().code(), ErrorCode::kOverflow);
  EXPECT_FALSE(mixer.play(SoundId{}));
  EXPECT_FALSE(mixer.play(SoundId{7}));  // another mixer's, or never made
  EXPECT_FALSE(mixer.play("nothing"));
  EXPECT_TRUE(mixer.play("a", {.volume = NAN, .pan = 99, .pitch = -3}));  // clamped
  mixer.stop(VoiceId{});
  mixer.stop(VoiceId{12345});
  mixer.set_voice_volume(VoiceId{12345}, 1);
  mixer.set_voice_position(VoiceId{12345}, {NAN, 1});
  mixer.set_listener({INFINITY, NAN});
  mixer.set_master_volume(NAN);
  EXPECT_EQ(mixer.master_volume(), 1.0f);
  mixer.mix({});
  std::vector<s16> out(64);
  mixer.mix(out);
}

TEST(EntryPoints, AudioDeviceAndCaptureBadCalls) {
  Mixer mixer;
  std::unique_ptr<AudioDevice> device = open_null_audio_device(mixer);
  device->advance(-1.0);
  device->advance(NAN);
  device->advance(0.0);
  EXPECT_EQ(mixer.mixed_frames(), 0u);
  device->advance(1e30);  // capped at 10 s
  EXPECT_EQ(mixer.mixed_frames(), 10u * kMixRate);
  AudioCapture capture;
  EXPECT_FALSE(capture.write_wav(""));
  capture.append(std::vector<s16>(3, 1));  // an odd sample count keeps whole frames
  EXPECT_EQ(capture.frames(), 1u);
}

}  // namespace
}  // namespace keel::platform
