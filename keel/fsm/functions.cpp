#include "keel/fsm/functions.h"

namespace keel::fsm {

namespace {
u32 slot_of(Hash h, usize mask) { return static_cast<u32>((h * 0x9E3779B1u) >> 7) & mask; }
}  // namespace

Status FunctionRegistry::declare(std::string_view name, FsmFunction function) {
  if (!function) return fail(ErrorCode::kInvalidArgument, "function '{}' is empty", name);
  const Hash h = string_hash(name);
  if (find(h) != nullptr) {
    return fail(
        ErrorCode::kAlreadyExists, "an FSM function '{}' is already registered{}", name,
        name_of(h) == name ? std::string() : fmt::format(" (as '{}', same hash)", name_of(h)));
  }
  if ((entries_.size() + 1) * 2 > slots_.size()) grow();
  entries_.push_back(Entry{h, std::string(name), std::move(function)});
  const usize mask = slots_.size() - 1;
  u32 s = slot_of(h, mask);
  while (slots_[s] != 0) s = (s + 1) & mask;
  slots_[s] = static_cast<u32>(entries_.size());
  return ok();
}

void FunctionRegistry::grow() {
  std::vector<u32> slots(slots_.empty() ? 16 : slots_.size() * 2, 0);
  const usize mask = slots.size() - 1;
  for (usize i = 0; i < entries_.size(); ++i) {
    u32 s = slot_of(entries_[i].hash, mask);
    while (slots[s] != 0) s = (s + 1) & mask;
    slots[s] = static_cast<u32>(i + 1);
  }
  slots_ = std::move(slots);
}

const FsmFunction* FunctionRegistry::find(Hash name) const {
  if (slots_.empty()) return nullptr;
  const usize mask = slots_.size() - 1;
  for (u32 s = slot_of(name, mask);; s = (s + 1) & mask) {
    const u32 index = slots_[s];
    if (index == 0) return nullptr;
    const Entry& e = entries_[index - 1];
    if (e.hash == name) return &e.function;
  }
}

std::string_view FunctionRegistry::name_of(Hash name) const {
  if (slots_.empty()) return {};
  const usize mask = slots_.size() - 1;
  for (u32 s = slot_of(name, mask);; s = (s + 1) & mask) {
    const u32 index = slots_[s];
    if (index == 0) return {};
    if (entries_[index - 1].hash == name) return entries_[index - 1].name;
  }
}

void FunctionRegistry::clear() {
  std::deque<Entry>().swap(entries_);
  std::vector<u32>().swap(slots_);
}

usize FunctionRegistry::memory_bytes() const {
  usize bytes = slots_.capacity() * sizeof(u32) + entries_.size() * sizeof(Entry);
  for (const Entry& e : entries_) bytes += e.name.capacity() > 15 ? e.name.capacity() : 0;
  return bytes;
}

}  // namespace keel::fsm
