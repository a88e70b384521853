// The SoundPlayer adds the pack's sounds to a mixer and plays the sim's events, captured headless
// through the null audio device.
#include "sound.h"

#include "keel/core/hash.h"
#include "keel/platform/audio_capture.h"
#include "keel/platform/audio_device.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

namespace keel::voidfarer {
namespace {

struct Energy {
  f64 left = 0;
  f64 right = 0;
};
Energy energy(std::span<const s16> stereo) {
  Energy e;
  for (usize i = 0; i + 1 < stereo.size(); i += 2) {
    e.left += static_cast<f64>(stereo[i]) * stereo[i];
    e.right += static_cast<f64>(stereo[i + 1]) * stereo[i + 1];
  }
  return e;
}

class SoundTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto sim = Sim::create(VOIDFARER_DATA);
    ASSERT_TRUE(sim) << sim.error().to_string();
    sim_ = std::move(*sim);
    device_ = platform::open_audio_device(mixer_, {.headless = true, .capture = &capture_});
    ASSERT_NE(device_, nullptr);
    // The effects' tests listen to the effects alone (MusicLoopsOnTheMusicBus turns it back up).
    mixer_.set_bus_volume(platform::AudioBus::kMusic, 0);
  }

  std::unique_ptr<Sim> sim_;
  platform::Mixer mixer_;
  platform::AudioCapture capture_;
  std::unique_ptr<platform::AudioDevice> device_;
};

TEST_F(SoundTest, AddsThePacksSounds) {
  SoundPlayer player(mixer_, sim_->pack());
  EXPECT_EQ(player.sound_count(), 5u);  // laser, explosion, hit, thrust, music
  EXPECT_TRUE(mixer_.find_sound("laser"));
  EXPECT_TRUE(mixer_.find_sound("explosion"));
  EXPECT_TRUE(mixer_.find_sound("hit"));
  EXPECT_TRUE(mixer_.find_sound("thrust"));
  EXPECT_TRUE(mixer_.find_sound("music"));
  EXPECT_TRUE(player.music_playing());  // the pack's "music", streamed and looped
}

TEST_F(SoundTest, MusicLoopsOnTheMusicBus) {
  mixer_.set_bus_volume(platform::AudioBus::kMusic, 1);
  SoundPlayer player(mixer_, sim_->pack());
  ASSERT_TRUE(player.music_playing());
  for (int second = 0; second < 17; ++second) device_->advance(1.0);  // past the loop's end
  ASSERT_GT(capture_.frames(), 48000u * 16);
  const std::span<const s16> all = capture_.samples();
  const Energy start = energy(all.subspan(0, 48000 * 2));
  const Energy again = energy(all.subspan(48000 * 2 * 16, 48000 * 2));  // 16 to 17 s
  EXPECT_GT(start.left, 0.0);
  EXPECT_GT(again.left, start.left * 0.5);  // the loop's first second, heard again
  EXPECT_LT(again.left, start.left * 2.0);
  EXPECT_DOUBLE_EQ(again.left, again.right);                   // mono music, centred
  if (const char* out = std::getenv("VOIDFARER_MUSIC_WAV")) {  // for a listen
    EXPECT_TRUE(capture_.write_wav(out));
  }
}

TEST_F(SoundTest, SilenceWithoutEvents) {
  SoundPlayer player(mixer_, sim_->pack());
  player.play({}, {0, 0});
  device_->advance(0.1);
  ASSERT_GT(capture_.frames(), 4000u);
  const Energy e = energy(capture_.samples());
  EXPECT_EQ(e.left + e.right, 0.0);
}

TEST_F(SoundTest, EventsMakeSamplesPannedTowardTheirSource) {
  SoundPlayer player(mixer_, sim_->pack());
  const SoundEvent hit{.sound = runtime_id("hit").value, .position = {400, 0}, .volume = 1};
  player.play({&hit, 1}, {0, 0});  // to the listener's right
  EXPECT_EQ(player.played(), 1u);
  device_->advance(0.25);
  const Energy right = energy(capture_.samples());
  EXPECT_GT(right.right, 0.0);
  EXPECT_GT(right.right, right.left * 2);
  const std::filesystem::path out = std::filesystem::path(KEEL_TEST_TMPDIR) / "sound_hit.wav";
  std::filesystem::create_directories(out.parent_path());
  ASSERT_TRUE(capture_.write_wav(out));
  EXPECT_GT(std::filesystem::file_size(out), 44u + 4 * 4000u);

  capture_.clear();
  const SoundEvent laser{.sound = runtime_id("laser").value, .position = {-400, 0}, .volume = 1};
  player.play({&laser, 1}, {0, 0});  // to the left
  device_->advance(0.25);
  const Energy left = energy(capture_.samples());
  EXPECT_GT(left.left, left.right * 2);
}

TEST_F(SoundTest, FarSoundsAreQuieterAndUnknownOnesCounted) {
  SoundPlayer player(mixer_, sim_->pack());
  const SoundEvent near{.sound = runtime_id("explosion").value, .position = {0, 50}};
  player.play({&near, 1}, {0, 0});
  device_->advance(0.3);
  const Energy a = energy(capture_.samples());
  capture_.clear();
  device_->advance(1.0);  // let it end
  capture_.clear();
  const SoundEvent far{.sound = runtime_id("explosion").value, .position = {0, 1500}};
  const SoundEvent nothing{.sound = runtime_id("no_such_sound").value};
  const SoundEvent both[] = {far, nothing};
  player.play(both, {0, 0});
  device_->advance(0.3);
  const Energy b = energy(capture_.samples());
  EXPECT_GT(b.left + b.right, 0.0);
  EXPECT_GT(a.left + a.right, 4 * (b.left + b.right));
  EXPECT_EQ(player.unknown(), 1u);
  EXPECT_EQ(player.played(), 2u);
}

TEST_F(SoundTest, AVolleyStartsAFewVoices) {
  SoundPlayer player(mixer_, sim_->pack());
  std::vector<SoundEvent> volley(50, SoundEvent{.sound = runtime_id("laser").value});
  player.play(volley, {0, 0});
  EXPECT_EQ(player.played(), SoundPlayer::kMaxStartsPerSound);
  EXPECT_EQ(player.skipped(), 50u - SoundPlayer::kMaxStartsPerSound);
  player.play(volley, {0, 0});  // the count is per frame
  EXPECT_EQ(player.played(), 2 * SoundPlayer::kMaxStartsPerSound);
}

TEST_F(SoundTest, ThrustLoopsUntilReleased) {
  SoundPlayer player(mixer_, sim_->pack());
  player.set_thrust(true);
  player.set_thrust(true);  // held: still one voice
  EXPECT_TRUE(player.thrust_playing());
  device_->advance(1.5);  // three times the sound's length: it loops
  const std::span<const s16> all = capture_.samples();
  ASSERT_GT(all.size(), 2u * 60000u);
  const Energy late = energy(all.subspan(2 * 60000));  // after 1.25 s
  EXPECT_GT(late.left + late.right, 0.0);
  EXPECT_EQ(mixer_.active_voices(), 2u);  // the engine and the (muted) music
  player.set_thrust(false);
  EXPECT_FALSE(player.thrust_playing());
  device_->advance(0.1);  // the stop takes effect at the next block
  capture_.clear();
  device_->advance(0.2);
  const Energy after = energy(capture_.samples());
  EXPECT_EQ(after.left + after.right, 0.0);
}

}  // namespace
}  // namespace keel::voidfarer
