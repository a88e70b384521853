// Weak, generation-checked handles to interpolators and triggers.
//
// A handle is an (index, generation) pair into its system's slot table. When the object ends
// (finished, killed, fired once) its slot's generation moves on, so every old handle to it reports
// dead and every operation through it does nothing: a handle can never reach a reused slot.
// Handles are plain values: copy them freely, keep them after the object ended, compare them.
// A default-constructed handle is null (never alive).
#pragma once

#include "keel/core/slot_map.h"

namespace keel::tween {

struct TweenTag;
struct TriggerTag;
// core's generational handles (keel::Handle): a handle of another system never matches either.
using TweenHandle = keel::Handle<TweenTag>;
using TriggerHandle = keel::Handle<TriggerTag>;

}  // namespace keel::tween
