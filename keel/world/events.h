// Game events between components (the Citizen blog's gun that fires `shoot` and the audio
// component that plays a sound on it): any copyable struct is an event type.
//
//   struct Shoot { Entity shooter; };
//   world.on<Shoot>([](World& w, const Shoot& s) { ... });   // subscribe
//   world.emit(Shoot{gun_entity});                           // queued
//   world.flush();                                           // delivered here
//
// Events are queued and delivered at World::flush() in the order they were emitted (one queue
// for every type); each event goes to its type's listeners in the order they subscribed. Events
// emitted while delivering are delivered in the same flush, after the ones already queued. The
// queues keep their memory, so a steady frame allocates nothing. See world.h for the whole
// order of a flush.
#pragma once

#include "keel/core/types.h"
#include "keel/world/component_store.h"

#include <functional>
#include <type_traits>
#include <utility>
#include <vector>

namespace keel::world {

template <typename E>
u32 event_type_index() {
  static_assert(std::is_same_v<E, std::remove_cvref_t<E>>, "event types are plain types");
  static const u32 index = detail::next_event_type_index();
  return index;
}

namespace detail {

class ChannelBase {
 public:
  virtual ~ChannelBase() = default;
  virtual void deliver(World& world, u32 index) = 0;
  virtual void clear() = 0;
  virtual bool unsubscribe(ListenerId id) = 0;
};

template <typename E>
class Channel final : public ChannelBase {
 public:
  u32 push(E event) {
    queued_.push_back(std::move(event));
    return static_cast<u32>(queued_.size() - 1);
  }
  void subscribe(ListenerId id, std::function<void(World&, const E&)> fn) {
    listeners_.add(id, std::move(fn));
  }
  bool unsubscribe(ListenerId id) override { return listeners_.remove(id); }
  void deliver(World& world, u32 index) override {
    const E event = queued_[index];  // a listener may emit more of the same type
    listeners_.call(world, event);
  }
  void clear() override {
    queued_.clear();
    listeners_.compact();
  }

 private:
  std::vector<E> queued_;
  ListenerList<World&, const E&> listeners_;
};

}  // namespace detail
}  // namespace keel::world
