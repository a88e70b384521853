// Profile sites: the static identity of one KEEL_PROFILE / KEEL_PROFILE_BEGIN / KEEL_PROFILE_VALUE
// in the source. The macros create one `static constexpr` site per use, so the profiler identifies
// a site by its address (no strings on the hot path). Sites must outlive every profiler and trace
// that saw them; the macros' sites live for the whole program.
#pragma once

#include "keel/core/types.h"

namespace keel::profile {

struct Site {
  const char* name = "";
  const char* file = "";
  u32 line = 0;
};

// A named value recorded on the current node (KEEL_PROFILE_VALUE).
struct ValueSite {
  const char* name = "";
};

// The root site of every profiler unless it is given another: the frame ("Frame").
const Site& frame_site();

using NodeId = u32;
inline constexpr NodeId kRootNode = 0;
inline constexpr NodeId kNoNode = 0xFFFF'FFFFu;

}  // namespace keel::profile
