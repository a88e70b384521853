#include "keel/core/debug_memory.h"

#include "keel/core/assert.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <mutex>
#include <unordered_map>

namespace keel::memory {
namespace {

struct Tracker {
  std::mutex mutex;
  std::unordered_map<const void*, std::pair<Allocation, u64>> live;  // + sequence number
  u64 sequence = 0;
  usize bytes = 0;
};

// Never destroyed: allocations freed during static destruction still find it.
Tracker& tracker() {
  static Tracker* const t = new Tracker;
  return *t;
}

std::atomic<bool> g_report_at_exit{true};

void report_at_exit() {
  if (!g_report_at_exit.load()) return;
  const std::string report = outstanding_report();
  if (!report.empty()) std::fputs(report.c_str(), stderr);
}

void arrange_report() {
  static const bool arranged = [] { return std::atexit(report_at_exit) == 0; }();
  (void)arranged;
}

}  // namespace

void* allocate(usize size, const char* file, int line) {
  arrange_report();
  void* p = std::malloc(size == 0 ? 1 : size);
  if (p == nullptr) throw std::bad_alloc();
  Tracker& t = tracker();
  const std::lock_guard lock(t.mutex);
  t.live.emplace(p, std::pair{Allocation{p, size, file, line}, t.sequence++});
  t.bytes += size;
  return p;
}

void deallocate(void* p) {
  if (p == nullptr) return;
  Tracker& t = tracker();
  {
    const std::lock_guard lock(t.mutex);
    const auto it = t.live.find(p);
    KEEL_ASSERT(it != t.live.end(),
                "memory::deallocate: {} was not allocated by the tracking allocator (freed twice, "
                "or made with plain new)",
                p);
    if (it == t.live.end()) return;  // release: leak rather than free a foreign block
    t.bytes -= it->second.first.size;
    t.live.erase(it);
  }
  std::free(p);
}

usize outstanding_count() {
  Tracker& t = tracker();
  const std::lock_guard lock(t.mutex);
  return t.live.size();
}

usize outstanding_bytes() {
  Tracker& t = tracker();
  const std::lock_guard lock(t.mutex);
  return t.bytes;
}

std::vector<Allocation> outstanding() {
  std::vector<std::pair<Allocation, u64>> entries;
  {
    Tracker& t = tracker();
    const std::lock_guard lock(t.mutex);
    for (const auto& [address, entry] : t.live) entries.push_back(entry);
  }
  std::sort(entries.begin(), entries.end(),
            [](const auto& a, const auto& b) { return a.second < b.second; });
  std::vector<Allocation> out;
  out.reserve(entries.size());
  for (const auto& e : entries) out.push_back(e.first);
  return out;
}

std::string outstanding_report() {
  const std::vector<Allocation> list = outstanding();
  if (list.empty()) return {};
  usize bytes = 0;
  for (const Allocation& a : list) bytes += a.size;
  std::string out = fmt::format("{} outstanding allocation{} ({} bytes):\n", list.size(),
                                list.size() == 1 ? "" : "s", bytes);
  for (const Allocation& a : list)
    out += fmt::format("  {}:{}  {} bytes\n", a.file, a.line, a.size);
  return out;
}

void set_report_at_exit(bool enabled) { g_report_at_exit.store(enabled); }

}  // namespace keel::memory

void* operator new(std::size_t size, keel::memory::Site site) {
  return keel::memory::allocate(size, site.file, site.line);
}
void* operator new[](std::size_t size, keel::memory::Site site) {
  return keel::memory::allocate(size, site.file, site.line);
}
void operator delete(void* p, keel::memory::Site) noexcept { keel::memory::deallocate(p); }
void operator delete[](void* p, keel::memory::Site) noexcept { keel::memory::deallocate(p); }
