#include "keel/platform/detail/audio_mixer.h"

#include <algorithm>
#include <cmath>

namespace keel::platform::detail {
namespace {

constexpr float kS16Scale = 1.0f / 32768.0f;

struct Ramp {
  float left;
  float right;
  float step_left;
  float step_right;
};

// 16-bit PCM at an integral position and speed 1: no interpolation. False at the end.
template <u16 C>
bool render_pcm_direct(Voice& v, std::span<const s16> pcm, Ramp& g, float* acc, u32 n) {
  const u64 frames = pcm.size() / C;
  u64 idx = static_cast<u64>(v.position_frames);
  u32 i = 0;
  while (i < n) {
    if (idx >= frames) {
      if (!v.loop) return false;
      idx = 0;
    }
    const u32 run = static_cast<u32>(std::min<u64>(n - i, frames - idx));
    const s16* src = pcm.data() + idx * C;
    float* dst = acc + usize{i} * 2;
    if (g.step_left == 0.0f && g.step_right == 0.0f) {  // steady gains: a loop GCC vectorises
      const float gl = g.left * kS16Scale;
      const float gr = g.right * kS16Scale;
      for (usize k = 0; k < run; ++k) {  // usize: a 32-bit index that may wrap blocks SIMD
        dst[2 * k] += static_cast<float>(src[k * C]) * gl;
        dst[2 * k + 1] += static_cast<float>(src[k * C + C - 1]) * gr;
      }
      i += run;
      idx += run;
      continue;
    }
    for (u32 k = 0; k < run; ++k) {
      const float l = static_cast<float>(src[k * C]) * kS16Scale;
      const float r = C == 2 ? static_cast<float>(src[k * C + 1]) * kS16Scale : l;
      dst[2 * k] += l * g.left;
      dst[2 * k + 1] += r * g.right;
      g.left += g.step_left;
      g.right += g.step_right;
    }
    i += run;
    idx += run;
  }
  v.position_frames = static_cast<double>(idx);
  return v.loop || idx < frames;
}

// Any position and speed: linear interpolation between neighbouring frames.
template <u16 C>
bool render_pcm_stepped(Voice& v, std::span<const s16> pcm, Ramp& g, float* acc, u32 n) {
  const u64 frames = pcm.size() / C;
  const s16* d = pcm.data();
  double pos = v.position_frames;
  for (u32 i = 0; i < n; ++i) {
    if (pos >= static_cast<double>(frames)) {
      if (!v.loop) return false;
      pos = std::fmod(pos, static_cast<double>(frames));
    }
    const u64 idx = static_cast<u64>(pos);
    const float frac = static_cast<float>(pos - static_cast<double>(idx));
    const u64 next = idx + 1 < frames ? idx + 1 : (v.loop ? 0 : idx);
    float s[2];
    for (u16 c = 0; c < C; ++c) {
      const float a = d[idx * C + c];
      const float b = d[next * C + c];
      s[c] = (a + (b - a) * frac) * kS16Scale;
    }
    acc[2 * i] += s[0] * g.left;
    acc[2 * i + 1] += s[C - 1] * g.right;
    g.left += g.step_left;
    g.right += g.step_right;
    pos += v.step;
  }
  v.position_frames = pos;
  return v.loop || pos < static_cast<double>(frames);
}

template <u16 C>
bool render_stream(Voice& v, Ramp& g, float* acc, u32 n) {
  double pos = v.position_frames;
  for (u32 i = 0; i < n; ++i) {
    const u64 idx = static_cast<u64>(pos);
    if (!v.stream->ensure(idx)) return false;
    const float frac = static_cast<float>(pos - static_cast<double>(idx));
    const float* f0 = v.stream->frame(idx);
    const float* f1 = v.stream->frame(idx + 1);
    float s[2];
    for (u16 c = 0; c < C; ++c) s[c] = f0[c] + (f1[c] - f0[c]) * frac;
    acc[2 * i] += s[0] * g.left;
    acc[2 * i + 1] += s[C - 1] * g.right;
    g.left += g.step_left;
    g.right += g.step_right;
    pos += v.step;
  }
  v.position_frames = pos;
  return true;
}

template <u16 C>
bool render_channels(Voice& v, Ramp& g, float* acc, u32 n) {
  if (v.stream != nullptr) return render_stream<C>(v, g, acc, n);
  const std::span<const s16> pcm = v.sound->pcm();
  if (pcm.size() < C) return false;
  if (v.step == 1.0 && v.position_frames == std::floor(v.position_frames)) {
    return render_pcm_direct<C>(v, pcm, g, acc, n);
  }
  return render_pcm_stepped<C>(v, pcm, g, acc, n);
}

}  // namespace

MixerState::MixerState(const MixerConfig& c)
    : config(c),
      sounds(std::make_unique<assets::SoundView[]>(std::max<u32>(c.max_sounds, 1))),
      voices(std::max<u32>(c.max_voices, 1)),
      accumulator(usize{kBlockFrames} * kMixChannels, 0.0f) {
  names.reserve(std::max<u32>(c.max_sounds, 1));
  for (u32 i = 0; i < c.max_streams; ++i) {
    streams.push_back(std::make_unique<VorbisStream>());
    free_streams.push_back(streams.back().get());
  }
}

Voice* MixerState::find(u32 voice_id) {
  for (Voice& v : voices) {
    if (v.id == voice_id) return &v;
  }
  return nullptr;
}

void MixerState::release(Voice& v) {
  if (v.stream != nullptr) {
    v.stream->close();
    free_streams.push_back(v.stream);
  }
  v = Voice{};
}

bool MixerState::start(const MixerCommand& play) {
  const assets::SoundView& sound = sounds[play.sound - 1];
  Voice* slot = find(0);
  if (slot == nullptr) {                        // every voice busy: replace the quietest
    const auto loudness = [](const Voice& v) {  // a voice not mixed yet: its volume
      return v.fresh ? v.volume * v.sound->volume() : std::max(v.gain.left, v.gain.right);
    };
    slot = &*std::min_element(voices.begin(), voices.end(), [&](const Voice& a, const Voice& b) {
      return loudness(a) < loudness(b);
    });
    release(*slot);
  }
  const bool loop =
      play.params.loop == LoopMode::kSound ? sound.loops() : play.params.loop == LoopMode::kLoop;
  if (sound.encoding() == assets::SoundEncoding::kVorbis) {
    if (free_streams.empty()) return false;
    VorbisStream* stream = free_streams.back();
    if (!stream->open(sound.data(), sound.channels(), loop)) return false;
    free_streams.pop_back();
    slot->stream = stream;
  }
  slot->id = play.voice;
  slot->sound = &sound;
  slot->position_frames = 0.0;
  slot->step = static_cast<double>(play.params.pitch) * sound.sample_rate() / kMixRate;
  slot->volume = play.params.volume;
  slot->pan = play.params.pan;
  slot->loop = loop;
  slot->positional = play.params.positional;
  slot->position = play.params.position;
  slot->bus = play.params.bus;
  slot->fresh = true;
  return true;
}

StereoGain MixerState::target_gain(const Voice& v, const BlockGains& gains) const {
  float g = v.volume * v.sound->volume() * gains.bus[static_cast<usize>(v.bus)];
  float pan = v.pan;
  if (v.positional) {
    g *= distance_gain(spatial::distance(v.position, gains.listener), config.attenuation);
    pan = positional_pan(gains.listener, v.position, config.attenuation);
  }
  const StereoGain p = pan_gains(pan, v.sound->channels());
  return {g * p.left, g * p.right};
}

void MixerState::render(Voice& v, const BlockGains& gains, float* acc, u32 n) {
  const StereoGain target = target_gain(v, gains);
  if (v.fresh) v.gain = target;
  v.fresh = false;
  Ramp ramp{v.gain.left, v.gain.right, (target.left - v.gain.left) / static_cast<float>(n),
            (target.right - v.gain.right) / static_cast<float>(n)};
  if (ramp.step_left == 0.0f && ramp.step_right == 0.0f) ramp = {target.left, target.right, 0, 0};
  const bool playing = v.sound->channels() == 2 ? render_channels<2>(v, ramp, acc, n)
                                                : render_channels<1>(v, ramp, acc, n);
  v.gain = target;
  if (!playing) release(v);
}

}  // namespace keel::platform::detail
