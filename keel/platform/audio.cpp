#include "keel/platform/audio.h"

#include "keel/core/assert.h"
#include "keel/core/hash.h"
#include "keel/core/prehashed_map.h"
#include "keel/platform/detail/audio_mixer.h"
#include "keel/settings/settings.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <numbers>

namespace keel::platform {
namespace {

u32 float_bits(float v) { return std::bit_cast<u32>(v); }
float bits_float(u32 v) { return std::bit_cast<float>(v); }

float clamp_or(float v, float lo, float hi, float fallback) {
  return std::isnan(v) ? fallback : std::clamp(v, lo, hi);
}

u64 pack_vec2(spatial::Vec2 v) { return u64{float_bits(v.x)} | (u64{float_bits(v.y)} << 32); }

spatial::Vec2 unpack_vec2(u64 bits) {
  return {bits_float(static_cast<u32>(bits)), bits_float(static_cast<u32>(bits >> 32))};
}

spatial::Vec2 finite_or_zero(spatial::Vec2 v) {
  return {std::isfinite(v.x) ? v.x : 0.0f, std::isfinite(v.y) ? v.y : 0.0f};
}

}  // namespace

StereoGain pan_gains(float pan, u16 source_channels) {
  const float p = clamp_or(pan, -1.0f, 1.0f, 0.0f);
  if (source_channels >= 2) return {std::min(1.0f, 1.0f - p), std::min(1.0f, 1.0f + p)};
  const float angle = (p + 1.0f) * std::numbers::pi_v<float> / 4.0f;
  return {std::cos(angle), std::sin(angle)};
}

float distance_gain(float distance, const Attenuation& a) {
  if (!(distance > a.reference)) return std::isnan(distance) ? 0.0f : 1.0f;
  if (distance >= a.maximum || a.maximum <= a.reference) return 0.0f;
  const float fade = (a.maximum - distance) / (a.maximum - a.reference);
  return a.reference / distance * fade;
}

float positional_pan(spatial::Vec2 listener, spatial::Vec2 source, const Attenuation& a) {
  if (!(a.pan_width > 0.0f)) return 0.0f;
  return clamp_or((source.x - listener.x) / a.pan_width, -1.0f, 1.0f, 0.0f);
}

Mixer::Mixer(const MixerConfig& config) : state_(std::make_unique<detail::MixerState>(config)) {
  master_.store(float_bits(1.0f));
  for (auto& b : bus_) b.store(float_bits(1.0f));
}

Mixer::~Mixer() = default;

Result<SoundId> Mixer::add_sound(std::string_view name, const assets::SoundView& sound) {
  if (name.empty()) return fail(ErrorCode::kInvalidArgument, "add_sound: a sound needs a name");
  const u32 count = sound_count_.load(std::memory_order_relaxed);
  if (count >= state_->config.max_sounds) {
    return fail(ErrorCode::kOverflow, "add_sound: more than {} sounds (MixerConfig::max_sounds)",
                state_->config.max_sounds);
  }
  if (sound.encoding() == assets::SoundEncoding::kVorbis) {
    if (Status ok = detail::VorbisStream::check(sound.data(), sound.channels()); !ok) {
      return fail(ok.error().code(), "add_sound: `{}`: {}", name, ok.error().message());
    }
  }
  state_->sounds[count] = sound;
  state_->names.insert_or_assign(hash64(name), count + 1);
  sound_count_.store(count + 1, std::memory_order_release);
  return SoundId{count + 1};
}

SoundId Mixer::find_sound(std::string_view name) const {
  const u32* id = state_->names.find(hash64(name));
  return id != nullptr ? SoundId{*id} : SoundId{};
}

u32 Mixer::sound_count() const { return sound_count_.load(std::memory_order_relaxed); }

bool Mixer::send(const detail::MixerCommand& command) {
  if (state_->queue.push(command)) return true;
  dropped_.fetch_add(1, std::memory_order_relaxed);
  return false;
}

VoiceId Mixer::play(SoundId sound, const PlayParams& params) {
  if (!sound || sound.value > sound_count()) return {};
  detail::MixerCommand c;
  c.kind = detail::MixerCommand::Kind::kPlay;
  c.voice = next_voice_;
  c.sound = sound.value;
  c.params = params;
  c.params.volume = clamp_or(params.volume, 0.0f, assets::kMaxSoundVolume, 1.0f);
  c.params.pan = clamp_or(params.pan, -1.0f, 1.0f, 0.0f);
  c.params.pitch = clamp_or(params.pitch, 0.125f, 8.0f, 1.0f);
  c.params.position = finite_or_zero(params.position);
  if (static_cast<usize>(params.bus) >= kAudioBusCount) c.params.bus = AudioBus::kEffects;
  if (!send(c)) return {};
  next_voice_ = next_voice_ == 0xFFFFFFFFu ? 1 : next_voice_ + 1;
  return VoiceId{c.voice};
}

VoiceId Mixer::play(std::string_view sound_name, const PlayParams& params) {
  return play(find_sound(sound_name), params);
}

void Mixer::stop(VoiceId voice) {
  if (!voice) return;
  detail::MixerCommand c;
  c.kind = detail::MixerCommand::Kind::kStop;
  c.voice = voice.value;
  send(c);
}

void Mixer::stop_all() {
  detail::MixerCommand c;
  c.kind = detail::MixerCommand::Kind::kStopAll;
  send(c);
}

void Mixer::set_voice_volume(VoiceId voice, float volume) {
  if (!voice) return;
  detail::MixerCommand c;
  c.kind = detail::MixerCommand::Kind::kVolume;
  c.voice = voice.value;
  c.params.volume = clamp_or(volume, 0.0f, assets::kMaxSoundVolume, 1.0f);
  send(c);
}

void Mixer::set_voice_position(VoiceId voice, spatial::Vec2 position) {
  if (!voice) return;
  detail::MixerCommand c;
  c.kind = detail::MixerCommand::Kind::kPosition;
  c.voice = voice.value;
  c.params.position = finite_or_zero(position);
  send(c);
}

void Mixer::set_listener(spatial::Vec2 position) {
  listener_.store(pack_vec2(finite_or_zero(position)), std::memory_order_relaxed);
}

void Mixer::set_master_volume(float volume) {
  master_.store(float_bits(clamp_or(volume, 0.0f, 4.0f, 1.0f)), std::memory_order_relaxed);
}

void Mixer::set_bus_volume(AudioBus bus, float volume) {
  const usize b = static_cast<usize>(bus);
  KEEL_ASSERT(b < kAudioBusCount, "set_bus_volume: no such bus");
  if (b >= kAudioBusCount) return;
  bus_[b].store(float_bits(clamp_or(volume, 0.0f, 4.0f, 1.0f)), std::memory_order_relaxed);
}

float Mixer::master_volume() const { return bits_float(master_.load(std::memory_order_relaxed)); }

float Mixer::bus_volume(AudioBus bus) const {
  const usize b = static_cast<usize>(bus);
  return b < kAudioBusCount ? bits_float(bus_[b].load(std::memory_order_relaxed)) : 0.0f;
}

void Mixer::apply(const detail::MixerCommand& c) {
  using Kind = detail::MixerCommand::Kind;
  detail::MixerState& s = *state_;
  if (c.kind == Kind::kStopAll) {
    for (detail::Voice& v : s.voices) s.release(v);
    return;
  }
  if (c.kind == Kind::kPlay) {
    if (!s.start(c)) dropped_.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  detail::Voice* v = s.find(c.voice);
  if (v == nullptr) return;
  if (c.kind == Kind::kStop) s.release(*v);
  if (c.kind == Kind::kVolume) v->volume = c.params.volume;
  if (c.kind == Kind::kPosition) v->position = c.params.position;
}

void Mixer::mix(std::span<s16> out) {
  KEEL_ASSERT(out.size() % kMixChannels == 0, "mix: the buffer must hold whole stereo frames");
  while (std::optional<detail::MixerCommand> c = state_->queue.pop()) apply(*c);
  const usize frames = out.size() / kMixChannels;
  for (usize at = 0; at < frames; at += detail::kBlockFrames) {
    const usize n = std::min<usize>(detail::kBlockFrames, frames - at);
    mix_block(out.subspan(at * kMixChannels, n * kMixChannels));
  }
  if (out.size() % kMixChannels != 0) out.back() = 0;  // release builds: the odd sample is silent
  u32 active = 0;
  for (const detail::Voice& v : state_->voices) active += v.id != 0 ? 1 : 0;
  active_.store(active, std::memory_order_relaxed);
  mixed_.fetch_add(frames, std::memory_order_relaxed);
}

void Mixer::mix_block(std::span<s16> out) {
  detail::MixerState& s = *state_;
  detail::BlockGains gains;
  gains.listener = unpack_vec2(listener_.load(std::memory_order_relaxed));
  const float master = master_volume();
  for (usize b = 0; b < kAudioBusCount; ++b) gains.bus[b] = master * bus_volume(AudioBus(b));
  const usize n = out.size() / kMixChannels;
  std::fill_n(s.accumulator.begin(), n * kMixChannels, 0.0f);
  for (detail::Voice& v : s.voices) {
    if (v.id != 0) s.render(v, gains, s.accumulator.data(), static_cast<u32>(n));
  }
  u64 clipped = 0;
  for (usize i = 0; i < n * kMixChannels; ++i) {
    const float x = s.accumulator[i] * 32768.0f;
    if (x > 32767.0f || x < -32768.0f) ++clipped;
    out[i] = static_cast<s16>(std::lrint(std::clamp(x, -32768.0f, 32767.0f)));
  }
  if (clipped != 0) clipped_.fetch_add(clipped, std::memory_order_relaxed);
}

Status add_audio_settings(settings::Settings& settings, AudioSettings& values) {
  for (std::string_view name : {"music_volume", "effects_volume"}) {
    if (settings.contains(name)) {
      return fail(ErrorCode::kAlreadyExists, "audio setting '{}' is already registered", name);
    }
  }
  settings.add("music_volume", values.music_volume, "Music volume, 0 (silent) to 1 (full)")
      .range(0.0f, 1.0f);
  settings
      .add("effects_volume", values.effects_volume, "Sound effects volume, 0 (silent) to 1 (full)")
      .range(0.0f, 1.0f);
  return {};
}

void apply_audio_settings(Mixer& mixer, float master_volume, const AudioSettings& values) {
  mixer.set_master_volume(master_volume);
  mixer.set_bus_volume(AudioBus::kMusic, values.music_volume);
  mixer.set_bus_volume(AudioBus::kEffects, values.effects_volume);
}

}  // namespace keel::platform
