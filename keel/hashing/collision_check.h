// Build-time hash collision checks (Golden Rules ch. 3, "Reducing Collision Frequency"): hash a
// whole palette of names in advance (asset names, object names, localization keys) and report
// every collision, so run-time lookups never need to handle one. Behind `keel-hash check` and
// `keel-hash dir` (the book's filenamehash sample).
//
//   HashCatalog catalog(NameHash{});            // filename_hash, as resources are looked up
//   catalog.add("textures/wall.tga", "list.txt:3");
//   CollisionReport report = catalog.report();  // report.collisions == 0: safe to ship
//
// Like the book's sample the catalogue is a hash tree (with chaining). A name that equals an
// earlier one after the hash's own folding ("Player" and "PLAYER" under the filename hash) is a
// duplicate, not a collision: both mean the same resource. Collisions count the names whose hash
// was already taken by a different name (a group of k names sharing a hash counts k - 1).
#pragma once

#include "keel/core/error.h"
#include "keel/core/hash.h"
#include "keel/core/types.h"
#include "keel/hashing/hash_tree.h"

#include <deque>
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace keel::hashing {

enum class NameHashKind : u8 {
  kFilename,  // filename_hash: ASCII case folded, '/' = '\'
  kString,    // string_hash: exact bytes (the hash behind StringId and string tables)
};

struct NameHash {
  NameHashKind kind = NameHashKind::kFilename;
  HighBytes high_bytes = HighBytes::kUnsigned;  // kSignExtend: the book's signed-char variant

  Hash operator()(std::string_view name) const;
  bool same_name(std::string_view a, std::string_view b) const;  // equal after folding
  std::string describe() const;                                  // e.g. "filename hash"
};

// "filename", "string", "filename-signed", "string-signed".
Result<NameHash> parse_name_hash(std::string_view spec);

struct CatalogEntry {
  std::string name;
  std::string where;  // "file:line" or a path
  Hash hash = 0;
};

struct CollisionGroup {
  Hash hash = 0;
  std::vector<CatalogEntry> names;  // distinct names sharing `hash`, in the order added
};

struct CollisionReport {
  NameHash hash;
  usize names = 0;
  usize collisions = 0;
  usize duplicates = 0;
  std::vector<CollisionGroup> groups;
  std::vector<std::pair<CatalogEntry, CatalogEntry>> duplicate_pairs;  // (first, repeat)
};

class HashCatalog {
 public:
  explicit HashCatalog(NameHash hash = {}) : hash_(hash) {}
  HashCatalog(const HashCatalog&) = delete;
  HashCatalog& operator=(const HashCatalog&) = delete;

  void add(std::string name, std::string where);
  CollisionReport report() const;

 private:
  NameHash hash_;
  std::deque<CatalogEntry> entries_;  // stable addresses for the tree
  HashTree<const CatalogEntry> tree_{HashTreeOptions{.chaining = true}};
  usize names_ = 0;
  usize collisions_ = 0;
  std::vector<Hash> colliding_;  // hashes with a collision, in order of the first one
  std::vector<std::pair<const CatalogEntry*, CatalogEntry>> duplicates_;
};

// One name per line; blank lines and lines starting with '#' are skipped; spaces and tabs around
// a name are trimmed. Locations are "file:line".
Result<CollisionReport> check_names(std::string_view text, std::string_view file, NameHash hash);
Result<CollisionReport> check_names_file(const std::filesystem::path& file, NameHash hash);

struct DirectoryScan {
  bool leaf_names = false;  // hash only the file name instead of the path relative to the root
};

// Recursively catalogues every file (not directory) under `root`, in sorted order, by its path
// relative to the root with '/' separators (or its leaf name). Directory symlinks are not
// followed.
Result<CollisionReport> check_directory(const std::filesystem::path& root, NameHash hash,
                                        DirectoryScan scan = {});

// Human-readable report: one line per collision group and duplicate, then a summary line.
std::vector<std::string> format_report(const CollisionReport& report);

}  // namespace keel::hashing
