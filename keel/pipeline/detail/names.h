// Small name helpers shared by the pipeline: case-insensitive names (platforms, asset types),
// file names made from asset names.
#pragma once

#include <string>
#include <string_view>

namespace keel::pipeline {

std::string to_lower(std::string_view text);               // ASCII
bool equal_names(std::string_view a, std::string_view b);  // ASCII case-insensitive
// A platform, type or project name: [A-Za-z_][A-Za-z0-9_]*.
bool is_identifier(std::string_view name);

// A file name for an asset: letters, digits, '_', '-' and '.' are kept, anything else becomes
// '_'; when that changed the name (or it is empty, starts with '.', or is over 80 bytes) a hash of
// the original is appended so that different names never share a file.
std::string file_name_for(std::string_view asset_name);

}  // namespace keel::pipeline
