#include "keel/pipeline/detail/file_cache.h"

#include <algorithm>
#include <bit>

namespace keel::pipeline {

bool FileCache::assign_sorted(std::vector<Entry>&& entries) {
  for (usize i = 1; i < entries.size(); ++i) {
    if (entries[i - 1].first >= entries[i].first) return false;
  }
  map_.reset();
  starts_.clear();
  loaded_ = std::move(entries);
  if (loaded_.empty()) return true;
  // About one entry per bucket: 2^bits buckets for n entries, n <= 2^bits < 2n.
  const u32 bits = std::max<u32>(1, static_cast<u32>(std::bit_width(loaded_.size() - 1)));
  shift_ = 64 - bits;
  const usize buckets = usize{1} << bits;
  starts_.assign(buckets + 1, 0);
  usize i = 0;
  for (usize b = 0; b <= buckets; ++b) {
    while (i < loaded_.size() && (loaded_[i].first >> shift_) < b) ++i;
    starts_[b] = static_cast<u32>(i);
  }
  return true;
}

void FileCache::to_table() {
  std::vector<Entry> entries = std::move(loaded_);
  loaded_.clear();
  starts_.clear();
  map_.reserve(entries.size() + 1);
  for (const Entry& e : entries) map_.insert_or_assign(e.first, e.second);
}

std::vector<FileCache::Entry> FileCache::sorted() const {
  if (!loaded_.empty()) return loaded_;
  std::vector<Entry> out;
  out.reserve(map_.size());
  map_.for_each([&out](u64 key, const FileRecord& record) { out.emplace_back(key, record); });
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  return out;
}

bool operator==(const FileCache& a, const FileCache& b) {
  if (a.size() != b.size()) return false;
  bool equal = true;
  a.for_each([&](u64 key, const FileRecord& record) {
    const FileRecord* other = b.find(key);
    equal = equal && other != nullptr && *other == record;
  });
  return equal;
}

}  // namespace keel::pipeline
