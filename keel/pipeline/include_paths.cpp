#include "keel/pipeline/include_paths.h"

#include "keel/pipeline/detail/include_search.h"
#include "keel/pipeline/detail/names.h"
#include "keel/pipeline/handler.h"

namespace keel::pipeline {

std::string IncludePaths::key(std::string_view platform, std::string_view type) {
  std::string k = to_lower(platform);
  k += '\n';
  k += to_lower(type);
  return k;
}

void IncludePaths::add(std::string_view platform, std::string_view type, std::string directory) {
  while (directory.size() > 1 && directory.back() == '/') directory.pop_back();
  groups_[key(platform, type)].push_back(std::move(directory));
}

const std::vector<std::string>& IncludePaths::group(std::string_view platform,
                                                    std::string_view type) const {
  static const std::vector<std::string> kNone;
  auto it = groups_.find(key(platform, type));
  return it == groups_.end() ? kNone : it->second;
}

std::vector<std::string> IncludePaths::search_dirs(std::string_view platform,
                                                   std::string_view type) const {
  const std::string_view order[4][2] = {
      {platform, type}, {platform, kCommon}, {kCommon, type}, {kCommon, kCommon}};
  std::vector<std::string> dirs;
  for (int g = 0; g < 4; ++g) {
    // Skip a group that repeats an earlier one (target platform or type is "common" itself).
    bool repeat = false;
    for (int e = 0; e < g; ++e) {
      repeat = repeat ||
               (equal_names(order[e][0], order[g][0]) && equal_names(order[e][1], order[g][1]));
    }
    if (repeat) continue;
    for (const std::string& dir : group(order[g][0], order[g][1])) dirs.push_back(dir);
  }
  return dirs;
}

std::optional<std::string> IncludePaths::find(std::string_view name, std::string_view platform,
                                              std::string_view type) const {
  std::optional<SourceHit> hit = find_source_in(search_dirs(platform, type), name);
  if (!hit) return std::nullopt;
  return std::move(hit->path);
}

}  // namespace keel::pipeline
