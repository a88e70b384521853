#include "keel/pipeline/detail/include_search.h"

namespace keel::pipeline {

std::optional<SourceHit> find_source_in(const std::vector<std::string>& dirs,
                                        std::string_view name) {
  if (name.empty()) return std::nullopt;
  std::string path;
  if (name.front() == '/') {
    path = name;
    if (auto stamp = stat_file(path)) return SourceHit{std::move(path), *stamp};
    return std::nullopt;
  }
  for (const std::string& dir : dirs) {
    path.assign(dir);
    path += '/';
    path += name;
    if (auto stamp = stat_file(path)) return SourceHit{std::move(path), *stamp};
  }
  return std::nullopt;
}

}  // namespace keel::pipeline
