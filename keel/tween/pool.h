// Internal: the storage behind TweenSystem. Each kind of interpolator lives in its own pool of
// densely packed rows; the system's slot table maps a handle to (pool, row). Rows are kept in two
// regions, [0, active) updated every frame and [active, size) paused, so the per-frame pass runs
// over contiguous memory without a per-row "frozen" test. Pausing, resuming and removing swap rows
// between regions (and fix the moved rows' slots); the pass itself never reshapes a pool.
#pragma once

#include "keel/core/assert.h"
#include "keel/core/hash.h"
#include "keel/core/slot_map.h"
#include "keel/core/types.h"
#include "keel/tween/handle.h"

#include <functional>
#include <span>
#include <vector>

namespace keel::tween::detail {

inline constexpr u16 kGroupPool = 0xffff;

// What the system keeps per live tween (or group).
struct TweenSlot {
  u16 pool = 0;          // index into the system's pools, or kGroupPool
  u32 row = 0;           // row in that pool (group index for groups)
  TweenHandle parent{};  // the enclosing sequence / parallel group, or null
  StringId id{};
  bool paused = false;
  std::function<void()> on_complete;
};
using TweenSlots = SlotMap<TweenSlot, TweenTag>;

// Per-row playback state of time-based kinds (cold: read only when a play ends or on reset).
struct Playback {
  f32 delay = 0.0f;
  s32 loops = 1;       // plays in total; < 0 forever
  s32 plays_left = 1;  // including the current one; < 0 forever
  bool ping_pong = false;
  bool reversed = false;  // playing backwards (every other play in ping-pong mode)
};

// Outcome of a row reaching the end of a play.
struct PlayEnd {
  bool finished = false;  // false: it looped and keeps running
  f32 overshoot = 0.0f;   // time past the end (finished rows only)
};

// Time left over after a row reached its end at `elapsed` >= `duration`. For a looping row this
// consumes whole plays (several when dt is longer than the duration) and flips direction in
// ping-pong mode; returns true when the row has no plays left (then `elapsed` stays past the end
// and overshoot = elapsed - duration).
bool consume_plays(f32& elapsed, f32 duration, Playback& playback, f32& overshoot);

// clamp(e / d, 0, 1) for e >= 0, written so that the end (e >= d) is exactly 1 without dividing,
// and a zero-length tween (d = 0) is at its end instead of at 0 / 0.
inline f32 progress_upto1(f32 e, f32 d) { return e < d ? e / d : 1.0f; }

class Pool {
 public:
  Pool(TweenSlots& slots, u16 index) : slots_(&slots), index_(index) {}
  virtual ~Pool() = default;
  Pool(const Pool&) = delete;
  Pool& operator=(const Pool&) = delete;

  // One frame: advances every active row by dt and writes its target. Rows that reached the end
  // of a play are listed in finished() until the next update (no user code runs here).
  virtual void update(f32 dt) = 0;
  std::span<const u32> finished() const { return {finished_.data(), finished_count_}; }

  // True while the row's current play has reached its end (elapsed >= duration).
  virtual bool due(u32 row) const = 0;
  // The row reached its end: loop it (and write its value) or finish it (its final value is
  // written exactly: the end value, or the start value after a reversed play).
  virtual PlayEnd end_play(u32 row) = 0;
  // Writes the target for the row's current time (nothing during a delay).
  virtual void write(u32 row) = 0;
  // Back to the beginning: delay, loops and direction as created. Writes nothing.
  virtual void rewind(u32 row) = 0;
  // Time into the current play (negative while delayed).
  virtual f32 elapsed(u32 row) const = 0;
  // Adds `dt` to the row's time without writing (used to start a row with carried-over time).
  virtual void advance(u32 row, f32 dt) = 0;
  // True if the row's target lies in [begin, end).
  virtual bool targets(u32 row, const void* begin, const void* end) const = 0;

  usize size() const { return slot_of_.size(); }
  usize active() const { return active_; }
  u16 index() const { return index_; }
  u32 slot_of(u32 row) const { return slot_of_[row]; }

  void pause(u32 row);
  void resume(u32 row);
  void remove(u32 row);

 protected:
  // Called by a derived pool after pushing a row's columns at the back: registers the row for
  // `slot` (in the active region unless paused), records (pool, row) in the slot, returns the row.
  u32 commit_row(u32 slot, bool paused);
  // Makes room for finished() to list every active row.
  void size_finished() {
    if (finished_.size() < slot_of_.size()) finished_.resize(slot_of_.size() * 2);
  }
  // Room for n rows in the base's own arrays (the derived pool reserves its columns).
  void reserve_base(usize n) {
    slot_of_.reserve(n);
    if (finished_.size() < n) finished_.resize(n);
  }

  virtual void swap_rows(u32 a, u32 b) = 0;
  virtual void pop_row() = 0;

  std::vector<u32> finished_;
  u32 finished_count_ = 0;
  usize active_ = 0;

 private:
  void swap(u32 a, u32 b);

  TweenSlots* slots_;
  std::vector<u32> slot_of_;  // row -> slot index
  u16 index_;
};

}  // namespace keel::tween::detail
