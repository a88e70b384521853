#include "keel/pipeline/detail/file_cache.h"

#include <algorithm>

namespace keel::pipeline {

std::vector<std::pair<u64, FileRecord>> FileCache::sorted() const {
  std::vector<std::pair<u64, FileRecord>> out;
  out.reserve(map_.size());
  map_.for_each([&out](u64 key, const FileRecord& record) { out.emplace_back(key, record); });
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  return out;
}

bool operator==(const FileCache& a, const FileCache& b) {
  if (a.size() != b.size()) return false;
  bool equal = true;
  a.map_.for_each([&](u64 key, const FileRecord& record) {
    const FileRecord* other = b.find(key);
    equal = equal && other != nullptr && *other == record;
  });
  return equal;
}

}  // namespace keel::pipeline
