#include "keel/pipeline/detail/include_search.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>

#include <sys/stat.h>

namespace keel::pipeline {

std::optional<SourceHit> find_source_in(const std::vector<std::string>& dirs, std::string_view name,
                                        DirectoryHandles* handles) {
  if (name.empty()) return std::nullopt;
  if (handles != nullptr && name.front() != '/') {
    for (const std::string& dir : dirs) {
      if (auto stamp = handles->stat_in(dir, name)) {
        std::string path = dir;
        path += '/';
        path += name;
        return SourceHit{std::move(path), *stamp};
      }
    }
    return std::nullopt;
  }
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

std::string why_not_found(const std::vector<std::string>& dirs, std::string_view name) {
  if (name.empty()) return {};
  std::vector<std::string> candidates;
  if (name.front() == '/') {
    candidates.emplace_back(name);
  } else {
    for (const std::string& dir : dirs) candidates.push_back(dir + "/" + std::string(name));
  }
  for (const std::string& path : candidates) {
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0) {
      if (S_ISDIR(st.st_mode)) return fmt::format("{} is a directory, not a file", path);
      if (!S_ISREG(st.st_mode)) return fmt::format("{} is not a regular file", path);
      continue;
    }
    const int error = errno;
    if (error != ENOENT && error != ENOTDIR) {
      return fmt::format("{}: {}", path, std::strerror(error));
    }
    struct stat link {};
    if (::lstat(path.c_str(), &link) == 0 && S_ISLNK(link.st_mode)) {
      return fmt::format("{} is a symbolic link to nothing", path);
    }
  }
  return {};
}

}  // namespace keel::pipeline
