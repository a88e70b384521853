#include "keel/script/library.h"

#include "keel/script/bytecode.h"

#include <algorithm>
#include <cstring>
#include <utility>

namespace keel::script {

const LineEntry* Script::line_at(u32 offset) const {
  auto it = std::upper_bound(lines.begin(), lines.end(), offset,
                             [](u32 o, const LineEntry& e) { return o < e.offset; });
  if (it == lines.begin()) return nullptr;
  return &*(it - 1);
}

const Script* Library::find(Hash name_hash) const {
  const s32 i = index_of(name_hash);
  return i < 0 ? nullptr : &scripts_[static_cast<usize>(i)];
}

s32 Library::index_of(Hash name_hash) const {
  auto it = std::lower_bound(by_hash_.begin(), by_hash_.end(), name_hash,
                             [](const std::pair<Hash, u32>& e, Hash h) { return e.first < h; });
  if (it == by_hash_.end() || it->first != name_hash) return -1;
  return static_cast<s32>(it->second);
}

std::optional<std::string_view> Library::symbol(Hash hash) const {
  auto it = std::lower_bound(symbols_.begin(), symbols_.end(), hash,
                             [](const auto& e, Hash h) { return e.first < h; });
  if (it == symbols_.end() || it->first != hash) return std::nullopt;
  return std::string_view(it->second);
}

void Library::add_symbol(std::string_view text) {
  const Hash hash = string_hash(text);
  auto it = std::lower_bound(symbols_.begin(), symbols_.end(), hash,
                             [](const auto& e, Hash h) { return e.first < h; });
  if (it != symbols_.end() && it->first == hash) return;  // known (or a colliding text: keep first)
  symbols_.insert(it, {hash, std::string(text)});
}

namespace {
bool line_less(const SourceLine& a, Hash file, u32 line) {
  return a.file_hash != file ? a.file_hash < file : a.line < line;
}
}  // namespace

std::string_view Library::source_line(std::string_view file, u32 line) const {
  const Hash file_hash = string_hash(file);
  auto it = std::lower_bound(source_lines_.begin(), source_lines_.end(), std::pair{file_hash, line},
                             [](const SourceLine& a, const std::pair<Hash, u32>& k) {
                               return line_less(a, k.first, k.second);
                             });
  if (it == source_lines_.end() || it->file_hash != file_hash || it->line != line) return {};
  return it->text;
}

void Library::add_source_line(std::string_view file, u32 line, std::string_view text) {
  add_symbol(file);
  const Hash file_hash = string_hash(file);
  auto it = std::lower_bound(source_lines_.begin(), source_lines_.end(), std::pair{file_hash, line},
                             [](const SourceLine& a, const std::pair<Hash, u32>& k) {
                               return line_less(a, k.first, k.second);
                             });
  if (it != source_lines_.end() && it->file_hash == file_hash && it->line == line) return;
  source_lines_.insert(it, SourceLine{file_hash, line, std::string(text)});
}

bool Library::has_debug_info() const {
  if (!source_lines_.empty()) return true;
  return std::any_of(scripts_.begin(), scripts_.end(),
                     [](const Script& s) { return !s.lines.empty() || !s.file.empty(); });
}

void Library::strip_debug_info() {
  source_lines_.clear();
  for (Script& s : scripts_) {
    s.lines.clear();
    s.file.clear();
  }
}

Status Library::add_script(Script script) {
  if (find(script.name_hash) != nullptr) {
    return fail(ErrorCode::kAlreadyExists, "script `{}` (hash 0x{:08X}) is defined twice",
                script.name, script.name_hash);
  }
  if (!script.name.empty()) {
    if (string_hash(script.name) != script.name_hash) {
      return fail(ErrorCode::kInvalidArgument, "script `{}`: hash 0x{:08X} is not its name's hash",
                  script.name, script.name_hash);
    }
    add_symbol(script.name);
  }
  if (!script.file.empty()) add_symbol(script.file);
  const Hash hash = script.name_hash;
  const auto index = static_cast<u32>(scripts_.size());
  scripts_.push_back(std::move(script));
  auto it = std::lower_bound(by_hash_.begin(), by_hash_.end(), hash,
                             [](const std::pair<Hash, u32>& e, Hash h) { return e.first < h; });
  by_hash_.insert(it, {hash, index});
  return ok();
}

Status Library::merge(const Library& other) {
  for (const Script& s : other.scripts_) {
    if (find(s.name_hash) != nullptr) {
      return fail(ErrorCode::kAlreadyExists, "script `{}` (hash 0x{:08X}) is defined twice", s.name,
                  s.name_hash);
    }
  }
  for (const auto& [hash, text] : other.symbols_) add_symbol(text);
  for (const SourceLine& line : other.source_lines_) {
    if (auto file = other.symbol(line.file_hash)) add_source_line(*file, line.line, line.text);
  }
  for (const Script& s : other.scripts_) {
    if (Status st = add_script(s); !st) return st;
  }
  return ok();
}

// --- serialization ----------------------------------------------------------------------------

namespace {

constexpr u32 kHeaderBytes = 32;
constexpr u32 kScriptEntryBytes = 16;
constexpr u16 kFlagDebug = 1;

class Writer {
 public:
  void u32_(u32 v) {
    const usize at = out.size();
    out.resize(at + 4);
    write_u32(out.data() + at, v);
  }
  void u16_(u16 v) {
    const usize at = out.size();
    out.resize(at + 2);
    write_u16(out.data() + at, v);
  }
  void bytes(const void* data, usize size) {
    const usize at = out.size();
    out.resize(at + size);
    if (size > 0) std::memcpy(out.data() + at, data, size);
  }
  void text(std::string_view s) {
    u32_(static_cast<u32>(s.size()));
    bytes(s.data(), s.size());
    pad();
  }
  void pad() {
    while (out.size() % 4 != 0) out.push_back(std::byte{0});
  }
  void patch(usize at, u32 v) { write_u32(out.data() + at, v); }
  u32 size() const { return static_cast<u32>(out.size()); }
  std::vector<std::byte> out;
};

class Reader {
 public:
  Reader(std::span<const std::byte> data, std::string_view name) : data_(data), name_(name) {}
  SourceLocation at(u64 offset) const { return SourceLocation::bytes(std::string(name_), offset); }
  bool has(u64 offset, u64 size) const {
    return offset <= data_.size() && size <= data_.size() - offset;
  }
  u32 u32_at(u64 offset) const { return read_u32(data_.data() + offset); }
  u16 u16_at(u64 offset) const { return read_u16(data_.data() + offset); }
  std::span<const std::byte> span(u64 offset, u64 size) const {
    return data_.subspan(offset, size);
  }
  usize size() const { return data_.size(); }

 private:
  std::span<const std::byte> data_;
  std::string_view name_;
};

}  // namespace

std::vector<std::byte> Library::to_bytes() const {
  const bool debug = has_debug_info();
  Writer w;
  w.u32_(kLibraryMagic);
  w.u16_(kLibraryVersion);
  w.u16_(debug ? kFlagDebug : 0);
  w.u32_(static_cast<u32>(scripts_.size()));
  w.u32_(static_cast<u32>(symbols_.size()));
  const usize symbols_offset_at = w.size();
  w.u32_(0);  // symbols offset
  const usize debug_offset_at = w.size();
  w.u32_(0);  // debug offset
  const usize size_at = w.size();
  w.u32_(0);  // file size
  w.u32_(0);  // reserved
  const usize table = w.size();
  for (usize i = 0; i < scripts_.size(); ++i) {
    w.u32_(scripts_[i].name_hash);
    w.u32_(0);
    w.u32_(static_cast<u32>(scripts_[i].code.size()));
    w.u32_(0);
  }
  for (usize i = 0; i < scripts_.size(); ++i) {
    w.patch(table + i * kScriptEntryBytes + 4, w.size());
    w.bytes(scripts_[i].code.data(), scripts_[i].code.size());
    w.pad();
  }
  w.patch(symbols_offset_at, w.size());
  for (const auto& [hash, text] : symbols_) {
    w.u32_(hash);
    w.text(text);
  }
  if (debug) {
    w.patch(debug_offset_at, w.size());
    for (const Script& s : scripts_) {
      w.u32_(s.file.empty() ? 0 : string_hash(s.file));
      w.u32_(static_cast<u32>(s.lines.size()));
      for (const LineEntry& e : s.lines) {
        w.u32_(e.offset);
        w.u32_(e.line);
        w.u32_(e.column);
      }
    }
    w.u32_(static_cast<u32>(source_lines_.size()));
    for (const SourceLine& line : source_lines_) {
      w.u32_(line.file_hash);
      w.u32_(line.line);
      w.text(line.text);
    }
  }
  w.patch(size_at, w.size());
  return std::move(w.out);
}

Result<Library> Library::from_bytes(std::span<const std::byte> bytes, std::string_view name) {
  const Reader r(bytes, name);
  if (!r.has(0, kHeaderBytes)) {
    return fail_at(r.at(0), ErrorCode::kUnderflow, "script library: {} bytes, header needs {}",
                   bytes.size(), kHeaderBytes);
  }
  if (r.u32_at(0) != kLibraryMagic) {
    return fail_at(r.at(0), ErrorCode::kCorrupt, "not a script library (bad magic)");
  }
  const u16 version = r.u16_at(4);
  if (version != kLibraryVersion) {
    return fail_at(r.at(4), ErrorCode::kUnsupported,
                   "script library version {} (this build reads version {})", version,
                   kLibraryVersion);
  }
  const u16 flags = r.u16_at(6);
  if ((flags & ~kFlagDebug) != 0) {
    return fail_at(r.at(6), ErrorCode::kCorrupt, "unknown flags 0x{:04X}", flags);
  }
  const u32 script_count = r.u32_at(8);
  const u32 symbol_count = r.u32_at(12);
  const u32 symbols_offset = r.u32_at(16);
  const u32 debug_offset = r.u32_at(20);
  const u32 file_size = r.u32_at(24);
  if (file_size != bytes.size()) {
    return fail_at(r.at(24), ErrorCode::kCorrupt, "header says {} bytes, data has {}", file_size,
                   bytes.size());
  }
  if (r.u32_at(28) != 0) return fail_at(r.at(28), ErrorCode::kCorrupt, "reserved field not 0");
  const u64 table_end = kHeaderBytes + u64{script_count} * kScriptEntryBytes;
  if (!r.has(kHeaderBytes, table_end - kHeaderBytes)) {
    return fail_at(r.at(8), ErrorCode::kCorrupt, "{} scripts do not fit in {} bytes", script_count,
                   bytes.size());
  }
  if (symbols_offset % 4 != 0 || symbols_offset < table_end || symbols_offset > bytes.size()) {
    return fail_at(r.at(16), ErrorCode::kCorrupt, "symbol table offset {} is invalid",
                   symbols_offset);
  }
  const bool debug = (flags & kFlagDebug) != 0;
  if (debug
          ? (debug_offset % 4 != 0 || debug_offset < symbols_offset || debug_offset > bytes.size())
          : debug_offset != 0) {
    return fail_at(r.at(20), ErrorCode::kCorrupt, "debug section offset {} is invalid",
                   debug_offset);
  }

  Library lib;
  lib.scripts_.reserve(script_count);
  for (u32 i = 0; i < script_count; ++i) {
    const u64 entry = kHeaderBytes + u64{i} * kScriptEntryBytes;
    Script s;
    s.name_hash = r.u32_at(entry);
    const u32 code_offset = r.u32_at(entry + 4);
    const u32 code_size = r.u32_at(entry + 8);
    if (r.u32_at(entry + 12) != 0) {
      return fail_at(r.at(entry + 12), ErrorCode::kCorrupt, "script {}: reserved field not 0", i);
    }
    if (code_offset % 4 != 0 || code_size % 4 != 0 || code_offset < table_end ||
        u64{code_offset} + code_size > symbols_offset) {
      return fail_at(r.at(entry + 4), ErrorCode::kCorrupt,
                     "script {}: code at {} ({} bytes) is outside the code section", i, code_offset,
                     code_size);
    }
    auto code = r.span(code_offset, code_size);
    if (Status st = validate_stream(code); !st) {
      return fail_at(r.at(code_offset + st.error().where().offset), ErrorCode::kCorrupt,
                     "script {} (hash 0x{:08X}): {}", i, s.name_hash, st.error().message());
    }
    s.code.assign(code.begin(), code.end());
    if (lib.find(s.name_hash) != nullptr) {
      return fail_at(r.at(entry), ErrorCode::kCorrupt, "script hash 0x{:08X} appears twice",
                     s.name_hash);
    }
    if (Status st = lib.add_script(std::move(s)); !st) {
      return fail_at(r.at(entry), ErrorCode::kCorrupt, "{}", st.error().message());
    }
  }

  u64 pos = symbols_offset;
  const u64 symbols_end = debug ? debug_offset : bytes.size();
  const auto read_text = [&](u64& at, u64 limit, std::string& out) -> Status {
    if (at + 4 > limit) return fail_at(r.at(at), ErrorCode::kUnderflow, "text length cut off");
    const u32 length = r.u32_at(at);
    const u64 padded = (u64{length} + 3) / 4 * 4;
    if (padded > limit - at - 4) {
      return fail_at(r.at(at), ErrorCode::kCorrupt, "text of {} bytes runs past its section",
                     length);
    }
    auto span = r.span(at + 4, length);
    out.assign(reinterpret_cast<const char*>(span.data()), span.size());
    at += 4 + padded;
    return ok();
  };
  if (u64{symbol_count} * 8 > symbols_end - pos) {
    return fail_at(r.at(12), ErrorCode::kCorrupt, "{} symbols do not fit", symbol_count);
  }
  for (u32 i = 0; i < symbol_count; ++i) {
    if (pos + 4 > symbols_end) return fail_at(r.at(pos), ErrorCode::kUnderflow, "symbol cut off");
    const u64 at = pos;
    const Hash hash = r.u32_at(pos);
    pos += 4;
    std::string text;
    if (Status st = read_text(pos, symbols_end, text); !st) return Unexpected(st.error());
    if (string_hash(text) != hash) {
      return fail_at(r.at(at), ErrorCode::kCorrupt, "symbol `{}` does not match its hash 0x{:08X}",
                     text, hash);
    }
    if (lib.symbol(hash).has_value()) {
      return fail_at(r.at(at), ErrorCode::kCorrupt, "symbol 0x{:08X} appears twice", hash);
    }
    lib.add_symbol(text);
  }
  if (pos != symbols_end) {
    return fail_at(r.at(pos), ErrorCode::kTrailingData, "{} unused bytes after the symbols",
                   symbols_end - pos);
  }
  for (Script& s : lib.scripts_) {
    if (auto n = lib.symbol(s.name_hash)) s.name = std::string(*n);
  }
  if (!debug) return lib;

  pos = debug_offset;
  const u64 end = bytes.size();
  for (Script& s : lib.scripts_) {
    if (pos + 8 > end) return fail_at(r.at(pos), ErrorCode::kUnderflow, "line table cut off");
    const Hash file_hash = r.u32_at(pos);
    const u32 count = r.u32_at(pos + 4);
    pos += 8;
    if (file_hash != 0) {
      auto file = lib.symbol(file_hash);
      if (!file) {
        return fail_at(r.at(pos - 8), ErrorCode::kCorrupt, "file name 0x{:08X} has no symbol",
                       file_hash);
      }
      s.file = std::string(*file);
    }
    if (u64{count} * 12 > end - pos) {
      return fail_at(r.at(pos - 4), ErrorCode::kCorrupt, "{} line entries do not fit", count);
    }
    s.lines.reserve(count);
    for (u32 i = 0; i < count; ++i, pos += 12) {
      const LineEntry e{r.u32_at(pos), r.u32_at(pos + 4), r.u32_at(pos + 8)};
      if (e.offset % 4 != 0 || e.offset >= s.code.size() ||
          (!s.lines.empty() && e.offset < s.lines.back().offset)) {
        return fail_at(r.at(pos), ErrorCode::kCorrupt, "line entry offset {} is invalid", e.offset);
      }
      s.lines.push_back(e);
    }
  }
  if (pos + 4 > end) return fail_at(r.at(pos), ErrorCode::kUnderflow, "source lines cut off");
  const u32 line_count = r.u32_at(pos);
  pos += 4;
  if (u64{line_count} * 12 > end - pos) {
    return fail_at(r.at(pos - 4), ErrorCode::kCorrupt, "{} source lines do not fit", line_count);
  }
  for (u32 i = 0; i < line_count; ++i) {
    if (pos + 8 > end) return fail_at(r.at(pos), ErrorCode::kUnderflow, "source line cut off");
    const Hash file_hash = r.u32_at(pos);
    const u32 line = r.u32_at(pos + 4);
    const u64 at = pos;
    pos += 8;
    std::string text;
    if (Status st = read_text(pos, end, text); !st) return Unexpected(st.error());
    auto file = lib.symbol(file_hash);
    if (!file) {
      return fail_at(r.at(at), ErrorCode::kCorrupt, "source line's file 0x{:08X} has no symbol",
                     file_hash);
    }
    lib.add_source_line(*file, line, text);
  }
  if (pos != end) {
    return fail_at(r.at(pos), ErrorCode::kTrailingData, "{} unused bytes at the end", end - pos);
  }
  return lib;
}

}  // namespace keel::script
