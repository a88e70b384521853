// Name -> type factory for scripting (Golden Rules ch. 3, "Binding Names"): create an object
// from a type name given at run time, case-insensitively.
//
//   Factory<Object> factory;
//   factory.add<Bullet>("Bullet");       // register the most frequently created types first
//   factory.add<Alien>("Alien");         // (the first name is found after one tree-node visit)
//   factory.add<Player>("Player");
//   Result<std::unique_ptr<Object>> obj = factory.create("bullet");
//
// The book's three steps are kept: hash the name (filename_hash), look the type id up in a hash
// tree (NameRegistry), then dispatch on the id; the book's switch becomes an index into a table
// of creators (O(1), like the jump table). Type ids are 1, 2, ... in registration order; 0 is
// "undefined". A name from a script is data, so an unknown name is an error value (kNotFound),
// not an assert.
#pragma once

#include "keel/core/error.h"
#include "keel/core/types.h"
#include "keel/hashing/name_registry.h"

#include <concepts>
#include <functional>
#include <memory>
#include <string_view>
#include <vector>

namespace keel::hashing {

template <typename Base>
class Factory {
 public:
  using Creator = std::function<std::unique_ptr<Base>()>;

  // Registers a type under `name`; returns its id. An empty creator is kInvalidArgument.
  Result<u32> add(std::string_view name, Creator creator) {
    if (!creator) return fail(ErrorCode::kInvalidArgument, "type '{}' has no creator", name);
    const auto id = static_cast<u32>(creators_.size() + 1);
    if (Status s = names_.define(name, id); !s) return Unexpected(s.error());
    creators_.push_back(std::move(creator));
    return id;
  }
  template <std::derived_from<Base> Derived>
  Result<u32> add(std::string_view name) {
    return add(name, [] { return std::make_unique<Derived>(); });
  }
  // A further name for an already registered type.
  Status alias(std::string_view name, u32 id) {
    if (id == NameRegistry::kUndefined || id > creators_.size()) {
      return fail(ErrorCode::kNotFound, "no type with id {} for alias '{}'", id, name);
    }
    return names_.define(name, id);
  }

  u32 id_of(std::string_view name) const { return names_.find(name); }
  usize visits(std::string_view name) const { return names_.visits(name); }
  usize type_count() const { return creators_.size(); }

  Result<std::unique_ptr<Base>> create(std::string_view name) const {
    const u32 id = id_of(name);
    if (id == NameRegistry::kUndefined) {
      return fail(ErrorCode::kNotFound, "unknown type name '{}'", name);
    }
    return create(id);
  }
  // nullptr for an id that was never returned by add().
  std::unique_ptr<Base> create(u32 id) const {
    if (id == NameRegistry::kUndefined || id > creators_.size()) return nullptr;
    return creators_[id - 1]();
  }

 private:
  NameRegistry names_;
  std::vector<Creator> creators_;
};

}  // namespace keel::hashing
