// The compiled FSM file: one or more FSMs, each with its state table, event handlers (DWORD
// command streams, opcodes.h), a string dictionary for debugging, the list of functions it
// calls and the names of its type's behaviour bits.
//
//   auto image = fsm::compile(doc->first(), types, diag);          // compiler.h
//   ByteBuffer bytes = image->to_bytes();                          // what goes on disk
//   Result<CompiledFsms> loaded = CompiledFsms::from_bytes(bytes); // validated: never trust a file
//
// from_bytes() checks every offset, count, string, sort order and command stream, so code that
// reads a loaded image (FsmLibrary, FsmInstance) needs no further checks. Layout (all fields u32,
// little-endian, offsets in words from the start of the file unless noted):
//
//   header   magic 'KFSM', version, word count, fsm count, fsm table, string pool (word offset),
//            string pool size (bytes), 0
//   fsm      name, type, parent, initial state, run event (hashes); name, type, parent, initial
//            (string offsets: bytes into the pool, kNoString = none); state count + table of
//            (hash, record) sorted by hash; dictionary count + (hash, string) sorted; function
//            count + sorted hashes; behaviour count + strings (bit order); 0
//   state    name, behaviours, name string, options (bit 0 orphan), flag count + flag-name
//            strings, event count + (event hash, stream) sorted by hash
//   streams  command words (opcodes.h), each handler ending with End
//   strings  NUL-terminated UTF-8, padded to 4 bytes
#pragma once

#include "keel/core/bytes.h"
#include "keel/core/error.h"
#include "keel/core/hash.h"
#include "keel/core/types.h"
#include "keel/fsm/opcodes.h"

#include <cstddef>
#include <filesystem>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace keel::fsm {

inline constexpr u32 kFileMagic = 0x4D53464Bu;  // "KFSM" in little-endian byte order
inline constexpr u32 kFileVersion = 1;
inline constexpr u32 kNoString = 0xFFFFFFFFu;
inline constexpr u32 kHeaderWords = 8;
inline constexpr u32 kFsmRecordWords = 18;
inline constexpr u32 kStateRecordWords = 8;
inline constexpr u32 kStateOrphan = 0x1;

class CompiledFsms;

// Read access to one state of a compiled image (valid while the image lives).
class StateView {
 public:
  StateView() = default;
  StateView(const CompiledFsms& image, u32 record) : image_(&image), record_(record) {}

  Hash name_hash() const;
  std::string_view name() const;
  u32 behaviors() const;
  bool orphan() const;
  u32 flag_count() const;
  std::string_view flag_name(u32 bit) const;  // the flag mapped to bit `bit` (0-based)
  u32 event_count() const;
  Hash event_hash(u32 index) const;  // sorted ascending
  // The handler's stream: from its first word to the end of the image (it ends with End).
  std::span<const u32> handler(u32 index) const;
  std::optional<std::span<const u32>> find_handler(Hash event) const;
  u32 handler_offset(u32 index) const;  // word offset in the image

 private:
  const CompiledFsms* image_ = nullptr;
  u32 record_ = 0;
};

// Read access to one FSM of a compiled image.
class FsmView {
 public:
  FsmView() = default;
  FsmView(const CompiledFsms& image, u32 record) : image_(&image), record_(record) {}

  Hash name_hash() const;
  Hash type_hash() const;
  Hash initial_state_hash() const;
  Hash run_event_hash() const;
  bool has_parent() const;
  Hash parent_hash() const;  // meaningful when has_parent()
  std::string_view name() const;
  std::string_view type() const;
  std::string_view parent() const;  // empty when there is none
  std::string_view initial_state() const;

  u32 state_count() const;
  StateView state(u32 index) const;  // sorted by name hash
  std::optional<StateView> find_state(Hash name) const;

  u32 dictionary_size() const;
  Hash dictionary_hash(u32 index) const;
  std::string_view dictionary_string(u32 index) const;
  std::optional<std::string_view> lookup(Hash hash) const;  // the dictionary

  std::span<const u32> functions() const;  // sorted hashes of every function it calls
  u32 behavior_count() const;
  std::string_view behavior_name(u32 bit) const;

  const CompiledFsms& image() const { return *image_; }
  u32 record() const { return record_; }

 private:
  const CompiledFsms* image_ = nullptr;
  u32 record_ = 0;
};

class CompiledFsms {
 public:
  CompiledFsms() = default;

  // The file image, little-endian on every host.
  ByteBuffer to_bytes() const;
  // Validates everything (see the file comment). `name` locates errors ("file: byte 40: ...").
  static Result<CompiledFsms> from_bytes(ByteSpan bytes, std::string_view name = {});
  static Result<CompiledFsms> load_file(const std::filesystem::path& path);
  Status save_file(const std::filesystem::path& path) const;  // atomic: temp file + rename

  u32 fsm_count() const;
  FsmView fsm(u32 index) const;
  std::optional<FsmView> find(std::string_view name) const;
  std::optional<FsmView> find(Hash name) const;

  std::span<const u32> words() const { return words_; }
  u32 word(u32 offset) const { return words_[offset]; }
  // A string of the pool by byte offset (kNoString -> empty).
  std::string_view string_at(u32 offset) const;

  // Wraps words built by the compiler after validating them (programmer error if invalid).
  static CompiledFsms adopt(std::vector<u32> words);

 private:
  std::vector<u32> words_;
  std::vector<char> pool_;  // the string pool as bytes (a vector: moves keep the buffer)
};

// Number of words of the handler starting at stream[0], up to and including its final End.
u32 handler_length(std::span<const u32> stream);

}  // namespace keel::fsm
