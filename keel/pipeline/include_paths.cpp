#include "keel/pipeline/include_paths.h"

#include "keel/pipeline/handler.h"
#include "keel/pipeline/names.h"

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

std::optional<IncludePaths::Hit> IncludePaths::find_in(const std::vector<std::string>& dirs,
                                                       std::string_view name) {
  if (name.empty()) return std::nullopt;
  std::string path;
  if (name.front() == '/') {
    path = name;
    if (auto stamp = stat_file(path)) return Hit{std::move(path), *stamp};
    return std::nullopt;
  }
  for (const std::string& dir : dirs) {
    path.assign(dir);
    path += '/';
    path += name;
    if (auto stamp = stat_file(path)) return Hit{std::move(path), *stamp};
  }
  return std::nullopt;
}

std::optional<IncludePaths::Hit> IncludePaths::find(std::string_view name,
                                                    std::string_view platform,
                                                    std::string_view type) const {
  return find_in(search_dirs(platform, type), name);
}

}  // namespace keel::pipeline
