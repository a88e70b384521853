// The random source of IfRandom: seedable and owned by an Environment, so a run can be
// replayed exactly (tests, replays, the keel-fsm simulator's --seed).
#pragma once

#include "keel/core/types.h"

namespace keel::fsm {

// SplitMix64: tiny, fast, and statistically fine for gameplay dice.
class RandomSource {
 public:
  explicit RandomSource(u64 seed = 0x5EED5EEDull) : state_(seed) {}
  void seed(u64 seed) { state_ = seed; }
  // The whole state: seed(state()) later replays the same numbers (save games, replays).
  u64 state() const { return state_; }

  u64 next_u64() {
    u64 z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform in [0, 1): 24 random bits, so 1.0f is never returned.
  float next_float() { return static_cast<float>(next_u64() >> 40) * 0x1.0p-24f; }

 private:
  u64 state_;
};

}  // namespace keel::fsm
