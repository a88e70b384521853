// keel::world particle effects: what an effect definition holds (`Effect("sparks") { ... }` in
// the command language, compiled by the `Effect` pipeline handler) and its load-ready chunk.
//
//   EffectDef sparks{.rate = 0, .burst = 40, .life_min = 0.2f, .life_max = 0.5f, ...};
//   ByteBuffer chunk = encode_effect(sparks);                  // what the handler writes
//   Result<EffectDef> def = decode_effect(chunk, "sparks");    // checked: never trusts the bytes
//
// Chunk layout (version 1, little-endian, 4-byte fields): magic "KPFX", version, record size,
// then the fields of EffectDef in declaration order (colours as four bytes r, g, b, a).
// decode_effect checks the sizes, every float for finiteness and every field against the
// ranges below (check_effect), and reports the byte offset of the first bad field.
#pragma once

#include "keel/core/bytes.h"
#include "keel/core/color.h"
#include "keel/core/error.h"
#include "keel/core/types.h"
#include "keel/spatial/vec2.h"
#include "keel/tween/easing.h"

#include <string_view>

namespace keel::world {

using keel::Rgba8;  // keel/core/color.h: four bytes r, g, b, a

inline constexpr u32 kEffectMagic = 0x5846504Bu;  // "KPFX" read as little-endian bytes
inline constexpr u32 kEffectVersion = 1;
inline constexpr u32 kMaxEffectCapacity = 1u << 20;  // live particles of one effect's pool
inline constexpr std::string_view kEffectAssetType = "ParticleEffect";

// One effect: how its emitters emit and how its particles move, fade and grow. Angles in
// radians, times in seconds, distances in world units.
struct EffectDef {
  f32 rate = 0;           // particles per second while the emitter is on (>= 0)
  u32 burst = 0;          // particles at once when the emitter starts, and per requested burst
  f32 duration = 0;       // seconds of rate emission after the start; 0 = as long as it is on
  f32 life_min = 1;       // each particle lives a uniform random time in [life_min, life_max]
  f32 life_max = 1;       //   (> 0)
  f32 speed_min = 0;      // initial speed, uniform in [speed_min, speed_max] (>= 0)
  f32 speed_max = 0;      //
  f32 direction = 0;      // centre of the spray, relative to the emitter's facing
  f32 spread = 0;         // full width of the spray cone, in [0, 2 pi]
  f32 radius = 0;         // particles start uniformly inside this disc (>= 0)
  f32 inherit = 0;        // fraction of the entity's velocity given to new particles
  f32 drag = 0;           // velocity decays as e^(-drag t) (>= 0)
  spatial::Vec2 gravity;  // constant acceleration
  f32 size_start = 1;     // size (diameter) over life: size_start -> size_end along size_ease
  f32 size_end = 1;       //   (>= 0)
  tween::Ease size_ease = tween::Ease::kLinear;
  Rgba8 colour_start;  // colour over life: colour_start -> colour_end along colour_ease
  Rgba8 colour_end;
  tween::Ease colour_ease = tween::Ease::kLinear;
  u32 capacity = 1024;  // live particles of this effect at most, in [1, kMaxEffectCapacity]
};

// Checks the ranges above; the error names the field.
Status check_effect(const EffectDef& def);

// The chunk of a valid definition (asserts check_effect in debug builds).
ByteBuffer encode_effect(const EffectDef& def);

// Reads and checks a chunk. `source` names it in errors (e.g. the effect's name).
Result<EffectDef> decode_effect(ByteSpan chunk, std::string_view source = {});

}  // namespace keel::world
