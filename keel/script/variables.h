// Variable storage: the variables of one script instance (a few inline, the rest in a vector)
// and the game-wide ones (sorted by name hash). Lookups are inline: the VM and every command
// handler do them constantly.
#pragma once

#include "keel/core/hash.h"
#include "keel/core/types.h"

#include <algorithm>
#include <vector>

namespace keel::script {

struct Variable {
  Hash name = 0;
  s32 value = 0;
};

class VariableSet {
 public:
  static constexpr u32 kInline = 6;

  s32* find(Hash name) {
    for (u32 i = 0; i < count_; ++i) {
      if (inline_[i].name == name) return &inline_[i].value;
    }
    if (!more_.empty()) [[unlikely]]
      return find_more(name);
    return nullptr;
  }
  const s32* find(Hash name) const { return const_cast<VariableSet*>(this)->find(name); }
  // Among the variables stored inline only (a miss may still be one of the others): lets a
  // handler's common path stay free of calls.
  s32* find_inline(Hash name) {
    for (u32 i = 0; i < count_; ++i) {
      if (inline_[i].name == name) return &inline_[i].value;
    }
    return nullptr;
  }

  // Adds a variable the caller knows is absent. References returned by find() and insert() stay
  // valid until the next insert().
  s32& insert(Hash name, s32 value) {
    if (count_ < kInline) {
      inline_[count_] = Variable{name, value};
      return inline_[count_++].value;
    }
    more_.push_back(Variable{name, value});
    return more_.back().value;
  }
  s32& get_or_insert(Hash name) {
    if (s32* v = find(name)) return *v;
    return insert(name, 0);
  }

  void clear() {
    count_ = 0;
    more_.clear();  // keeps its capacity: a reused slot does not allocate again
  }
  usize size() const { return count_ + more_.size(); }
  template <typename F>
  void for_each(F&& f) const {
    for (u32 i = 0; i < count_; ++i) f(inline_[i]);
    for (const Variable& v : more_) f(v);
  }

 private:
  [[gnu::noinline]] s32* find_more(Hash name) {
    for (Variable& v : more_) {
      if (v.name == name) return &v.value;
    }
    return nullptr;
  }

  Variable inline_[kInline];
  u32 count_ = 0;
  std::vector<Variable> more_;
};

class GlobalVariables {
 public:
  s32* find(Hash name) {
    if (items_.empty()) return nullptr;
    auto it = std::lower_bound(items_.begin(), items_.end(), name,
                               [](const Variable& v, Hash h) { return v.name < h; });
    return it != items_.end() && it->name == name ? &it->value : nullptr;
  }
  const s32* find(Hash name) const { return const_cast<GlobalVariables*>(this)->find(name); }
  void set(Hash name, s32 value) {
    auto it = std::lower_bound(items_.begin(), items_.end(), name,
                               [](const Variable& v, Hash h) { return v.name < h; });
    if (it != items_.end() && it->name == name) {
      it->value = value;
    } else {
      items_.insert(it, Variable{name, value});
    }
  }
  const std::vector<Variable>& all() const { return items_; }

 private:
  std::vector<Variable> items_;  // sorted by name
};

// The lookup rule every reader uses: the instance's own variable, else the game-wide one, else 0.
// The instance's own variables are searched inline; the rest is out of line, so a command
// handler's common path stays small.
[[gnu::noinline]] inline s32 read_global(const GlobalVariables& globals, Hash name) {
  const s32* g = globals.find(name);
  return g != nullptr ? *g : 0;
}
inline s32 read_variable(const VariableSet& own, const GlobalVariables& globals, Hash name) {
  if (const s32* v = own.find(name)) [[likely]]
    return *v;
  return read_global(globals, name);
}
// ... and every writer: the instance's own, else an existing game-wide one, else a new own one.
[[gnu::noinline]] inline s32& variable_ref_slow(VariableSet& own, GlobalVariables& globals,
                                                Hash name) {
  if (s32* g = globals.find(name)) return *g;
  return own.insert(name, 0);
}
inline s32& variable_ref(VariableSet& own, GlobalVariables& globals, Hash name) {
  if (s32* v = own.find(name)) [[likely]]
    return *v;
  return variable_ref_slow(own, globals, name);
}

}  // namespace keel::script
