// A compiled set of scripts: name hash -> command stream, plus the texts of the names and strings
// the scripts use and, optionally, debug information (a line table per script and the source
// lines it points at).
//
//   std::vector<std::byte> bytes = library.to_bytes();
//   keel::Result<Library> back = Library::from_bytes(bytes);   // fully validated
//   const Script* s = back->find(keel::string_hash("patrol"));
//
// File layout (all fields little-endian, every section 4-byte aligned) - see README.md:
//   header    "KSCR" u16 version(1) u16 flags(bit 0: debug info) u32 script_count
//             u32 symbol_count u32 file_size
//   scripts   script_count x { u32 name_hash  u32 code_offset  u32 code_size  u32 line_count }
//   code      each script's commands (code_size bytes, a multiple of 4)
//   symbols   symbol_count x { u32 hash  u32 length  bytes, zero-padded to 4 }
//   debug     per script: u32 file_symbol (hash of the file name), line_count x
//             { u32 offset  u32 line  u32 column }; then u32 source_line_count and per line
//             { u32 file_hash  u32 line  u32 length  bytes, padded }
#pragma once

#include "keel/core/error.h"
#include "keel/core/hash.h"
#include "keel/core/types.h"
#include "keel/script/commands.h"

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace keel::script {

// One entry per compiled command: the command at `offset` came from `line`:`column`.
struct LineEntry {
  u32 offset = 0;
  u32 line = 0;
  u32 column = 0;
};

struct Script {
  Hash name_hash = 0;
  std::string name;  // empty when the library has no symbol for it
  std::vector<std::byte> code;
  std::string file;              // debug info: the source file (may be empty)
  std::vector<LineEntry> lines;  // debug info, sorted by offset (may be empty)

  std::span<const std::byte> bytes() const { return code; }
  // The entry of the command at or before `offset`; nullptr without debug info.
  const LineEntry* line_at(u32 offset) const;
};

struct SourceLine {
  Hash file_hash = 0;
  u32 line = 0;
  std::string text;
};

inline constexpr u16 kLibraryVersion = 1;
inline constexpr u32 kLibraryMagic = 0x5243534B;  // "KSCR" read as a little-endian u32

class Library {
 public:
  // Scripts in source order (the first is a tool's default).
  const std::vector<Script>& scripts() const { return scripts_; }
  usize size() const { return scripts_.size(); }
  bool empty() const { return scripts_.empty(); }
  const Script* find(Hash name_hash) const;
  const Script* find(std::string_view name) const { return find(string_hash(name)); }
  // Index of a script in scripts(), or -1.
  s32 index_of(Hash name_hash) const;

  // The text of a hashed name or string, if the library has it.
  std::optional<std::string_view> symbol(Hash hash) const;
  void add_symbol(std::string_view text);  // no-op when known

  // A source line kept for the disassembler and debugger ("" when not kept).
  std::string_view source_line(std::string_view file, u32 line) const;
  void add_source_line(std::string_view file, u32 line, std::string_view text);
  bool has_debug_info() const;
  void strip_debug_info();

  // Adds a script. The code is not checked: the Machine checks every command as it runs it
  // (tests and fuzzers use this to run arbitrary bytes). Errors: the name's hash is taken.
  Status add_script(Script script);
  // Adds every script and symbol of `other`. Errors: a script name hash both define.
  Status merge(const Library& other);

  std::vector<std::byte> to_bytes() const;
  // Reads a library, checking everything: header, sizes, offsets, alignment, duplicate names,
  // every command's length and IF layout (nested blocks inside their IF), the line tables and
  // the symbol texts. Errors carry the byte offset of the problem. `name` names the data in
  // error messages.
  static Result<Library> from_bytes(std::span<const std::byte> bytes, std::string_view name = {});

 private:
  std::vector<Script> scripts_;
  std::vector<std::pair<Hash, u32>> by_hash_;          // sorted (hash, index)
  std::vector<std::pair<Hash, std::string>> symbols_;  // sorted by hash
  std::vector<SourceLine> source_lines_;
};

// Checks a command stream's structure: every length a multiple of 4, at least 4 and inside its
// enclosing block; built-in commands of their exact sizes; IF layout. With `commands`, game
// commands too: at least their fixed size, and their conditional commands (if the signature
// allows them) checked like an IF's block. Unknown opcodes are accepted (skipped by length).
// The error's offset is relative to the stream.
Status validate_stream(std::span<const std::byte> code, const CommandSet* commands = nullptr);

}  // namespace keel::script
