// Name -> id binding through a hash tree (Golden Rules ch. 3, "Binding Names"): the name is
// hashed with filename_hash (case-insensitive, '/' = '\'), the hash tree maps the hash to a small
// sequential id, and the caller switches (or indexes a table) on the id: O(depth) instead of a
// cascade of string compares.
//
//   NameRegistry ids;
//   ids.define("Bullet", kBullet);   // define the most frequently looked-up names FIRST:
//   ids.define("Alien", kAlien);     // the first name is the tree's root and is found after one
//   ids.define("Player", kPlayer);   // node visit, later names sit deeper
//   u32 id = ids.find("BULLET");     // kBullet; NameRegistry::kUndefined (0) when unknown
//
// Names are kept (one copy each) so that define() can reject a name whose hash collides with a
// different name, and find() can confirm the match: an unknown name that happens to share a hash
// with a defined one is reported as unknown instead of binding to the wrong id.
#pragma once

#include "keel/core/error.h"
#include "keel/core/hash.h"
#include "keel/core/types.h"
#include "keel/hashing/hash_tree.h"

#include <deque>
#include <string>
#include <string_view>

namespace keel::hashing {

// True when two names are equal under filename_hash's folding (ASCII case, '/' = '\').
bool same_filename(std::string_view a, std::string_view b);

class NameRegistry {
 public:
  static constexpr u32 kUndefined = 0;

  NameRegistry() = default;
  NameRegistry(NameRegistry&&) noexcept = default;
  NameRegistry& operator=(NameRegistry&&) noexcept = default;
  NameRegistry(const NameRegistry&) = delete;
  NameRegistry& operator=(const NameRegistry&) = delete;

  // Binds `name` to `id` (not kUndefined). Fails with kAlreadyExists when the name, or a
  // different name with the same hash, is already defined.
  Status define(std::string_view name, u32 id);
  u32 find(std::string_view name) const;
  // Tree nodes a lookup of `name` visits (1 for the first name defined).
  usize visits(std::string_view name) const { return tree_.visits(filename_hash(name)); }
  usize size() const { return entries_.size(); }
  void clear();

 private:
  struct Entry {
    std::string name;
    u32 id;
  };
  HashTree<const Entry> tree_;
  std::deque<Entry> entries_;  // stable addresses for the tree's pointers
};

}  // namespace keel::hashing
