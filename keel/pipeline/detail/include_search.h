// The include-path lookup the build runs per source: the first existing regular file in a list of
// directories (IncludePaths::search_dirs), with the stat data the content cache needs.
#pragma once

#include "keel/pipeline/detail/file_state.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace keel::pipeline {

struct SourceHit {
  std::string path;  // the directory joined with the name
  FileStamp stamp;
};

// The first existing regular file `name` in `dirs`; an absolute `name` is taken as it is. With
// `handles`, the folders are stat-ed through open handles (the build's many lookups).
std::optional<SourceHit> find_source_in(const std::vector<std::string>& dirs, std::string_view name,
                                        DirectoryHandles* handles = nullptr);

// After find_source_in failed: why the first candidate that exists in some form is no usable
// file ("/p/assets/sub is a directory", "... too many levels of symbolic links", "... Permission
// denied"), or empty when `name` is in none of the directories.
std::string why_not_found(const std::vector<std::string>& dirs, std::string_view name);

}  // namespace keel::pipeline
