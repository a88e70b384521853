// Include paths grouped by (platform, asset type), each group in the user's order (Golden Rules
// ch. 5, "include path resolution"). A lookup tries four groups and takes the first file found:
//
//   1. (target platform, asset type)   2. (target platform, common)
//   3. (common, asset type)            4. (common, common)
//
// Platform and type names compare case-insensitively; "common" is kCommon.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace keel::pipeline {

class IncludePaths {
 public:
  void add(std::string_view platform, std::string_view type, std::string directory);

  // The path of the first existing regular file `name` in the four groups (the directory joined
  // with the name), or nullopt. An absolute `name` is taken as it is.
  std::optional<std::string> find(std::string_view name, std::string_view platform,
                                  std::string_view type) const;

  // Every directory of the four groups, in search order (a group repeated because the platform
  // or type is "common" is searched once).
  std::vector<std::string> search_dirs(std::string_view platform, std::string_view type) const;

  // The directories of one group, in search order (empty when the group has none).
  const std::vector<std::string>& group(std::string_view platform, std::string_view type) const;
  bool empty() const { return groups_.empty(); }

 private:
  static std::string key(std::string_view platform, std::string_view type);
  std::map<std::string, std::vector<std::string>, std::less<>> groups_;
};

}  // namespace keel::pipeline
