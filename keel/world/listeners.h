// keel::world::ListenerId and ListenerList: the listener lists of the world's events (on_kill,
// on_done, on<Event>).
#pragma once

#include "keel/core/types.h"

#include <functional>
#include <utility>
#include <vector>

namespace keel::world {

// A listener registration (on_kill, on_done, on<Event>); pass it to World::unsubscribe.
struct ListenerId {
  u64 value = 0;  // 0: none
  constexpr explicit operator bool() const { return value != 0; }
  friend constexpr bool operator==(ListenerId, ListenerId) = default;
};

// Listeners of one kind, called in the order they subscribed. Safe against changes from inside
// a call: a listener added during a call is first called next time; an unsubscribed one is
// skipped and destroyed at compact() (it may be the one running).
template <typename... Args>
class ListenerList {
 public:
  using Fn = std::function<void(Args...)>;

  void add(ListenerId id, Fn fn) { entries_.emplace_back(id, std::move(fn)); }
  bool remove(ListenerId id) {
    for (auto& [lid, fn] : entries_) {
      if (lid == id && fn) {
        lid = ListenerId{};
        graveyard_.push_back(std::move(fn));
        fn = nullptr;
        return true;
      }
    }
    return false;
  }
  template <typename... CallArgs>
  void call(CallArgs&&... args) {
    const usize count = entries_.size();
    for (usize i = 0; i < count; ++i) {
      if (entries_[i].second) entries_[i].second(args...);
    }
  }
  void compact() {
    if (graveyard_.empty()) return;
    graveyard_.clear();
    std::erase_if(entries_, [](const auto& e) { return !e.second; });
  }
  bool empty() const { return entries_.empty(); }

 private:
  std::vector<std::pair<ListenerId, Fn>> entries_;
  std::vector<Fn> graveyard_;
};

}  // namespace keel::world
