#include "keel/core/slot_map.h"

#include <atomic>

namespace keel {

const char* to_string(HandleStatus status) {
  switch (status) {
    case HandleStatus::kAlive: return "live";
    case HandleStatus::kNull: return "null";
    case HandleStatus::kStale: return "stale";
    case HandleStatus::kForeign: return "foreign (another map's)";
  }
  return "unknown";
}

namespace detail {

u8 next_slot_map_salt() {
  static std::atomic<u32> next{0};
  return static_cast<u8>(next.fetch_add(1, std::memory_order_relaxed) % 255u + 1u);
}

}  // namespace detail
}  // namespace keel
