// keel-pack: inspect composite data files (Golden Rules ch. 5).
//   keel-pack list FILE [--chunks] [--type NAME...]   assets, types, blocks, sizes, ratios
//   keel-pack verify FILE...                          every checksum and block; exit 1 if damaged
//   keel-pack extract FILE NAME -o OUT [--locator ID] an asset's primary chunk (or another one),
//                                                     streamed: memory does not grow with it
// list reads only the indices, verify goes block by block: memory does not grow with the pack.
//   keel-pack merge OUT INPUT...                      the repack step
// Exit status: 0 fine, 1 a file is damaged or the asset is missing, 2 usage or I/O error.
// The logic lives in keel/pack.
#include "keel/core/file.h"
#include "keel/pack/merge.h"
#include "keel/pack/pack_file.h"

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <charconv>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace {

using namespace keel;
using namespace keel::pack;

int report_error(const Error& error) {
  fmt::print(stderr, "keel-pack: {}\n", error.to_string());
  return error.code() == ErrorCode::kIo ? 2 : 1;
}

std::string locator_text(LocatorId id) {
  return id.is_null() ? std::string("null") : fmt::format("{}:{}", id.block_id(), id.chunk());
}

// "0x00020003", "131075" or "block:chunk".
std::optional<LocatorId> parse_locator(std::string_view text) {
  u32 a = 0;
  u32 b = 0;
  const auto colon = text.find(':');
  auto number = [](std::string_view s, u32& out) {
    int base = 10;
    if (s.starts_with("0x") || s.starts_with("0X")) {
      s.remove_prefix(2);
      base = 16;
    }
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out, base);
    return ec == std::errc() && end == s.data() + s.size() && !s.empty();
  };
  if (colon == std::string_view::npos) {
    if (!number(text, a)) return std::nullopt;
    return LocatorId{a};
  }
  if (!number(text.substr(0, colon), a) || !number(text.substr(colon + 1), b) || a > 0xFFFF ||
      b > 0xFFFF) {
    return std::nullopt;
  }
  return LocatorId::make(static_cast<u16>(a), static_cast<u16>(b));
}

std::string ratio_text(u64 loaded, u64 stored) {
  if (stored == 0) return loaded == 0 ? "1.00" : "-";
  return fmt::format("{:.2f}", static_cast<double>(loaded) / static_cast<double>(stored));
}

int list(const std::string& path, bool show_chunks, const std::vector<std::string>& extra_types) {
  auto file = PackFile::open(path);
  if (!file) return report_error(file.error());
  std::map<Hash, std::string> type_names;
  for (const char* t :
       {"Texture", "Mesh", "Font", "Sound", "Atlas", "Script", "FSM", "Blob", "Data"}) {
    type_names[type_hash(t)] = t;
  }
  for (const std::string& t : extra_types) type_names[type_hash(t)] = t;

  struct Usage {
    u32 chunks = 0;
    u64 bytes = 0;
  };
  std::map<Hash, Usage> usage;
  u64 loaded = 0;
  u64 stored = 0;
  for (usize b = 0; b < file->blocks().size(); ++b) {
    loaded += file->blocks()[b].length;
    stored += file->blocks()[b].stored_length;
    for (const PackChunk& c : file->chunks(b)) {
      usage[c.name_hash].chunks++;
      usage[c.name_hash].bytes += c.length;
    }
  }

  fmt::print("{}: {} assets, {} blocks, {} bytes on disk, dictionary {}\n", path,
             file->items().size(), file->blocks().size(), file->file_size(),
             file->has_dictionary() ? "yes" : "no");
  fmt::print("assets:\n  {:<24} {:<24} {:>9} {:>6} {:>10}\n", "name", "type", "primary", "chunks",
             "bytes");
  for (const PackItem& item : file->items()) {
    const std::string name =
        item.name.empty() ? fmt::format("0x{:08X}", item.name_hash) : item.name;
    auto t = type_names.find(item.type_hash);
    const std::string type = t != type_names.end()
                                 ? fmt::format("{} (0x{:08X})", t->second, item.type_hash)
                                 : fmt::format("0x{:08X}", item.type_hash);
    const Usage u = usage[item.name_hash];
    fmt::print("  {:<24} {:<24} {:>9} {:>6} {:>10}\n", name, type, locator_text(item.primary),
               u.chunks, u.bytes);
  }
  fmt::print("blocks:\n  {:>5} {:>6} {:>12} {:>12} {:<6} {:>7} {:>7}\n", "type", "align", "length",
             "stored", "method", "ratio", "chunks");
  for (usize b = 0; b < file->blocks().size(); ++b) {
    const PackBlock& block = file->blocks()[b];
    fmt::print("  {:>5} {:>6} {:>12} {:>12} {:<6} {:>7} {:>7}\n", block.type, block.alignment,
               block.length, block.stored_length, to_string(block.compression),
               ratio_text(block.length, block.stored_length), block.chunk_count);
    if (show_chunks) {
      for (const PackChunk& c : file->chunks(b)) {
        const PackItem* owner = file->find_item_hash(c.name_hash);
        const std::string name = owner != nullptr && !owner->name.empty()
                                     ? owner->name
                                     : fmt::format("0x{:08X}", c.name_hash);
        fmt::print("      {:<24} locator {:>9} offset {:>10} length {:>10}\n", name,
                   locator_text(c.locator), c.block_offset, c.length);
      }
    }
  }
  fmt::print("total: {} bytes loaded from {} stored, compression ratio {}\n", loaded, stored,
             ratio_text(loaded, stored));
  return 0;
}

int verify(const std::vector<std::string>& paths) {
  int status = 0;
  for (const std::string& path : paths) {
    auto file = PackFile::open(path);
    if (!file) {
      status = std::max(status, report_error(file.error()));
      continue;
    }
    if (auto s = file->verify(); !s) {
      status = std::max(status, report_error(s.error()));
      continue;
    }
    fmt::print("{}: OK ({} assets, {} blocks, {} bytes)\n", path, file->items().size(),
               file->blocks().size(), file->file_size());
  }
  return status;
}

int extract(const std::string& path, const std::string& name, const std::string& out,
            const std::string& locator_spec) {
  auto file = PackFile::open(path);
  if (!file) return report_error(file.error());
  const PackItem* item = file->find_item(name);
  if (item == nullptr && name.starts_with("0x")) {
    if (auto id = parse_locator(name)) item = file->find_item_hash(id->value);
  }
  if (item == nullptr) {
    fmt::print(stderr, "keel-pack: {}: no asset '{}'\n", path, name);
    return 1;
  }
  LocatorId locator = item->primary;
  if (!locator_spec.empty()) {
    auto parsed = parse_locator(locator_spec);
    if (!parsed) {
      fmt::print(stderr, "keel-pack: '{}' is not a locator (0xID, ID or block:chunk)\n",
                 locator_spec);
      return 2;
    }
    locator = *parsed;
  }
  // Streamed: the chunk goes to the file piece by piece, never whole in memory.
  AtomicFileWriter writer;
  if (auto s = writer.open(out); !s) return report_error(s.error());
  u64 written = 0;
  auto s = file->extract_chunk(item->name_hash, locator, [&](ByteSpan piece) {
    written += piece.size();
    return writer.write(piece.data(), piece.size());
  });
  if (!s) return report_error(s.error());
  if (auto c = writer.commit(); !c) return report_error(c.error());
  fmt::print("{}: wrote {} bytes of '{}' chunk {} to {}\n", path, written, name,
             locator_text(locator), out);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Keel pack files: list, verify, extract, merge"};
  app.require_subcommand(1);

  std::string file;
  bool chunks = false;
  std::vector<std::string> types;
  CLI::App* list_cmd = app.add_subcommand("list", "assets, types, blocks, sizes, compression");
  list_cmd->add_option("FILE", file)->required();
  list_cmd->add_flag("--chunks", chunks, "list every chunk of every block");
  list_cmd->add_option("--type", types, "asset type names to recognise by hash");

  std::vector<std::string> files;
  CLI::App* verify_cmd = app.add_subcommand("verify", "check every checksum and block");
  verify_cmd->add_option("FILE", files)->required();

  std::string name;
  std::string out;
  std::string locator;
  CLI::App* extract_cmd = app.add_subcommand("extract", "write one chunk of an asset to a file");
  extract_cmd->add_option("FILE", file)->required();
  extract_cmd->add_option("NAME", name, "asset name (or 0x name hash)")->required();
  extract_cmd->add_option("-o,--output", out, "output file")->required();
  extract_cmd->add_option("--locator", locator, "chunk to extract (default: the primary chunk)");

  std::vector<std::string> inputs;
  std::string merged;
  CLI::App* merge_cmd = app.add_subcommand("merge", "merge pack files into one (locators kept)");
  merge_cmd->add_option("OUT", merged)->required();
  merge_cmd->add_option("INPUT", inputs)->required();
  std::string method = "zstd";
  merge_cmd->add_option("--compression", method, "zstd, zlib or none")
      ->check(CLI::IsMember({"zstd", "zlib", "none"}));

  CLI11_PARSE(app, argc, argv);

  if (*list_cmd) return list(file, chunks, types);
  if (*verify_cmd) return verify(files);
  if (*extract_cmd) return extract(file, name, out, locator);
  WriterOptions options;
  options.compression = method == "zlib"   ? Compression::kZlib
                        : method == "none" ? Compression::kNone
                                           : Compression::kZstd;
  std::vector<std::filesystem::path> paths(inputs.begin(), inputs.end());
  if (auto s = merge_packs(paths, merged, options); !s) return report_error(s.error());
  fmt::print("{}: merged {} files\n", merged, inputs.size());
  return 0;
}
