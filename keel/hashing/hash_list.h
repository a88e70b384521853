// Hash list: a sorted array of (hash, pointer) pairs (Golden Rules ch. 3, "The Hash List").
//
//   HashList<Sprite> list;                 // Collisions::kReject: one item per hash
//   list.add(filename_hash("ship.tga"), &ship);
//   Sprite* s = list.find(filename_hash("ship.tga"));   // binary search, nullptr when missing
//
// The list stores pointers; it never owns or copies the data (null pointers cannot be stored:
// null means "missing"). Find is O(log n); add and remove are O(n) because entries shift. A
// `const HashList&` is the book's StaticHashList (search only).
//
// Collision handling (chosen per list):
//   kReject      one item per hash; adding a taken hash fails with kAlreadyExists.
//   kSideBySide  items with equal hashes sit next to each other; find(hash, match) scans the run.
//   kIncremental the book's "incremental hash": a taken hash is probed at hash+1, hash+2, ...;
//                removal leaves tombstones (null data) where a run must stay unbroken. A probe
//                never wraps past 0xFFFFFFFF: such an add fails with kOverflow.
//   kChained     items with equal hashes are chained off one array entry (a pool of links).
// In every collision mode adding the same (hash, pointer) twice fails with kAlreadyExists.
//
// Deferred sort: defer_sort() makes add() an O(1) append; sort() then sorts once in
// O(n log n) (introsort by (hash, order added): no quicksort worst case on sorted input, and
// equal hashes keep the order they were added in). Until sort() is called, find and remove are
// programmer errors (asserted).
#pragma once

#include "keel/core/error.h"
#include "keel/core/hash.h"
#include "keel/core/types.h"

#include <concepts>
#include <type_traits>
#include <vector>

namespace keel::hashing {

enum class Collisions : u8 { kReject, kSideBySide, kIncremental, kChained };

namespace detail {

// Returns true when `data` is the item wanted; `context` is the caller's predicate.
using MatchFn = bool (*)(const void* data, const void* context);
// Called once per live item, in hash order (chained items right after their head).
using VisitFn = void (*)(Hash hash, void* data, void* context);

// The untyped list behind HashList<T> (the book's HashList with void* data).
class HashListCore {
 public:
  explicit HashListCore(Collisions mode) : mode_(mode) {}

  Collisions mode() const { return mode_; }
  usize size() const { return slots_.size(); }  // array entries, tombstones included
  usize count() const { return live_; }         // stored items, chained ones included
  bool empty() const { return live_ == 0; }
  bool deferred() const { return deferred_; }

  void* find(Hash hash) const;
  // `probes`, when given, receives the number of entries examined after the binary search.
  void* find_if(Hash hash, MatchFn match, const void* context, usize* probes = nullptr) const;
  void* at_index(usize index) const { return index < slots_.size() ? slots_[index].data : nullptr; }
  Hash hash_at(usize index) const;
  void for_each(VisitFn visit, void* context) const;

  Status add(Hash hash, void* data);
  Status remove(Hash hash);
  Status remove(Hash hash, const void* data);
  void clear();
  void reserve(usize items) { slots_.reserve(items); }

  void defer_sort() { deferred_ = true; }
  Status sort();

 private:
  static constexpr u32 kNoLink = 0xFFFFFFFFu;
  struct Slot {
    Hash hash;  // position hash (the probed hash in kIncremental mode)
    u32 link;   // kIncremental: the item's own hash; kChained: first chain link or kNoLink
    void* data;
  };
  struct ChainLink {
    void* data;
    u32 next;
  };

  usize lower_bound(Hash hash) const;
  u32 new_link(void* data, u32 next);
  void free_link(u32 index);
  Status add_incremental(Hash hash, void* data);
  Status remove_incremental(Hash hash, const void* data);
  Status remove_chained(usize index, const void* data);
  void flatten_chains();

  Collisions mode_;
  bool deferred_ = false;
  usize live_ = 0;
  std::vector<Slot> slots_;
  std::vector<ChainLink> links_;
  u32 free_link_ = kNoLink;
};

}  // namespace detail

template <typename T>
class HashList {
 public:
  explicit HashList(Collisions mode = Collisions::kReject) : core_(mode) {}

  Collisions mode() const { return core_.mode(); }
  usize size() const { return core_.size(); }
  usize count() const { return core_.count(); }
  bool empty() const { return core_.empty(); }

  // The item stored under `hash` (in collision modes: the first one added), or nullptr.
  T* find(Hash hash) const { return cast(core_.find(hash)); }
  // The item stored under `hash` for which match(item) is true, or nullptr.
  template <std::predicate<const T&> Match>
  T* find(Hash hash, const Match& match) const {
    return cast(core_.find_if(hash, &call_match<Match>, &match));
  }
  // The book's FindByIndex: the entry at `index` in hash order; nullptr past the end and for
  // tombstones. (Chained items hang off their head entry; use for_each to see them.)
  T* at_index(usize index) const { return cast(core_.at_index(index)); }
  Hash hash_at(usize index) const { return core_.hash_at(index); }
  // find(hash, match) that also reports how many entries it examined after the binary search.
  template <std::predicate<const T&> Match>
  T* find(Hash hash, const Match& match, usize& probes) const {
    return cast(core_.find_if(hash, &call_match<Match>, &match, &probes));
  }
  // visit(hash, T*) for every item, in hash order.
  template <typename Visit>
  void for_each(Visit&& visit) const {
    core_.for_each(&call_visit<std::remove_reference_t<Visit>>, &visit);
  }

  Status add(Hash hash, T* data) { return core_.add(hash, erase(data)); }
  Status remove(Hash hash) { return core_.remove(hash); }  // the item find(hash) returns
  Status remove(Hash hash, const T* data) { return core_.remove(hash, data); }
  void clear() { core_.clear(); }
  void reserve(usize items) { core_.reserve(items); }

  void defer_sort() { core_.defer_sort(); }
  bool deferred() const { return core_.deferred(); }
  // Sorts after deferred adds. Items that break the list's rules (a taken hash in kReject mode,
  // a repeated (hash, pointer), an incremental probe past 0xFFFFFFFF) are dropped and reported.
  Status sort() { return core_.sort(); }

 private:
  static T* cast(void* p) { return static_cast<T*>(p); }
  static void* erase(T* p) { return const_cast<std::remove_const_t<T>*>(p); }
  template <typename Match>
  static bool call_match(const void* data, const void* context) {
    return (*static_cast<const Match*>(context))(*static_cast<const T*>(data));
  }
  template <typename Visit>
  static void call_visit(Hash hash, void* data, void* context) {
    (*static_cast<Visit*>(context))(hash, static_cast<T*>(data));
  }

  detail::HashListCore core_;
};

}  // namespace keel::hashing
