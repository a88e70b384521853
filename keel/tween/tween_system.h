// TweenSystem: owns interpolators ("tweens") and updates them once per frame.
//
//   keel::tween::TweenSystem tweens;
//   tweens.tween(alpha, 2.0f, 0.0f, 1.0f);                        // fire and forget
//   auto h = tweens.tween(pos, 0.5f, Vec2{0, 0}, Vec2{4, 2}, {.ease = Ease::kOutBack});
//   tweens.cubic(y, 1.0f, 0.0f, 3.0f, 8.0f, 10.0f);               // the seed's cubic
//   tweens.oscillate(bob, {.amplitude = 0.2f, .frequency = 2.0f});  // forever
//   tweens.sequence({steps::tween(x, 1.0f, 0.0f, 5.0f), steps::wait(0.5f),
//                    steps::call([] { ding(); })}, {.loops = 2});
//   tweens.pause(h); tweens.reset(h); tweens.kill(h); tweens.alive(h);
//   tweens.update(dt);                                           // or let a TweenTask do it
//
// Lifetime: the system keeps every interpolator alive until it ends (its last play finished) or is
// killed; the creator may drop the handle. Handles are weak: once the interpolator ended they
// report dead and every operation through them does nothing.
//
// Targets are plain references. The system writes a target only inside update() (and never
// while delayed). Whoever owns a target object must make sure no tween outlives it: keep the
// handles and kill them, or call kill_targets_in(this, sizeof(*this)) from the owner's
// destructor, which also cancels any sequence or group that would later reach that object.
//
// Time: b = clamp(elapsed / duration, 0, 1) (then eased); the target is written every update;
// when elapsed reaches the duration the target holds exactly the end value and the interpolator
// ends in that same update (or loops, carrying the extra time into the next play).
//
// Not thread-safe: one system per thread (update it from the thread that owns the targets).
#pragma once

#include "keel/core/assert.h"
#include "keel/core/hash.h"
#include "keel/core/types.h"
#include "keel/tween/curve_pool.h"
#include "keel/tween/easing.h"
#include "keel/tween/handle.h"
#include "keel/tween/oscillator.h"
#include "keel/tween/oscillator_pool.h"
#include "keel/tween/pool.h"
#include "keel/tween/step.h"
#include "keel/tween/tween_options.h"
#include "keel/tween/value.h"

#include <concepts>
#include <functional>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <type_traits>
#include <typeinfo>
#include <unordered_map>
#include <utility>
#include <vector>

namespace keel::tween {

namespace detail {
struct StepAccess;
class TimerPool;
}  // namespace detail

class TweenSystem {
 public:
  TweenSystem();
  ~TweenSystem();
  TweenSystem(const TweenSystem&) = delete;
  TweenSystem& operator=(const TweenSystem&) = delete;

  // --- Time-based interpolators: `duration` seconds per play (>= 0; 0 ends on the first
  // update). T is any Tweenable (f32, vectors, colours, ...); eased f32 tweens take the fast path.

  // from -> to along options.ease (linear by default: the seed's linear interpolator).
  template <Tweenable T>
  TweenHandle tween(T& target, f32 duration, std::type_identity_t<T> from,
                    std::type_identity_t<T> to, TweenOptions options = {}) {
    return spawn_tween(target, duration, std::move(from), std::move(to), std::move(options), {});
  }
  // The seed's quadratic interpolator: start*a^2 + mid*2ab + end*b^2.
  template <Tweenable T>
  TweenHandle quadratic(T& target, f32 duration, std::type_identity_t<T> start,
                        std::type_identity_t<T> mid, std::type_identity_t<T> end,
                        TweenOptions options = {}) {
    const T c[] = {std::move(start), std::move(mid), std::move(end)};
    return spawn_curve<T>(target, duration, c, std::move(options), {});
  }
  // The seed's cubic interpolator: start*a^3 + mid1*3a^2b + mid2*3ab^2 + end*b^3.
  template <Tweenable T>
  TweenHandle cubic(T& target, f32 duration, std::type_identity_t<T> start,
                    std::type_identity_t<T> mid1, std::type_identity_t<T> mid2,
                    std::type_identity_t<T> end, TweenOptions options = {}) {
    const T c[] = {std::move(start), std::move(mid1), std::move(mid2), std::move(end)};
    return spawn_curve<T>(target, duration, c, std::move(options), {});
  }
  // Any number (>= 1) of control values: the Bernstein blend of degree controls.size() - 1.
  template <Tweenable T>
  TweenHandle bernstein(T& target, f32 duration, std::type_identity_t<std::span<const T>> controls,
                        TweenOptions options = {}) {
    return spawn_curve<T>(target, duration, controls, std::move(options), {});
  }
  template <Tweenable T>
  TweenHandle bernstein(T& target, f32 duration, std::initializer_list<std::type_identity_t<T>> c,
                        TweenOptions options = {}) {
    return spawn_curve<T>(target, duration, std::span<const T>(c.begin(), c.size()),
                          std::move(options), {});
  }

  // --- Not time-based: the sine oscillator runs until killed (options: delay, id, paused).
  template <Tweenable T>
  TweenHandle oscillate(T& target, Oscillation<T> wave, TweenOptions options = {}) {
    KEEL_ASSERT(!options.on_complete, "an oscillator never completes");
    auto& pool = typed_pool<detail::OscillatorPool<T>>();
    const TweenHandle h = open_slot(options, {});
    pool.insert(&target, wave, options.delay, h.index, options.paused);
    return h;
  }

  // --- A timer: calls `fn` after `seconds` (loops repeat the wait; fn runs after the last).
  TweenHandle after(f32 seconds, std::function<void()> fn, TweenOptions options = {});

  // --- Groups: steps (see steps.h) run one after another, or all at once. A group ends when its
  // last step ends; options.loops replays it; on_complete runs after the last play. Killing a
  // group kills its running steps; killing a step lets the group go on with the next one.
  TweenHandle sequence(std::vector<Step> steps, TweenOptions options = {});
  TweenHandle parallel(std::vector<Step> steps, TweenOptions options = {});

  // --- Control through handles (all return false for a dead handle).

  bool alive(TweenHandle h) const { return slots_.alive(h); }
  // Ends it now without calling on_complete. The target keeps its current value.
  bool kill(TweenHandle h);
  // Freezes it (time stops; the target is not written); groups pause their running steps.
  bool pause(TweenHandle h);
  bool resume(TweenHandle h);
  bool is_paused(TweenHandle h) const;
  // Back to the start: elapsed time -delay, all loops ahead, forwards. Writes nothing until the
  // next update. A group restarts from its first step.
  bool reset(TweenHandle h);
  // Seconds into the current play (negative while delayed); none for dead handles and groups.
  std::optional<f32> elapsed(TweenHandle h) const;

  // --- Ids and bulk operations.

  // A live tween or group with this id (any one of them if several), or a null handle.
  TweenHandle find(StringId id) const;
  // Kills every live tween with this id; returns how many.
  usize kill_id(StringId id);
  // For an object about to die: kills every tween whose target lies in [begin, begin + bytes),
  // and the outermost group around it or around any step (running, done or yet to start) on
  // such a target. Returns the number of top-level tweens and groups killed.
  usize kill_targets_in(const void* begin, usize bytes);
  // Kills everything (no callbacks).
  void kill_all();

  // Live tweens and groups (paused ones included).
  usize size() const { return slots_.size(); }
  // Room for `n` eased float tweens of `ease` without reallocating.
  void reserve(usize n, Ease ease = Ease::kLinear);

  // --- The frame: advances every running tween by `dt` seconds (>= 0) and writes its target, then
  // ends, loops and advances groups, calling completion callbacks. Not re-entrant: a callback
  // must not call update().
  void update(f64 dt);
  bool updating() const { return updating_; }

 private:
  friend struct detail::StepAccess;

  struct Group {
    TweenHandle self{};  // null while the record is free
    std::shared_ptr<const std::vector<Step>> steps;
    bool sequence = true;
    bool delaying = false;              // the running child is the group's initial delay
    u32 next = 0;                       // sequence: the next step to start
    u32 running = 0;                    // parallel: steps not done yet in this play
    std::vector<TweenHandle> children;  // started in this play (some may have ended)
    detail::Playback playback;
    f32 carry = 0.0f;  // parallel: smallest overshoot among steps done in carry_update
    u64 carry_update = 0;
    u64 play_update = ~u64{0};  // the update in which the current play began
    f32 play_carry = 0.0f;      // the carry it began with
    u32 quick_plays = 0;        // plays begun and ended within play_update
  };
  struct Event {
    // kEnded: a row reached the end of a play. kChildDone: a group's step (or its delay) ended.
    // kGroupStart: a group starts (delay first). kGroupPlay: a looping group starts a play.
    enum class Kind : u8 { kEnded, kChildDone, kGroupStart, kGroupPlay };
    Kind kind;
    TweenHandle handle;
    f32 carry;
  };

  template <Tweenable T>
  TweenHandle spawn_tween(T& target, f32 duration, T from, T to, TweenOptions options,
                          const detail::Spawn& spawn) {
    if constexpr (std::same_as<T, f32>) {
      return spawn_float(target, duration, from, to, std::move(options), spawn);
    } else {
      const T c[] = {std::move(from), std::move(to)};
      return spawn_curve<T>(target, duration, c, std::move(options), spawn);
    }
  }
  TweenHandle spawn_float(f32& target, f32 duration, f32 from, f32 to, TweenOptions options,
                          const detail::Spawn& spawn);
  template <Tweenable T>
  TweenHandle spawn_curve(T& target, f32 duration, std::span<const T> controls,
                          TweenOptions options, const detail::Spawn& spawn) {
    check_timing(duration, options);
    KEEL_ASSERT(!controls.empty(), "a curve tween needs at least one control value");
    if (controls.empty()) return TweenHandle{};
    auto& pool = typed_pool<detail::CurvePool<T>>();
    const bool paused = options.paused || spawn.paused;
    const TweenHandle h = open_slot(options, spawn);
    const u32 row = pool.insert(&target, controls, -options.delay, duration, options.ease,
                                playback_of(options), h.index, paused);
    carry_in(pool, row, h, spawn.carry);
    return h;
  }
  TweenHandle spawn_timer(f32 seconds, TweenOptions options, const detail::Spawn& spawn);
  TweenHandle spawn_group(std::shared_ptr<const std::vector<Step>> steps, bool sequence,
                          TweenOptions options, const detail::Spawn& spawn);

  // Asserts on a bad duration, delay, loop count or ease, and replaces it (release builds).
  static void check_timing(f32& duration, TweenOptions& options);
  static detail::Playback playback_of(const TweenOptions& options);
  // A live slot with the options' id, callback and parent.
  TweenHandle open_slot(TweenOptions& options, const detail::Spawn& spawn);
  // A new row started with `carry` seconds already elapsed: write it, and queue its end if due.
  void carry_in(detail::Pool& pool, u32 row, TweenHandle h, f32 carry);

  template <typename P>
  P& typed_pool() {
    for (const auto& [type, index] : typed_) {
      if (*type == typeid(P)) return static_cast<P&>(*pools_[index]);
    }
    const auto index = static_cast<u16>(pools_.size());
    KEEL_ASSERT(index < detail::kGroupPool, "too many pool types");
    pools_.push_back(std::make_unique<P>(slots_, index));
    typed_.emplace_back(&typeid(P), index);
    return static_cast<P&>(*pools_[index]);
  }

  Group* group_of(TweenHandle h);
  // Frees the slot and its storage; no callbacks, no events.
  void release(TweenHandle h);
  // Kills a group's running children (which do not report back to it).
  void kill_children(TweenHandle group);
  TweenHandle root_of(TweenHandle h) const;
  bool set_paused(TweenHandle h, bool paused);

  void process_events();
  void on_ended(TweenHandle h);
  // Ends h for good: callback, then its group hears about it.
  void complete(TweenHandle h, f32 overshoot);
  void on_child_done(TweenHandle group, f32 carry);
  void on_group_start(TweenHandle group, f32 carry);
  void begin_play(TweenHandle group, f32 carry);
  void start_next(TweenHandle group, f32 carry);
  void end_group_play(TweenHandle group, f32 carry);

  detail::TweenSlots slots_;
  std::vector<std::unique_ptr<detail::Pool>> pools_;  // [0, kEaseCount): float pools by ease
  std::vector<std::pair<const std::type_info*, u16>> typed_;
  detail::TimerPool* timers_ = nullptr;
  std::vector<Group> groups_;
  std::vector<u32> free_groups_;
  std::unordered_multimap<StringId, TweenHandle> ids_;
  std::vector<Event> events_;    // processed in this update (or the next, between updates)
  std::vector<Event> deferred_;  // forever-looping groups that took no time: next update
  u64 update_count_ = 0;
  bool updating_ = false;
};

}  // namespace keel::tween
