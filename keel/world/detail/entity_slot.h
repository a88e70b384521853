// keel::world::detail::EntitySlot: one slot of a World's entity table. Internal: World owns the
// table; component stores read the `dying` flags when a flush ends many entities at once
// (StoreBase::erase_dying).
#pragma once

#include "keel/core/types.h"

namespace keel::world::detail {

struct EntitySlot {
  static constexpr u32 kNoSlot = ~u32{0};

  u32 generation = 0;  // (counter << 8) | salt, as core/slot_map.h; odd counter: live
  u32 next_free = kNoSlot;
  bool dying = false;  // killed, ending at the next flush
};

}  // namespace keel::world::detail
