#include "keel/world/particles_effect.h"

#include "keel/core/assert.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <numbers>
#include <optional>

namespace keel::world {

namespace {

// The record's fields, each 4 bytes, in chunk order (the index gives the byte offset).
enum Field : u32 {
  kRate,
  kBurst,
  kDuration,
  kLifeMin,
  kLifeMax,
  kSpeedMin,
  kSpeedMax,
  kDirection,
  kSpread,
  kRadius,
  kInherit,
  kDrag,
  kGravityX,
  kGravityY,
  kSizeStart,
  kSizeEnd,
  kSizeEase,
  kColourStart,
  kColourEnd,
  kColourEase,
  kCapacity,
  kFieldCount
};

constexpr std::array<std::string_view, kFieldCount> kFieldNames = {
    "rate",       "burst",    "duration",  "life_min",     "life_max",   "speed_min",   "speed_max",
    "direction",  "spread",   "radius",    "inherit",      "drag",       "gravity.x",   "gravity.y",
    "size_start", "size_end", "size_ease", "colour_start", "colour_end", "colour_ease", "capacity"};

constexpr u32 kHeaderSize = 12;
constexpr u32 kRecordSize = kFieldCount * 4;
// Large enough for any sensible effect, small enough that rate * dt stays exact in a double.
constexpr f32 kMaxRate = 1e7f;
constexpr f32 kMaxMagnitude = 1e9f;

struct Problem {
  Field field;
  std::string_view what;
};

std::optional<Problem> find_problem(const EffectDef& d) {
  const std::array<f32, kFieldCount> floats = {d.rate,      d.duration,   d.life_min,  d.life_max,
                                               d.speed_min, d.speed_max,  d.direction, d.spread,
                                               d.radius,    d.inherit,    d.drag,      d.gravity.x,
                                               d.gravity.y, d.size_start, d.size_end};
  constexpr std::array<Field, 15> float_fields = {
      kRate,   kDuration, kLifeMin, kLifeMax,  kSpeedMin, kSpeedMax,  kDirection, kSpread,
      kRadius, kInherit,  kDrag,    kGravityX, kGravityY, kSizeStart, kSizeEnd};
  for (usize i = 0; i < float_fields.size(); ++i) {
    if (!std::isfinite(floats[i]) || std::fabs(floats[i]) > kMaxMagnitude) {
      return Problem{float_fields[i], "must be a finite number of magnitude at most 1e9"};
    }
  }
  if (d.rate < 0 || d.rate > kMaxRate) return Problem{kRate, "must be in [0, 1e7] per second"};
  if (d.duration < 0) return Problem{kDuration, "must be >= 0 (0: while on)"};
  if (d.life_min <= 0) return Problem{kLifeMin, "must be > 0"};
  if (d.life_max < d.life_min) return Problem{kLifeMax, "must be >= life_min"};
  if (d.speed_min < 0) return Problem{kSpeedMin, "must be >= 0"};
  if (d.speed_max < d.speed_min) return Problem{kSpeedMax, "must be >= speed_min"};
  if (d.spread < 0 || d.spread > 2 * std::numbers::pi_v<f32> + 1e-5f) {
    return Problem{kSpread, "must be in [0, 2 pi]"};
  }
  if (d.radius < 0) return Problem{kRadius, "must be >= 0"};
  if (d.drag < 0) return Problem{kDrag, "must be >= 0"};
  if (d.size_start < 0) return Problem{kSizeStart, "must be >= 0"};
  if (d.size_end < 0) return Problem{kSizeEnd, "must be >= 0"};
  if (static_cast<usize>(d.size_ease) >= tween::kEaseCount) {
    return Problem{kSizeEase, "is not an easing curve"};
  }
  if (static_cast<usize>(d.colour_ease) >= tween::kEaseCount) {
    return Problem{kColourEase, "is not an easing curve"};
  }
  if (d.capacity < 1 || d.capacity > kMaxEffectCapacity) {
    return Problem{kCapacity, "must be in [1, 1048576]"};
  }
  if (d.burst > d.capacity) return Problem{kBurst, "must be at most the capacity"};
  return std::nullopt;
}

u32 colour_bits(Rgba8 c) {
  return u32{c.r} | (u32{c.g} << 8) | (u32{c.b} << 16) | (u32{c.a} << 24);
}
Rgba8 colour_of(u32 v) {
  return {static_cast<u8>(v), static_cast<u8>(v >> 8), static_cast<u8>(v >> 16),
          static_cast<u8>(v >> 24)};
}

void put(ByteBuffer& out, u32 v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<std::byte>(v >> (8 * i)));
}
u32 get(ByteSpan in, usize offset) {
  u32 v = 0;
  for (usize i = 0; i < 4; ++i) v |= std::to_integer<u32>(in[offset + i]) << (8 * i);
  return v;
}

}  // namespace

Status check_effect(const EffectDef& def) {
  if (const std::optional<Problem> p = find_problem(def)) {
    return fail(ErrorCode::kOutOfRange, "effect field `{}` {}", kFieldNames[p->field], p->what);
  }
  return ok();
}

ByteBuffer encode_effect(const EffectDef& d) {
  KEEL_ASSERT(check_effect(d).has_value(), "encode_effect() of an invalid effect: {}",
              check_effect(d).error().message());
  ByteBuffer out;
  out.reserve(kHeaderSize + kRecordSize);
  put(out, kEffectMagic);
  put(out, kEffectVersion);
  put(out, kRecordSize);
  const auto f = [&](f32 v) { put(out, std::bit_cast<u32>(v)); };
  f(d.rate);
  put(out, d.burst);
  for (f32 v : {d.duration, d.life_min, d.life_max, d.speed_min, d.speed_max, d.direction, d.spread,
                d.radius, d.inherit, d.drag, d.gravity.x, d.gravity.y, d.size_start, d.size_end}) {
    f(v);
  }
  put(out, static_cast<u32>(d.size_ease));
  put(out, colour_bits(d.colour_start));
  put(out, colour_bits(d.colour_end));
  put(out, static_cast<u32>(d.colour_ease));
  put(out, d.capacity);
  return out;
}

Result<EffectDef> decode_effect(ByteSpan in, std::string_view source) {
  const std::string file(source);
  if (in.size() < kHeaderSize) {
    return fail_at(SourceLocation::bytes(file, in.size()), ErrorCode::kUnderflow,
                   "particle effect chunk of {} bytes is shorter than its 12-byte header",
                   in.size());
  }
  if (get(in, 0) != kEffectMagic) {
    return fail_at(SourceLocation::bytes(file, 0), ErrorCode::kCorrupt,
                   "not a particle effect chunk (bad magic)");
  }
  if (get(in, 4) != kEffectVersion) {
    return fail_at(SourceLocation::bytes(file, 4), ErrorCode::kUnsupported,
                   "particle effect version {} (this build reads {})", get(in, 4), kEffectVersion);
  }
  if (get(in, 8) != kRecordSize || in.size() != kHeaderSize + kRecordSize) {
    return fail_at(SourceLocation::bytes(file, 8), ErrorCode::kCorrupt,
                   "particle effect record of {} bytes in a chunk of {} (expected {} in {})",
                   get(in, 8), in.size(), kRecordSize, kHeaderSize + kRecordSize);
  }
  const auto u = [&](Field field) { return get(in, kHeaderSize + 4 * field); };
  const auto f = [&](Field field) { return std::bit_cast<f32>(u(field)); };
  const auto ease = [&](Field field) {
    // Out-of-range values are caught by find_problem (kEaseCount < 256 fits the enum).
    return static_cast<tween::Ease>(std::min<u32>(u(field), 255));
  };
  EffectDef d;
  d.rate = f(kRate);
  d.burst = u(kBurst);
  d.duration = f(kDuration);
  d.life_min = f(kLifeMin);
  d.life_max = f(kLifeMax);
  d.speed_min = f(kSpeedMin);
  d.speed_max = f(kSpeedMax);
  d.direction = f(kDirection);
  d.spread = f(kSpread);
  d.radius = f(kRadius);
  d.inherit = f(kInherit);
  d.drag = f(kDrag);
  d.gravity = {f(kGravityX), f(kGravityY)};
  d.size_start = f(kSizeStart);
  d.size_end = f(kSizeEnd);
  d.size_ease = ease(kSizeEase);
  d.colour_start = colour_of(u(kColourStart));
  d.colour_end = colour_of(u(kColourEnd));
  d.colour_ease = ease(kColourEase);
  d.capacity = u(kCapacity);
  if (const std::optional<Problem> p = find_problem(d)) {
    return fail_at(SourceLocation::bytes(file, kHeaderSize + 4 * p->field), ErrorCode::kOutOfRange,
                   "effect field `{}` {}", kFieldNames[p->field], p->what);
  }
  return d;
}

}  // namespace keel::world
