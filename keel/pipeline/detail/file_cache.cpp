#include "keel/pipeline/detail/file_cache.h"

#include <algorithm>

namespace keel::pipeline {

FileCache::FileCache(const FileCache& other) { *this = other; }

FileCache::FileCache(FileCache&& other) noexcept { *this = std::move(other); }

FileCache& FileCache::operator=(const FileCache& other) {
  if (this == &other) return *this;
  const std::lock_guard lock(other.index_mutex_);
  entries_ = other.entries_;
  index_ = other.index_;
  indexed_.store(other.indexed_.load());
  return *this;
}

FileCache& FileCache::operator=(FileCache&& other) noexcept {
  if (this == &other) return *this;
  entries_ = std::move(other.entries_);
  index_ = std::move(other.index_);
  indexed_.store(other.indexed_.load());
  other.entries_.clear();
  other.index_.reset();
  other.indexed_.store(true);
  return *this;
}

void FileCache::build_index() const {
  const std::lock_guard lock(index_mutex_);
  if (indexed_.load(std::memory_order_relaxed)) return;
  index_.reset();
  index_.reserve(entries_.size());
  for (usize i = 0; i < entries_.size(); ++i) {
    index_.insert_or_assign(entries_[i].first, static_cast<u32>(i));  // a later duplicate wins
  }
  indexed_.store(true, std::memory_order_release);
}

void FileCache::ensure_index() const {
  if (!indexed_.load(std::memory_order_acquire)) build_index();
}

usize FileCache::position(u64 key) const {
  ensure_index();
  const u32* i = index_.find(key);
  return i != nullptr ? *i : kNone;
}

void FileCache::put(u64 key, const FileRecord& record) {
  const usize i = position(key);
  if (i != kNone) {
    entries_[i].second = record;
    return;
  }
  index_.insert_or_assign(key, static_cast<u32>(entries_.size()));
  entries_.emplace_back(key, record);
}

void FileCache::reserve(usize count) {
  entries_.reserve(count);
  if (indexed_.load()) index_.reserve(count);
}

void FileCache::assign(std::vector<Entry>&& entries) {
  entries_ = std::move(entries);
  index_.reset();
  indexed_.store(entries_.empty());
}

std::vector<FileCache::Entry> FileCache::sorted() const {
  std::vector<Entry> out = entries_;
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  return out;
}

bool operator==(const FileCache& a, const FileCache& b) {
  // By the index, so that a key listed twice (a loaded list; the later entry counts) compares
  // as one.
  a.ensure_index();
  b.ensure_index();
  if (a.index_.size() != b.index_.size()) return false;
  bool equal = true;
  a.index_.for_each([&](u64 key, u32 position) {
    const FileRecord* other = equal ? b.find(key) : nullptr;
    equal = other != nullptr && *other == a.entries_[position].second;
  });
  return equal;
}

}  // namespace keel::pipeline
