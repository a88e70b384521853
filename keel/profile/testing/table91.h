// Test support (not installed): the book's Figure 9.2 / Table 9.1 frame, scripted on a
// FakeProfiler. 1000 ticks; A 700 {C 300, D 394 {F 246, G 146}}; B 250 {C 120, E 110}.
#pragma once

#include "keel/profile/testing/fake_profiler.h"

namespace keel::profile::testing {

inline constexpr Site kA{"A", __FILE__, __LINE__};
inline constexpr Site kB{"B", __FILE__, __LINE__};
inline constexpr Site kC{"C", __FILE__, __LINE__};
inline constexpr Site kD{"D", __FILE__, __LINE__};
inline constexpr Site kE{"E", __FILE__, __LINE__};
inline constexpr Site kF{"F", __FILE__, __LINE__};
inline constexpr Site kG{"G", __FILE__, __LINE__};

inline void run_table91_frame(FakeProfiler& f) {
  f.begin_frame(0);
  f.enter(kA, 0);
  f.sample(kC, 1, 301);
  f.enter(kD, 302);
  f.sample(kF, 303, 549);
  f.sample(kG, 549, 695);
  f.leave(kD, 696);
  f.leave(kA, 700);
  f.enter(kB, 700);
  f.sample(kC, 701, 821);
  f.sample(kE, 821, 931);
  f.leave(kB, 950);
  f.end_frame(1000);
}

}  // namespace keel::profile::testing
