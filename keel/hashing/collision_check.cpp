#include "keel/hashing/collision_check.h"

#include "keel/core/assert.h"
#include "keel/core/file.h"
#include "keel/hashing/name_registry.h"
#include "keel/hashing/text_lines.h"

#include <algorithm>
#include <system_error>
#include <unordered_map>

namespace keel::hashing {

Hash NameHash::operator()(std::string_view name) const {
  return kind == NameHashKind::kFilename ? filename_hash(name, high_bytes)
                                         : string_hash(name, high_bytes);
}

bool NameHash::same_name(std::string_view a, std::string_view b) const {
  return kind == NameHashKind::kFilename ? same_filename(a, b) : a == b;
}

std::string NameHash::describe() const {
  std::string out = kind == NameHashKind::kFilename ? "filename hash" : "string hash";
  if (high_bytes == HighBytes::kSignExtend) out += " (signed char)";
  return out;
}

Result<NameHash> parse_name_hash(std::string_view spec) {
  if (spec == "filename") return NameHash{NameHashKind::kFilename, HighBytes::kUnsigned};
  if (spec == "string") return NameHash{NameHashKind::kString, HighBytes::kUnsigned};
  if (spec == "filename-signed") return NameHash{NameHashKind::kFilename, HighBytes::kSignExtend};
  if (spec == "string-signed") return NameHash{NameHashKind::kString, HighBytes::kSignExtend};
  return fail(ErrorCode::kInvalidArgument,
              "unknown hash '{}' (filename, string, filename-signed, string-signed)", spec);
}

void HashCatalog::add(std::string name, std::string where) {
  ++names_;
  const Hash hash = hash_(name);
  const NameHash& folding = hash_;
  const CatalogEntry* same =
      tree_.find(hash, [&](const CatalogEntry& e) { return folding.same_name(e.name, name); });
  if (same != nullptr) {
    duplicates_.emplace_back(same, CatalogEntry{std::move(name), std::move(where), hash});
    return;
  }
  if (tree_.find(hash) != nullptr) {
    ++collisions_;
    if (std::find(colliding_.begin(), colliding_.end(), hash) == colliding_.end()) {
      colliding_.push_back(hash);
    }
  }
  entries_.push_back(CatalogEntry{std::move(name), std::move(where), hash});
  const Status added = tree_.add(hash, &entries_.back());  // a new pointer: no duplicate
  KEEL_ASSERT(added.has_value(), "hash catalogue: {}", added.error().to_string());
}

CollisionReport HashCatalog::report() const {
  CollisionReport r;
  r.hash = hash_;
  r.names = names_;
  r.collisions = collisions_;
  r.duplicates = duplicates_.size();
  std::unordered_map<Hash, usize> group_of;
  for (Hash h : colliding_) {
    group_of.emplace(h, r.groups.size());
    r.groups.push_back(CollisionGroup{h, {}});
  }
  for (const CatalogEntry& e : entries_) {
    if (auto it = group_of.find(e.hash); it != group_of.end()) {
      r.groups[it->second].names.push_back(e);
    }
  }
  for (const auto& [first, repeat] : duplicates_) r.duplicate_pairs.emplace_back(*first, repeat);
  return r;
}

Result<CollisionReport> check_names(std::string_view text, std::string_view file, NameHash hash) {
  Result<std::vector<TextLine>> lines = split_lines(text, file);
  if (!lines) return Unexpected(lines.error());
  HashCatalog catalog(hash);
  for (const TextLine& line : *lines) {
    std::string_view name = line.text;
    const usize first = name.find_first_not_of(" \t");
    if (first == std::string_view::npos) continue;
    name = name.substr(first, name.find_last_not_of(" \t") - first + 1);
    if (name.starts_with('#')) continue;
    catalog.add(std::string(name), fmt::format("{}:{}", file, line.number));
  }
  return catalog.report();
}

Result<CollisionReport> check_names_file(const std::filesystem::path& file, NameHash hash) {
  Result<std::string> text = read_file(file);
  if (!text) return Unexpected(text.error());
  return check_names(*text, file.string(), hash);
}

Result<CollisionReport> check_directory(const std::filesystem::path& root, NameHash hash,
                                        DirectoryScan scan) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(root, ec)) {
    return fail(ErrorCode::kNotFound, "{}: not a directory", root.string());
  }
  std::vector<std::pair<std::string, std::string>> files;  // (name, path)
  fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec);
  for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    const fs::file_status status = it->symlink_status(ec);
    if (ec) break;
    if (fs::is_directory(status)) continue;
    const fs::path& path = it->path();
    std::string name =
        scan.leaf_names ? path.filename().string() : path.lexically_relative(root).generic_string();
    files.emplace_back(std::move(name), path.string());
  }
  if (ec) return fail(ErrorCode::kIo, "{}: {}", root.string(), ec.message());
  std::sort(files.begin(), files.end());
  HashCatalog catalog(hash);
  for (auto& [name, path] : files) catalog.add(std::move(name), std::move(path));
  return catalog.report();
}

namespace {
std::string plural(usize n, std::string_view word) {
  return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s");
}
}  // namespace

std::vector<std::string> format_report(const CollisionReport& report) {
  std::vector<std::string> lines;
  for (const CollisionGroup& g : report.groups) {
    std::string line = fmt::format("collision 0x{:08X}:", g.hash);
    for (usize i = 0; i < g.names.size(); ++i) {
      line += fmt::format("{} '{}' ({})", i == 0 ? "" : ",", g.names[i].name, g.names[i].where);
    }
    lines.push_back(std::move(line));
  }
  for (const auto& [first, repeat] : report.duplicate_pairs) {
    lines.push_back(fmt::format("duplicate: '{}' ({}) is '{}' ({})", repeat.name, repeat.where,
                                first.name, first.where));
  }
  lines.push_back(fmt::format("{} checked with the {}: {}, {}", plural(report.names, "name"),
                              report.hash.describe(), plural(report.collisions, "collision"),
                              plural(report.duplicates, "duplicate")));
  return lines;
}

}  // namespace keel::hashing
