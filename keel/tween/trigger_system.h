// TriggerSystem: watches values and calls handlers when a test passes ("don't call us, we'll
// call you"), checked once per frame by update() (or a TriggerTask).
//
// clang-format off
//   keel::tween::TriggerSystem triggers;
//   triggers.less(health, 50, [&] { warn(); });                       // once (the seed's default)
//   triggers.greater(score, 1000, bonus,
//                    {.once = false, .mode = TriggerMode::kEdge});   // each time it is crossed
//   triggers.watch(pos, [](const Vec2& p) { return p.y < 0; }, fell); // custom predicate
//   triggers.when([&] { return door.open && key.held; }, enter);      // any test
//   triggers.on_signal(input.pressed(Key::kSpace), jump,
//                      {.once = false});                              // event-fed
//   triggers.update();
// clang-format on
//
// Modes (TriggerOptions):
// - once (default true, as in the seed): the trigger ends right after it fires; its handle is
//   dead from then on.
// - kLevel (default, the seed): fires on every update the test holds. With once = false a
//   condition that stays true fires every frame.
// - kEdge: fires on updates where the test holds and did not hold on the previous update (the
//   test's value when the trigger is created is the starting point, so a condition already
//   true then does not fire until it has been false once).
//
// Subjects are watched by reference: whoever owns the watched variable must kill the trigger
// (keep the handle, or kill_id) before the variable goes away. The comparison triggers copy
// the object they compare against. Handlers run inside update() and may create, kill, pause or
// resume any trigger (themselves included); triggers created during an update are first tested
// on the next one. Not thread-safe: one system per thread.
#pragma once

#include "keel/core/hash.h"
#include "keel/core/types.h"
#include "keel/tween/handle.h"
#include "keel/tween/signal.h"

#include <concepts>
#include <functional>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

namespace keel::tween {

enum class TriggerMode : u8 {
  kLevel,  // every update the test holds
  kEdge,   // when the test becomes true
};

struct TriggerOptions {
  bool once = true;
  TriggerMode mode = TriggerMode::kLevel;
  StringId id{};  // for find / kill_id; zero means none
  bool paused = false;
};

namespace detail {
// Where a live trigger's record is (outside TriggerSystem so that SlotMap sees a complete type).
struct TriggerPlace {
  u32 index = 0;         // in records_ or pending_
  bool pending = false;  // created during an update, not merged yet
};
}  // namespace detail

class TriggerSystem {
 public:
  using Test = std::function<bool()>;
  using Handler = std::function<void()>;

  TriggerSystem() = default;
  TriggerSystem(const TriggerSystem&) = delete;
  TriggerSystem& operator=(const TriggerSystem&) = delete;

  // Any test.
  TriggerHandle when(Test test, Handler handler, TriggerOptions options = {});

  // subject-predicate-object: the subject by reference, the object by value.
  template <typename T>
  TriggerHandle equals(const T& subject, std::type_identity_t<T> object, Handler handler,
                       TriggerOptions options = {}) {
    return when([s = &subject, o = std::move(object)] { return *s == o; }, std::move(handler),
                options);
  }
  template <typename T>
  TriggerHandle not_equals(const T& subject, std::type_identity_t<T> object, Handler handler,
                           TriggerOptions options = {}) {
    return when([s = &subject, o = std::move(object)] { return !(*s == o); }, std::move(handler),
                options);
  }
  template <typename T>
  TriggerHandle less(const T& subject, std::type_identity_t<T> object, Handler handler,
                     TriggerOptions options = {}) {
    return when([s = &subject, o = std::move(object)] { return *s < o; }, std::move(handler),
                options);
  }
  template <typename T>
  TriggerHandle greater(const T& subject, std::type_identity_t<T> object, Handler handler,
                        TriggerOptions options = {}) {
    return when([s = &subject, o = std::move(object)] { return o < *s; }, std::move(handler),
                options);
  }
  // A custom predicate on a watched subject: fires when predicate(subject) holds.
  template <typename T, typename Predicate>
  requires std::predicate<Predicate&, const T&> TriggerHandle watch(const T& subject,
                                                                    Predicate predicate,
                                                                    Handler handler,
                                                                    TriggerOptions options = {}) {
    return when([s = &subject, p = std::move(predicate)]() mutable { return p(*s) ? true : false; },
                std::move(handler), options);
  }
  // Fires on updates where `signal` was raised since the previous update (once per update, however
  // many raises). The signal must outlive the trigger.
  TriggerHandle on_signal(const Signal& signal, Handler handler, TriggerOptions options = {});

  // --- Handles (all false / none for dead handles).
  bool alive(TriggerHandle h) const { return slots_.alive(h); }
  bool kill(TriggerHandle h);
  // A paused trigger is not tested (edge mode: the last value seen before pausing is kept).
  bool pause(TriggerHandle h);
  bool resume(TriggerHandle h);
  bool is_paused(TriggerHandle h) const;
  // How many times it has fired.
  std::optional<u64> fire_count(TriggerHandle h) const;

  TriggerHandle find(StringId id) const;
  usize kill_id(StringId id);
  void kill_all();
  usize size() const { return slots_.size(); }

  // Tests every live, unpaused trigger in creation order and calls the handlers of those that
  // fire. Not re-entrant: a handler must not call update().
  void update();
  bool updating() const { return updating_; }

 private:
  struct Record {
    TriggerHandle self{};
    Test test;
    Handler handler;
    TriggerOptions options;
    bool last = false;  // the test's value on the previous update
    bool dead = false;
    u64 fires = 0;
  };
  Record* record_of(TriggerHandle h);
  const Record* record_of(TriggerHandle h) const;
  void compact();

  SlotMap<detail::TriggerPlace, TriggerTag> slots_;
  std::vector<Record> records_;  // creation order; dead ones removed between updates
  std::vector<Record> pending_;  // created during an update
  bool updating_ = false;
  bool dirty_ = false;  // records_ holds dead records
};

}  // namespace keel::tween
