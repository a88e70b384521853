#include "keel/hashing/name_registry.h"

#include "keel/core/assert.h"

namespace keel::hashing {

namespace {
char fold(char c) {
  if (c >= 'A' && c <= 'Z') return static_cast<char>(c ^ 32);
  return c == '/' ? '\\' : c;
}
}  // namespace

bool same_filename(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (usize i = 0; i < a.size(); ++i) {
    if (fold(a[i]) != fold(b[i])) return false;
  }
  return true;
}

Status NameRegistry::define(std::string_view name, u32 id) {
  KEEL_ASSERT(id != kUndefined, "name '{}': id 0 means undefined", name);
  if (id == kUndefined) {
    return fail(ErrorCode::kInvalidArgument, "name '{}': id 0 means undefined", name);
  }
  const Hash hash = filename_hash(name);
  if (const Entry* existing = tree_.find(hash)) {
    if (same_filename(existing->name, name)) {
      return fail(ErrorCode::kAlreadyExists, "name '{}' is already defined", name);
    }
    return fail(ErrorCode::kAlreadyExists,
                "name '{}' collides with '{}' (both hash to 0x{:08X}); rename one", name,
                existing->name, hash);
  }
  entries_.push_back(Entry{std::string(name), id});
  if (Status s = tree_.add(hash, &entries_.back()); !s) {
    entries_.pop_back();
    return s;
  }
  return ok();
}

u32 NameRegistry::find(std::string_view name) const {
  const Entry* entry = tree_.find(filename_hash(name));
  return entry != nullptr && same_filename(entry->name, name) ? entry->id : kUndefined;
}

void NameRegistry::clear() {
  tree_.clear();
  entries_.clear();
}

}  // namespace keel::hashing
