#include "keel/tween/tween_system.h"

#include "keel/tween/detail/float_pool.h"
#include "keel/tween/detail/timer_pool.h"

#include <cmath>
#include <utility>

namespace keel::tween {

namespace {

template <usize... I>
void make_float_pools(std::vector<std::unique_ptr<detail::Pool>>& pools, detail::TweenSlots& slots,
                      std::index_sequence<I...>) {
  (pools.push_back(
       std::make_unique<detail::FloatPool<static_cast<Ease>(I)>>(slots, static_cast<u16>(I))),
   ...);
}

// A forever-looping group may replay this many times within one update before waiting for the
// next one (a play of near-zero length must not spin the frame).
constexpr u32 kMaxQuickPlays = 64;

}  // namespace

using detail::kGroupPool;
using detail::Spawn;

TweenSystem::TweenSystem() {
  pools_.reserve(kEaseCount + 8);
  make_float_pools(pools_, slots_, std::make_index_sequence<kEaseCount>{});
  for (usize i = 0; i < kEaseCount; ++i) {
    const auto mirrored = static_cast<usize>(mirror(static_cast<Ease>(i)));
    static_cast<detail::FloatPoolBase&>(*pools_[i])
        .set_mirror(static_cast<detail::FloatPoolBase*>(pools_[mirrored].get()));
  }
  timers_ = &typed_pool<detail::TimerPool>();
  events_.reserve(64);
}

TweenSystem::~TweenSystem() = default;

// --- Creation. ---

void TweenSystem::check_timing(f32& duration, TweenOptions& options) {
  // Asserted in debug builds; in release builds the bad value is replaced by the nearest sane one.
  const bool good_duration = duration >= 0.0f && std::isfinite(duration);
  KEEL_ASSERT(good_duration, "bad tween duration {}", duration);
  if (!good_duration) duration = 0.0f;
  const bool good_delay = options.delay >= 0.0f && std::isfinite(options.delay);
  KEEL_ASSERT(good_delay, "bad tween delay {}", options.delay);
  if (!good_delay) options.delay = 0.0f;
  const bool good_loops = options.loops >= 1 || options.loops == kForever;
  KEEL_ASSERT(good_loops, "bad loop count {}", options.loops);
  if (!good_loops) options.loops = 1;
  const bool good_ease = static_cast<usize>(options.ease) < kEaseCount;
  KEEL_ASSERT(good_ease, "bad ease {}", static_cast<int>(options.ease));
  if (!good_ease) options.ease = Ease::kLinear;
}

detail::Playback TweenSystem::playback_of(const TweenOptions& options) {
  detail::Playback pb;
  pb.delay = options.delay > 0.0f ? options.delay : 0.0f;
  pb.loops = options.loops == 0 ? 1 : options.loops;
  pb.plays_left = pb.loops;
  pb.ping_pong = options.ping_pong;
  return pb;
}

TweenHandle TweenSystem::open_slot(TweenOptions& options, const Spawn& spawn) {
  const TweenHandle h = slots_.acquire();
  detail::TweenSlot& slot = slots_.at(h.index);
  slot.parent = spawn.parent;
  slot.id = options.id;
  slot.paused = options.paused || spawn.paused;
  slot.on_complete = std::move(options.on_complete);
  if (options.id.value != 0) ids_.emplace(options.id, h);
  return h;
}

void TweenSystem::carry_in(detail::Pool& pool, u32 row, TweenHandle h, f32 carry) {
  if (!(carry > 0.0f)) return;
  pool.advance(row, carry);
  pool.write(row);
  if (pool.due(row)) events_.push_back({Event::Kind::kEnded, h, 0.0f});
}

TweenHandle TweenSystem::spawn_float(f32& target, f32 duration, f32 from, f32 to,
                                     TweenOptions options, const Spawn& spawn) {
  check_timing(duration, options);
  auto& pool = static_cast<detail::FloatPoolBase&>(*pools_[static_cast<usize>(options.ease)]);
  const bool paused = options.paused || spawn.paused;
  const detail::Playback pb = playback_of(options);
  const TweenHandle h = open_slot(options, spawn);
  const u32 row =
      pool.insert(detail::FloatRow{&target, from, to, -pb.delay, duration, pb}, h.index, paused);
  carry_in(pool, row, h, spawn.carry);
  return h;
}

TweenHandle TweenSystem::spawn_timer(f32 seconds, TweenOptions options, const Spawn& spawn) {
  check_timing(seconds, options);
  const bool paused = options.paused || spawn.paused;
  const detail::Playback pb = playback_of(options);
  const TweenHandle h = open_slot(options, spawn);
  const u32 row = timers_->insert(seconds, pb, h.index, paused);
  carry_in(*timers_, row, h, spawn.carry);
  return h;
}

TweenHandle TweenSystem::after(f32 seconds, std::function<void()> fn, TweenOptions options) {
  KEEL_ASSERT(!(fn && options.on_complete), "after(): pass the callback once");
  if (fn) options.on_complete = std::move(fn);
  return spawn_timer(seconds, std::move(options), {});
}

TweenHandle TweenSystem::spawn_group(std::shared_ptr<const std::vector<Step>> steps, bool sequence,
                                     TweenOptions options, const Spawn& spawn) {
  KEEL_ASSERT(!options.ping_pong, "groups do not ping-pong");
  f32 no_duration = 0.0f;
  check_timing(no_duration, options);
  const detail::Playback pb = playback_of(options);
  const TweenHandle h = open_slot(options, spawn);
  u32 index;
  if (!free_groups_.empty()) {
    index = free_groups_.back();
    free_groups_.pop_back();
  } else {
    index = static_cast<u32>(groups_.size());
    groups_.emplace_back();
  }
  Group& g = groups_[index];
  g = Group{};
  g.self = h;
  g.steps = std::move(steps);
  g.sequence = sequence;
  g.playback = pb;
  detail::TweenSlot& slot = slots_.at(h.index);
  slot.pool = kGroupPool;
  slot.row = index;
  events_.push_back({Event::Kind::kGroupStart, h, spawn.carry});
  return h;
}

TweenHandle TweenSystem::sequence(std::vector<Step> steps, TweenOptions options) {
  return spawn_group(std::make_shared<const std::vector<Step>>(std::move(steps)), true,
                     std::move(options), {});
}

TweenHandle TweenSystem::parallel(std::vector<Step> steps, TweenOptions options) {
  return spawn_group(std::make_shared<const std::vector<Step>>(std::move(steps)), false,
                     std::move(options), {});
}

void TweenSystem::reserve(usize n, Ease ease) {
  KEEL_ASSERT(static_cast<usize>(ease) < kEaseCount, "bad ease {}", static_cast<int>(ease));
  if (static_cast<usize>(ease) >= kEaseCount) ease = Ease::kLinear;
  static_cast<detail::FloatPoolBase&>(*pools_[static_cast<usize>(ease)]).reserve(n);
  slots_.reserve(slots_.size() + n);
}

// --- Control. ---

TweenSystem::Group* TweenSystem::group_of(TweenHandle h) {
  const detail::TweenSlot* slot = slots_.find(h);
  if (slot == nullptr || slot->pool != kGroupPool) return nullptr;
  return &groups_[slot->row];
}

void TweenSystem::release(TweenHandle h) {
  detail::TweenSlot& slot = slots_.at(h.index);
  // Destroyed last, when the system is consistent again: the steps' captures may own objects
  // whose destructors use the system (kill_targets_in, new tweens).
  Group dead;
  if (slot.pool == kGroupPool) {
    dead = std::move(groups_[slot.row]);
    groups_[slot.row] = Group{};
    free_groups_.push_back(slot.row);
  } else {
    pools_[slot.pool]->remove(slot.row);
  }
  if (slot.id.value != 0) {
    auto [first, last] = ids_.equal_range(slot.id);
    for (auto it = first; it != last; ++it) {
      if (it->second == h) {
        ids_.erase(it);
        break;
      }
    }
  }
  slots_.erase(h);
}

void TweenSystem::kill_children(TweenHandle group) {
  Group* g = group_of(group);
  if (g == nullptr) return;
  std::vector<TweenHandle> children = std::move(g->children);
  g->children.clear();
  for (const TweenHandle c : children) {
    if (detail::TweenSlot* slot = slots_.find(c)) {
      slot->parent = {};  // it must not report back to the group
      kill(c);
    }
  }
}

bool TweenSystem::kill(TweenHandle h) {
  if (!slots_.alive(h)) return false;
  if (slots_.at(h.index).pool == kGroupPool) kill_children(h);
  const TweenHandle parent = slots_.at(h.index).parent;
  release(h);
  // The group goes on with its next step, as if this one had ended now.
  if (slots_.alive(parent)) events_.push_back({Event::Kind::kChildDone, parent, 0.0f});
  return true;
}

bool TweenSystem::set_paused(TweenHandle h, bool paused) {
  detail::TweenSlot* slot = slots_.find(h);
  if (slot == nullptr) return false;
  slot->paused = paused;
  if (slot->pool == kGroupPool) {
    Group& g = groups_[slot->row];
    for (const TweenHandle c : g.children) set_paused(c, paused);
  } else if (paused) {
    pools_[slot->pool]->pause(slot->row);
  } else {
    pools_[slot->pool]->resume(slot->row);
  }
  return true;
}

bool TweenSystem::pause(TweenHandle h) { return set_paused(h, true); }
bool TweenSystem::resume(TweenHandle h) { return set_paused(h, false); }

bool TweenSystem::is_paused(TweenHandle h) const {
  const detail::TweenSlot* slot = slots_.find(h);
  return slot != nullptr && slot->paused;
}

bool TweenSystem::reset(TweenHandle h) {
  const detail::TweenSlot* slot = slots_.find(h);
  if (slot == nullptr) return false;
  if (slot->pool != kGroupPool) {
    pools_[slot->pool]->rewind(slot->row);
    return true;
  }
  kill_children(h);
  Group* g = group_of(h);
  g->playback.plays_left = g->playback.loops;
  g->next = 0;
  g->running = 0;
  g->delaying = false;
  g->play_update = ~u64{0};
  events_.push_back({Event::Kind::kGroupStart, h, 0.0f});
  return true;
}

std::optional<f32> TweenSystem::elapsed(TweenHandle h) const {
  const detail::TweenSlot* slot = slots_.find(h);
  if (slot == nullptr || slot->pool == kGroupPool) return std::nullopt;
  return pools_[slot->pool]->elapsed(slot->row);
}

TweenHandle TweenSystem::find(StringId id) const {
  const auto it = ids_.find(id);
  return it == ids_.end() ? TweenHandle{} : it->second;
}

usize TweenSystem::kill_id(StringId id) {
  std::vector<TweenHandle> victims;
  auto [first, last] = ids_.equal_range(id);
  for (auto it = first; it != last; ++it) victims.push_back(it->second);
  usize killed = 0;
  for (const TweenHandle h : victims) killed += kill(h) ? 1 : 0;
  return killed;
}

TweenHandle TweenSystem::root_of(TweenHandle h) const {
  for (;;) {
    const detail::TweenSlot* slot = slots_.find(h);
    if (slot == nullptr || !slots_.alive(slot->parent)) return h;
    h = slot->parent;
  }
}

usize TweenSystem::kill_targets_in(const void* begin, usize bytes) {
  const void* end = static_cast<const char*>(begin) + bytes;
  std::vector<TweenHandle> victims;
  for (const auto& pool : pools_) {
    for (u32 row = 0; row < pool->size(); ++row) {
      if (pool->targets(row, begin, end)) {
        victims.push_back(root_of(slots_.handle_at(pool->slot_of(row))));
      }
    }
  }
  const std::less_equal<> le;
  const std::less<> lt;
  for (const Group& g : groups_) {
    if (g.self.is_null() || !g.steps) continue;
    bool hit = false;
    for (const Step& step : *g.steps) {
      for (const void* t : step.targets()) hit = hit || (le(begin, t) && lt(t, end));
    }
    if (hit) victims.push_back(root_of(g.self));
  }
  usize killed = 0;
  for (const TweenHandle h : victims) killed += kill(h) ? 1 : 0;
  return killed;
}

void TweenSystem::kill_all() {
  events_.clear();
  deferred_.clear();
  for (u32 i = 0; i < slots_.slot_count(); ++i) {
    if (slots_.live_at(i)) release(slots_.handle_at(i));
  }
}

// --- The frame. ---

void TweenSystem::update(f64 dt) {
  KEEL_ASSERT(!updating_, "TweenSystem::update() called from inside update()");
  KEEL_ASSERT(dt >= 0.0 && std::isfinite(dt), "bad dt {}", dt);
  if (updating_) return;
  if (!(dt >= 0.0 && std::isfinite(dt))) dt = 0.0;  // release builds: the frame takes no time
  updating_ = true;
  ++update_count_;
  if (!deferred_.empty()) {
    events_.insert(events_.end(), deferred_.begin(), deferred_.end());
    deferred_.clear();
  }
  // Groups started, and steps killed, since the last update: their new steps join this pass.
  process_events();
  // Room for every active row to end in this update, so that a frame in which many end at once
  // does not allocate (steady state: the capacity only grows with the number of tweens).
  usize active = 0;
  for (const auto& pool : pools_) active += pool->active();
  if (events_.capacity() < events_.size() + active) events_.reserve(2 * (events_.size() + active));
  const auto step = static_cast<f32>(dt);
  for (const auto& pool : pools_) {
    if (pool->active() == 0) continue;
    pool->update(step);
    for (const u32 row : pool->finished()) {
      events_.push_back({Event::Kind::kEnded, slots_.handle_at(pool->slot_of(row)), 0.0f});
    }
  }
  process_events();
  updating_ = false;
}

void TweenSystem::process_events() {
  // Handling an event may queue more (a group's next step ends at once): index, don't iterate.
  for (usize i = 0; i < events_.size(); ++i) {
    const Event ev = events_[i];
    switch (ev.kind) {
      case Event::Kind::kEnded: on_ended(ev.handle); break;
      case Event::Kind::kChildDone: on_child_done(ev.handle, ev.carry); break;
      case Event::Kind::kGroupStart: on_group_start(ev.handle, ev.carry); break;
      case Event::Kind::kGroupPlay: begin_play(ev.handle, ev.carry); break;
    }
  }
  events_.clear();
}

void TweenSystem::on_ended(TweenHandle h) {
  const detail::TweenSlot* slot = slots_.find(h);
  if (slot == nullptr || slot->pool == kGroupPool) return;
  detail::Pool& pool = *pools_[slot->pool];
  const u32 row = slot->row;
  if (!pool.due(row)) return;  // reset by a callback since the pass
  const detail::PlayEnd end = pool.end_play(row);
  if (end.finished) complete(h, end.overshoot);
}

void TweenSystem::complete(TweenHandle h, f32 overshoot) {
  detail::TweenSlot& slot = slots_.at(h.index);
  const std::function<void()> callback = std::move(slot.on_complete);
  const TweenHandle parent = slot.parent;
  release(h);
  if (callback) callback();
  if (slots_.alive(parent)) events_.push_back({Event::Kind::kChildDone, parent, overshoot});
}

void TweenSystem::on_group_start(TweenHandle group, f32 carry) {
  Group* g = group_of(group);
  if (g == nullptr) return;
  if (g->playback.delay > 0.0f) {
    g->delaying = true;
    const bool paused = slots_.at(group.index).paused;
    const TweenHandle wait = spawn_timer(g->playback.delay, {}, Spawn{group, carry, paused});
    g = group_of(group);
    g->children.clear();
    g->children.push_back(wait);
    return;
  }
  begin_play(group, carry);
}

void TweenSystem::begin_play(TweenHandle group, f32 carry) {
  Group* g = group_of(group);
  if (g == nullptr) return;
  if (g->play_update != update_count_) g->quick_plays = 0;
  g->play_update = update_count_;
  g->play_carry = carry;
  g->children.clear();
  if (g->sequence) {
    g->next = 0;
    start_next(group, carry);
    return;
  }
  const std::shared_ptr<const std::vector<Step>> steps = g->steps;
  g->running = static_cast<u32>(steps->size());
  g->carry_update = 0;  // no step has ended yet (instant steps do not count: others end later)
  for (const Step& step : *steps) {
    const bool paused = slots_.at(group.index).paused;
    const TweenHandle child = step.start(*this, Spawn{group, carry, paused});
    g = group_of(group);
    if (g == nullptr) return;  // a call step killed the group
    if (child.is_null()) {
      --g->running;  // done at once
    } else {
      g->children.push_back(child);
    }
  }
  if (g->running == 0) end_group_play(group, carry);
}

void TweenSystem::start_next(TweenHandle group, f32 carry) {
  for (;;) {
    Group* g = group_of(group);
    if (g == nullptr) return;
    const std::shared_ptr<const std::vector<Step>> steps = g->steps;
    if (g->next >= steps->size()) {
      end_group_play(group, carry);
      return;
    }
    const Step& step = (*steps)[g->next++];
    const bool paused = slots_.at(group.index).paused;
    const TweenHandle child = step.start(*this, Spawn{group, carry, paused});
    if (!child.is_null()) {
      g = group_of(group);
      if (g != nullptr) {
        g->children.clear();
        g->children.push_back(child);
      }
      return;
    }
    // A call: done at once, go on with the same carried time.
  }
}

void TweenSystem::on_child_done(TweenHandle group, f32 carry) {
  Group* g = group_of(group);
  if (g == nullptr) return;
  if (g->delaying) {
    g->delaying = false;
    begin_play(group, carry);
    return;
  }
  if (g->sequence) {
    start_next(group, carry);
    return;
  }
  // Parallel: the group's play ends with the last step to end; of the steps that ended in this
  // update, the one that ended last (smallest overshoot) sets the carried time.
  if (g->carry_update != update_count_ || carry < g->carry) g->carry = carry;
  g->carry_update = update_count_;
  if (g->running > 0) --g->running;
  if (g->running == 0) end_group_play(group, g->carry);
}

void TweenSystem::end_group_play(TweenHandle group, f32 carry) {
  Group* g = group_of(group);
  if (g == nullptr) return;
  detail::Playback& pb = g->playback;
  if (pb.plays_left > 0) --pb.plays_left;
  if (pb.plays_left == 0) {
    complete(group, carry);
    return;
  }
  if (pb.plays_left < 0 && g->play_update == update_count_ &&
      (!(carry < g->play_carry) || ++g->quick_plays > kMaxQuickPlays)) {
    deferred_.push_back({Event::Kind::kGroupPlay, group, 0.0f});  // took no time: next update
    return;
  }
  // As an event, not a call: many instant plays in a row must not nest on the stack.
  events_.push_back({Event::Kind::kGroupPlay, group, carry});
}

}  // namespace keel::tween
