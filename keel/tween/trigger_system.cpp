#include "keel/tween/trigger_system.h"

#include "keel/core/assert.h"

namespace keel::tween {

TriggerHandle TriggerSystem::when(Test test, Handler handler, TriggerOptions options) {
  KEEL_ASSERT(static_cast<bool>(test) && static_cast<bool>(handler),
              "a trigger needs a test and a handler");
  if (!test || !handler) return TriggerHandle{};  // release builds: no trigger
  Record r;
  r.test = std::move(test);
  r.handler = std::move(handler);
  r.options = options;
  // Edge mode starts from the current value: a condition already true must first turn false.
  if (options.mode == TriggerMode::kEdge) r.last = r.test();
  const TriggerHandle h = slots_.acquire();
  r.self = h;
  detail::TriggerPlace& place = slots_.at(h.index);
  if (updating_) {
    place = detail::TriggerPlace{static_cast<u32>(pending_.size()), true};
    pending_.push_back(std::move(r));
  } else {
    place = detail::TriggerPlace{static_cast<u32>(records_.size()), false};
    records_.push_back(std::move(r));
  }
  return h;
}

TriggerHandle TriggerSystem::on_signal(const Signal& signal, Handler handler,
                                       TriggerOptions options) {
  return when(
      [s = &signal, seen = signal.count()]() mutable {
        const u64 now = s->count();
        const bool raised = now != seen;
        seen = now;
        return raised;
      },
      std::move(handler), options);
}

TriggerSystem::Record* TriggerSystem::record_of(TriggerHandle h) {
  const detail::TriggerPlace* place = slots_.find(h);
  if (place == nullptr) return nullptr;
  return place->pending ? &pending_[place->index] : &records_[place->index];
}

const TriggerSystem::Record* TriggerSystem::record_of(TriggerHandle h) const {
  const detail::TriggerPlace* place = slots_.find(h);
  if (place == nullptr) return nullptr;
  return place->pending ? &pending_[place->index] : &records_[place->index];
}

bool TriggerSystem::kill(TriggerHandle h) {
  Record* r = record_of(h);
  if (r == nullptr) return false;
  // Marked, not erased: it may be the trigger whose handler is running right now.
  r->dead = true;
  slots_.erase(h);
  dirty_ = true;
  return true;
}

bool TriggerSystem::pause(TriggerHandle h) {
  Record* r = record_of(h);
  if (r == nullptr) return false;
  r->options.paused = true;
  return true;
}

bool TriggerSystem::resume(TriggerHandle h) {
  Record* r = record_of(h);
  if (r == nullptr) return false;
  r->options.paused = false;
  return true;
}

bool TriggerSystem::is_paused(TriggerHandle h) const {
  const Record* r = record_of(h);
  return r != nullptr && r->options.paused;
}

std::optional<u64> TriggerSystem::fire_count(TriggerHandle h) const {
  const Record* r = record_of(h);
  if (r == nullptr) return std::nullopt;
  return r->fires;
}

TriggerHandle TriggerSystem::find(StringId id) const {
  for (const auto* list : {&records_, &pending_}) {
    for (const Record& r : *list) {
      if (!r.dead && r.options.id == id) return r.self;
    }
  }
  return {};
}

usize TriggerSystem::kill_id(StringId id) {
  usize killed = 0;
  for (auto* list : {&records_, &pending_}) {
    for (usize i = 0; i < list->size(); ++i) {
      const Record& r = (*list)[i];
      if (!r.dead && r.options.id == id) killed += kill(r.self) ? 1 : 0;
    }
  }
  return killed;
}

void TriggerSystem::kill_all() {
  for (auto* list : {&records_, &pending_}) {
    for (usize i = 0; i < list->size(); ++i) {
      if (!(*list)[i].dead) kill((*list)[i].self);
    }
  }
  if (!updating_) compact();
}

void TriggerSystem::compact() {
  // Dead records are destroyed only after the lists are consistent again: their handlers'
  // captures may own objects whose destructors create or kill triggers.
  std::vector<Record> dead;
  if (dirty_) {
    usize out = 0;
    for (usize i = 0; i < records_.size(); ++i) {
      if (records_[i].dead) {
        dead.push_back(std::move(records_[i]));
        continue;
      }
      if (out != i) records_[out] = std::move(records_[i]);
      slots_.at(records_[out].self.index).index = static_cast<u32>(out);
      ++out;
    }
    records_.resize(out);
    dirty_ = false;
  }
  for (Record& r : pending_) {
    if (r.dead) {
      dead.push_back(std::move(r));
      continue;
    }
    slots_.at(r.self.index) = detail::TriggerPlace{static_cast<u32>(records_.size()), false};
    records_.push_back(std::move(r));
  }
  pending_.clear();
}

void TriggerSystem::update() {
  KEEL_ASSERT(!updating_, "TriggerSystem::update() called from inside update()");
  if (updating_) return;
  compact();
  updating_ = true;
  // records_ does not change shape during the loop: new triggers wait in pending_ and killed
  // ones are only marked, so a handler runs from storage that stays put.
  const usize n = records_.size();
  for (usize i = 0; i < n; ++i) {
    Record& r = records_[i];
    if (r.dead || r.options.paused) continue;
    const bool now = r.test();
    if (r.dead) continue;  // the test killed it
    const bool fire = now && (r.options.mode == TriggerMode::kLevel || !r.last);
    r.last = now;
    if (!fire) continue;
    ++r.fires;
    if (r.options.once) kill(r.self);
    r.handler();
  }
  updating_ = false;
  compact();
}

}  // namespace keel::tween
