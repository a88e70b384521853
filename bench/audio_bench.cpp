// Audio: the mixer against its floor, and decode time of the sample Ogg Vorbis music.
//
// Mix64Voices: 64 looping mono PCM voices with different pans and volumes, one second of 48 kHz
// stereo s16 (in 1024-frame device buffers), through keel::platform::Mixer. The floor sums the
// same 64 buffers with the same constant gains into a float accumulator and converts it to s16
// with clamping: the least any mixer must do.
#include "bench_support.h"

#include "keel/assets/build/sound_source.h"
#include "keel/assets/sound.h"
#include "keel/core/file.h"
#include "keel/platform/audio.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

namespace {

using namespace keel;

constexpr int kVoices = 64;
constexpr usize kFrames = platform::kMixRate;  // one second
constexpr usize kBuffer = 1024;

struct Voices {
  Voices() {
    std::mt19937 rng(7);
    std::uniform_int_distribution<int> sample(-8000, 8000);
    for (int v = 0; v < kVoices; ++v) {
      std::vector<s16> pcm(kFrames);
      for (s16& s : pcm) s = static_cast<s16>(sample(rng));
      const ByteBuffer bytes = assets::encode_sound_pcm(
          {.channels = 1, .frame_count = static_cast<u32>(kFrames), .loop = true}, pcm);
      chunks.emplace_back((bytes.size() + 3) / 4);
      std::memcpy(chunks.back().data(), bytes.data(), bytes.size());
      samples.push_back(std::move(pcm));
      pans.push_back(-1.0f + 2.0f * static_cast<float>(v) / (kVoices - 1));
      volumes.push_back(0.2f + 0.01f * static_cast<float>(v));
    }
  }
  std::vector<std::vector<u32>> chunks;
  std::vector<std::vector<s16>> samples;
  std::vector<float> pans;
  std::vector<float> volumes;
};

const Voices& voices() {
  static const Voices v;
  return v;
}

void BM_Mix64Voices(benchmark::State& state) {
  const Voices& v = voices();
  platform::Mixer mixer({.max_voices = kVoices});
  std::vector<assets::SoundView> views;
  for (int i = 0; i < kVoices; ++i) {
    const std::vector<u32>& c = v.chunks[i];
    views.push_back(assets::SoundView::parse(std::as_bytes(std::span<const u32>(c))).value());
    const platform::SoundId id = mixer.add_sound("v" + std::to_string(i), views.back()).value();
    mixer.play(id, {.volume = v.volumes[i], .pan = v.pans[i]});
  }
  std::vector<s16> out(kBuffer * 2);
  for (auto _ : state) {
    for (usize at = 0; at < kFrames; at += kBuffer) {
      mixer.mix(out);
      benchmark::DoNotOptimize(out.data());
    }
  }
  state.SetItemsProcessed(state.iterations() * kFrames * kVoices);
}
BENCHMARK(BM_Mix64Voices)->Unit(benchmark::kMillisecond);

void BM_PlainSum64Voices(benchmark::State& state) {
  const Voices& v = voices();
  std::vector<float> left(kVoices), right(kVoices);
  for (int i = 0; i < kVoices; ++i) {
    const platform::StereoGain g = platform::pan_gains(v.pans[i], 1);
    left[i] = g.left * v.volumes[i] / 32768.0f;
    right[i] = g.right * v.volumes[i] / 32768.0f;
  }
  std::vector<float> acc(kBuffer * 2);
  std::vector<s16> out(kBuffer * 2);
  for (auto _ : state) {
    for (usize at = 0; at < kFrames; at += kBuffer) {
      const usize n = std::min(kBuffer, kFrames - at);
      std::fill(acc.begin(), acc.end(), 0.0f);
      for (int i = 0; i < kVoices; ++i) {
        const s16* src = v.samples[i].data() + at;
        for (usize k = 0; k < n; ++k) {
          acc[2 * k] += static_cast<float>(src[k]) * left[i];
          acc[2 * k + 1] += static_cast<float>(src[k]) * right[i];
        }
      }
      for (usize k = 0; k < 2 * n; ++k) {
        out[k] = static_cast<s16>(std::lrint(std::clamp(acc[k] * 32768.0f, -32768.0f, 32767.0f)));
      }
      benchmark::DoNotOptimize(out.data());
    }
  }
  state.SetItemsProcessed(state.iterations() * kFrames * kVoices);
}
BENCHMARK(BM_PlainSum64Voices)->Unit(benchmark::kMillisecond);

void BM_DecodeSampleOgg(benchmark::State& state) {
  const std::string ogg = read_file(KEEL_SOURCE_DIR "/data/assets/sounds/music.ogg").value();
  usize frames = 0;
  for (auto _ : state) {
    Result<assets::DecodedSound> s = assets::read_ogg_vorbis(as_bytes(ogg), "music.ogg");
    frames = s ? s->frames() : 0;
    benchmark::DoNotOptimize(frames);
  }
  state.counters["audio_seconds"] = static_cast<double>(frames) / 44100.0;
}
BENCHMARK(BM_DecodeSampleOgg)->Unit(benchmark::kMillisecond);

}  // namespace

KEEL_BENCH_RATIO("audio mixer 64 voices vs plain summing loop", "BM_Mix64Voices",
                 "BM_PlainSum64Voices");

KEEL_BENCH_MAIN()
