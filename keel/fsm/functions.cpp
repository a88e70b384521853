#include "keel/fsm/functions.h"

namespace keel::fsm {

Status FunctionRegistry::declare(std::string_view name, FsmFunction function) {
  if (name.empty()) return fail(ErrorCode::kInvalidArgument, "an FSM function needs a name");
  if (!function) return fail(ErrorCode::kInvalidArgument, "function '{}' is empty", name);
  const Hash h = string_hash(name);
  if (const Entry* taken = slots_.get(h)) {
    return fail(
        ErrorCode::kAlreadyExists, "an FSM function '{}' is already registered{}", name,
        taken->name == name ? std::string() : fmt::format(" (as '{}', same hash)", taken->name));
  }
  entries_.push_back(Entry{h, std::string(name), std::move(function)});
  slots_.insert(h, &entries_.back());
  if (entries_.size() <= 256) slots_.optimize();  // one-slot lookups for Execute
  return ok();
}

std::string_view FunctionRegistry::name_of(Hash name) const {
  const Entry* e = slots_.get(name);
  return e != nullptr ? std::string_view(e->name) : std::string_view();
}

void FunctionRegistry::clear() {
  std::deque<Entry>().swap(entries_);
  slots_.reset();
}

usize FunctionRegistry::memory_bytes() const {
  usize bytes = slots_.memory_bytes() + entries_.size() * sizeof(Entry);
  for (const Entry& e : entries_) bytes += e.name.capacity() > 15 ? e.name.capacity() : 0;
  return bytes;
}

}  // namespace keel::fsm
