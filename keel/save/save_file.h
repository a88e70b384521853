// A save or load session (Golden Rules ch. 8.7-8.9, the book's SAVEFILE).
//
// Save (seven steps): begin_save(path) → set_header(...) / put(...) → declare_block(...) for
// every memory block pointers may point into → declare_object(root) → process_objects() →
// end(status). The file is written at end(), atomically (temporary file, fsync, rename).
//
// Load (nine steps): begin_load(path) (reads the whole file, verifies checksums and the version)
// → header() → the game loads the level without creating objects → declare_block(...) in the
// same order → process_objects() (creates the objects, checks the block hash, restores them) →
// end(status) → take_objects(). A load either restores everything or changes nothing: objects
// are created by the session and handed over only when the whole file has been read.
//
// Errors are sticky: after the first failure every call returns it and end() reports it.
// A SaveFile must not outlive its SaveSystem: when it is destroyed (or begins another session)
// it hands its buffers back to the system for the next session.
#pragma once

#include "keel/core/bytes.h"
#include "keel/core/error.h"
#include "keel/core/types.h"
#include "keel/save/format.h"
#include "keel/save/save_object.h"
#include "keel/save/system.h"

#include <filesystem>
#include <memory>
#include <type_traits>
#include <vector>

namespace keel::save {

struct SaveOptions {
  Compression compression = Compression::kZstd;
  int level = 0;  // zstd level, 0 = default
};

class SaveFile {
 public:
  explicit SaveFile(const SaveSystem& system);
  ~SaveFile();
  SaveFile(const SaveFile&) = delete;
  SaveFile& operator=(const SaveFile&) = delete;

  // Begin(filename, loading). An empty path saves to memory (see bytes()).
  Status begin_save(const std::filesystem::path& path, SaveOptions options = {});
  Status begin_load(const std::filesystem::path& path, LoadLimits limits = {});
  // A file in memory, copied (or decoded) into the session: `file` may go away after the call.
  Status begin_load_bytes(ByteSpan file, LoadLimits limits = {});
  // A file in memory read in place when its body is not compressed (no copy: the fastest load).
  // `file` must stay valid and unchanged until end(); a temporary buffer here reads freed memory,
  // so this is a separate, explicit call.
  Status begin_load_in_place(ByteSpan file, LoadLimits limits = {});
  // End(returnThisError): finishes the session (writes the file when saving and everything
  // succeeded) and returns `result` if it is an error, else the session's own status.
  Status end(Status result = {});

  // The client header: set before end() when saving; available after begin_load().
  void set_header(ClientHeader header);
  const ClientHeader& header() const;

  // PutData/GetData: client data between object sets, or an object's custom data inside its
  // save()/load() hooks. put() during pre-save is refused.
  Status put(ByteSpan data);
  Status get(MutableByteSpan data);
  template <class T>
  Status put_value(const T& value) {
    static_assert(std::is_trivially_copyable_v<T>);
    return put(std::as_bytes(std::span(&value, 1)));
  }
  template <class T>
  Status get_value(T& value) {
    static_assert(std::is_trivially_copyable_v<T>);
    return get(std::as_writable_bytes(std::span(&value, 1)));
  }

  // Loading: at most how many bytes get() can still return (what is left of the save's body; 0
  // outside a load). A reader checks a count read from the file against it before allocating.
  u64 readable_bound() const;

  // Memory blocks (1-based index returned; 0 on error). Declare client blocks before objects.
  u32 declare_block(const void* base, usize length);
  // Savable objects (1-based index). Declaring one twice returns its index.
  u32 declare_object(SaveObject* object);
  // Runs the pre-save/save or create/pre-load/load passes over the declared objects, then
  // clears both lists so another set may follow.
  Status process_objects();

  // The template passes of one object (its most-derived template), used by the default hooks.
  Status pre_save_template(SaveObject& object);
  Status save_template(SaveObject& object);
  Status pre_load_template(SaveObject& object);
  Status load_template(SaveObject& object);

  // After a successful load's end(): every loaded object in file order, owned by the caller.
  std::vector<std::unique_ptr<SaveObject>> take_objects();
  // Objects loaded by the last process_objects() (owned by the session until take_objects()).
  std::span<SaveObject* const> loaded() const;

  // The encoded file after a successful end() of a save to memory.
  const ByteBuffer& bytes() const;
  // The uncompressed object stream (for tests and tools): a save's; a load's when it was decoded
  // or copied (begin_load(path), begin_load_bytes(), or compressed), else empty (read in place).
  ByteSpan body() const;
  // 1-based index of each declared object in the current set; 0 if not declared.
  usize object_count() const;
  usize block_count() const;
  Status status() const;

  struct Impl;

 private:
  Status begin_load_from(ByteSpan file, LoadLimits limits, bool view);
  std::unique_ptr<Impl> impl_;
};

}  // namespace keel::save
