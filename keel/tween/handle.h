// Weak, generation-checked handles to interpolators and triggers.
//
// A handle is an (index, generation) pair into its system's slot table. When the object ends
// (finished, killed, fired once) its slot's generation moves on, so every old handle to it reports
// dead and every operation through it does nothing: a handle can never reach a reused slot.
// Handles are plain values: copy them freely, keep them after the object ended, compare them.
// A default-constructed handle is null (never alive).
#pragma once

#include "keel/core/types.h"

#include <compare>

namespace keel::tween {

template <typename Tag>
struct Handle {
  u32 index = 0;
  u32 generation = 0;  // 0: the null handle (slot generations start at 1)

  constexpr bool is_null() const { return generation == 0; }
  friend constexpr bool operator==(Handle, Handle) = default;
};

struct TweenTag;
struct TriggerTag;
using TweenHandle = Handle<TweenTag>;
using TriggerHandle = Handle<TriggerTag>;

}  // namespace keel::tween
