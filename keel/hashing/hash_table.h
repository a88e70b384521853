// Hash table: an array of hash-list buckets; an item with hash h lives in bucket h % buckets
// (Golden Rules ch. 3, "The Hash Table").
//
//   HashTable<Sprite> table(20);          // 20 buckets suit about 400 items
//   table.add(hash, &sprite);
//   Sprite* s = table.find(hash);
//
// Same operations, collision modes and pointer-only storage as HashList; the complexity is the
// hash list's divided by a constant (the bucket count) when items spread evenly. Choose the
// bucket count from the expected item count: a handful of items per bucket.
#pragma once

#include "keel/core/assert.h"
#include "keel/hashing/hash_list.h"

#include <vector>

namespace keel::hashing {

template <typename T>
class HashTable {
 public:
  explicit HashTable(usize buckets, Collisions mode = Collisions::kReject) {
    KEEL_ASSERT(buckets > 0, "a hash table needs at least one bucket");
    buckets = buckets > 0 ? buckets : 1;  // release builds: one bucket rather than a division by 0
    buckets_.reserve(buckets);
    for (usize i = 0; i < buckets; ++i) buckets_.emplace_back(mode);
  }

  usize bucket_count() const { return buckets_.size(); }
  usize bucket_of(Hash hash) const { return hash % buckets_.size(); }
  // An index past the buckets is a programmer error (asserted; release builds wrap it).
  const HashList<T>& bucket(usize index) const {
    KEEL_ASSERT(index < buckets_.size(), "bucket {} of {}", index, buckets_.size());
    return buckets_[index % buckets_.size()];
  }
  usize count() const {
    usize n = 0;
    for (const auto& b : buckets_) n += b.count();
    return n;
  }

  T* find(Hash hash) const { return buckets_[bucket_of(hash)].find(hash); }
  template <std::predicate<const T&> Match>
  T* find(Hash hash, const Match& match) const {
    return buckets_[bucket_of(hash)].find(hash, match);
  }
  template <typename Visit>
  void for_each(Visit&& visit) const {
    for (const auto& b : buckets_) b.for_each(visit);
  }

  Status add(Hash hash, T* data) { return buckets_[bucket_of(hash)].add(hash, data); }
  Status remove(Hash hash) { return buckets_[bucket_of(hash)].remove(hash); }
  Status remove(Hash hash, const T* data) { return buckets_[bucket_of(hash)].remove(hash, data); }
  void clear() {
    for (auto& b : buckets_) b.clear();
  }

 private:
  std::vector<HashList<T>> buckets_;
};

}  // namespace keel::hashing
