// The particle emitters' random numbers: PCG32 (O'Neill's pcg32, XSH RR output), one stream per
// emitter whose whole state is the u64 in the Emitter component, so a run replays exactly.
#pragma once

#include "keel/core/types.h"

#include <bit>

namespace keel::world::detail {

inline constexpr u64 kPcgMultiplier = 6364136223846793005ull;
inline constexpr u64 kPcgIncrement = 1442695040888963407ull;

// SplitMix64: spreads a seed (or seed + counter) into a well-mixed starting state.
constexpr u64 mix_seed(u64 x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

constexpr u32 next_u32(u64& state) {
  const u64 old = state;
  state = old * kPcgMultiplier + kPcgIncrement;
  const u32 xorshifted = static_cast<u32>(((old >> 18u) ^ old) >> 27u);
  const u32 rot = static_cast<u32>(old >> 59u);
  return std::rotr(xorshifted, static_cast<int>(rot));
}

// Uniform in [0, 1): the top 24 bits, exact in a float.
constexpr f32 next_unit(u64& state) {
  return static_cast<f32>(next_u32(state) >> 8) * (1.0f / 16777216.0f);
}

}  // namespace keel::world::detail
