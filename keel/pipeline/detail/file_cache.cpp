#include "keel/pipeline/detail/file_cache.h"

#include <algorithm>
#include <bit>

namespace keel::pipeline {

const FileRecord* FileCache::find(u64 key) const {
  if (slots_.empty()) return nullptr;
  const u64 k = stored(key);
  const usize mask = slots_.size() - 1;
  for (usize i = static_cast<usize>(k) & mask;; i = (i + 1) & mask) {
    const Slot& s = slots_[i];
    if (s.key == k) return &s.record;
    if (s.key == 0) return nullptr;
  }
}

void FileCache::put(u64 key, const FileRecord& record) {
  if ((size_ + 1) * 2 > slots_.size()) grow(std::max<usize>(16, slots_.size() * 2));
  const u64 k = stored(key);
  const usize mask = slots_.size() - 1;
  for (usize i = static_cast<usize>(k) & mask;; i = (i + 1) & mask) {
    Slot& s = slots_[i];
    if (s.key == k) {
      s.record = record;
      return;
    }
    if (s.key == 0) {
      s.key = k;
      s.record = record;
      ++size_;
      return;
    }
  }
}

void FileCache::reserve(usize count) {
  const usize want = std::bit_ceil(std::max<usize>(16, count * 2));
  if (want > slots_.size()) grow(want);
}

void FileCache::grow(usize slots) {
  std::vector<Slot> old = std::move(slots_);
  slots_.assign(slots, Slot{});
  size_ = 0;
  const usize mask = slots_.size() - 1;
  for (const Slot& s : old) {
    if (s.key == 0) continue;
    usize i = static_cast<usize>(s.key) & mask;
    while (slots_[i].key != 0) i = (i + 1) & mask;
    slots_[i] = s;
    ++size_;
  }
}

std::vector<std::pair<u64, FileRecord>> FileCache::sorted() const {
  std::vector<std::pair<u64, FileRecord>> out;
  out.reserve(size_);
  for (const Slot& s : slots_) {
    if (s.key != 0) out.emplace_back(s.key == kZeroKey ? 0 : s.key, s.record);
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  return out;
}

bool operator==(const FileCache& a, const FileCache& b) {
  if (a.size_ != b.size_) return false;
  for (const FileCache::Slot& s : a.slots_) {
    if (s.key == 0) continue;
    const FileRecord* other = b.find(s.key == FileCache::kZeroKey ? 0 : s.key);
    if (other == nullptr || !(*other == s.record)) return false;
  }
  return true;
}

}  // namespace keel::pipeline
