// The mixer's thread contract under ThreadSanitizer: one game thread sends commands while
// another thread mixes (SDL's callback thread in a game).
#include "keel/platform/audio.h"
#include "keel/platform/audio_capture.h"
#include "keel/platform/audio_device.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <thread>
#include <vector>

namespace keel::platform {
namespace {

struct Chunk {
  explicit Chunk(usize frames, bool loop) {
    const std::vector<s16> samples(frames, 3000);
    const ByteBuffer bytes = assets::encode_sound_pcm(
        {.channels = 1, .frame_count = static_cast<u32>(frames), .loop = loop}, samples);
    words.resize((bytes.size() + 3) / 4);
    std::memcpy(words.data(), bytes.data(), bytes.size());
    view = assets::SoundView::parse(std::as_bytes(std::span<const u32>(words)).first(bytes.size()))
               .value();
  }
  std::vector<u32> words;
  assets::SoundView view;
};

TEST(AudioThreads, GameThreadCommandsWhileAnotherThreadMixes) {
  Chunk shot(2000, false), hum(500, true);
  Mixer mixer({.max_voices = 16});
  const SoundId a = mixer.add_sound("shot", shot.view).value();
  std::atomic<bool> done{false};
  std::thread mixing([&] {
    std::vector<s16> out(256 * 2);
    while (!done.load(std::memory_order_acquire)) mixer.mix(out);
    mixer.mix(out);  // drain what is left
  });
  SoundId b;
  for (int i = 0; i < 3000; ++i) {
    if (i == 100) b = mixer.add_sound("hum", hum.view).value();  // while mixing
    const VoiceId v =
        mixer.play(b && i % 2 == 0 ? b : a, {.positional = true, .position = {float(i % 700), 0}});
    mixer.set_listener({float(i % 300), 10});
    mixer.set_bus_volume(AudioBus::kEffects, float(i % 10) / 10.0f);
    if (i % 3 == 0) mixer.set_voice_position(v, {0, float(i)});
    if (i % 7 == 0) mixer.stop(v);
    if (i % 500 == 0) std::this_thread::yield();
  }
  done.store(true, std::memory_order_release);
  mixing.join();
  // The mixing thread has ended: this thread may mix now. A full queue dropped commands (counted,
  // never blocking the game); an empty one takes the last stop_all.
  std::vector<s16> out(64);
  mixer.mix(out);
  mixer.stop_all();
  mixer.mix(out);
  EXPECT_EQ(mixer.active_voices(), 0u);
  EXPECT_GT(mixer.mixed_frames(), 0u);
}

// SDL's dummy driver runs the callback on SDL's audio thread, like a real sound card.
TEST(AudioThreads, SdlDummyDeviceCallsTheMixer) {
  Chunk hum(480, true);
  Mixer mixer;
  const SoundId id = mixer.add_sound("hum", hum.view).value();
  AudioCapture capture(1.0);
  Result<std::unique_ptr<AudioDevice>> device =
      open_sdl_audio_device(mixer, {.capture = &capture, .buffer_frames = 256, .driver = "dummy"});
  if (!device) GTEST_SKIP() << device.error().to_string();
  EXPECT_FALSE((*device)->is_null());
  mixer.play(id);
  for (int i = 0; i < 5000 && mixer.mixed_frames() < 4096; ++i) {  // at most 5 s
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  device->reset();  // closes the device: the callback has returned
  EXPECT_GE(mixer.mixed_frames(), 4096u);
  EXPECT_GT(capture.frames(), 0u);
}

}  // namespace
}  // namespace keel::platform
