// Handle of a running script instance: (slot, generation). A handle to a released instance is
// safely dead, even after its slot is reused.
#pragma once

#include "keel/core/types.h"

namespace keel::script {

struct InstanceId {
  u32 index = 0xFFFFFFFFu;
  u32 generation = 0;
  bool valid() const { return index != 0xFFFFFFFFu; }
  friend bool operator==(InstanceId, InstanceId) = default;
};

}  // namespace keel::script
