// PackWriter: builds one composite data file (an intermediate file of the build tool, or a final
// one). The book's IOutputFile: add_chunk copies the data and returns its locator id, add_item
// adds the master-index entry, write() (the book's Close) writes the file atomically.
//
//   PackWriter w;
//   LocatorId pixels = w.add_chunk("face", kVideoBlock, pixel_bytes, 16);
//   LocatorId header = w.add_chunk("face", kMetaBlock, header_bytes);   // may embed `pixels`
//   w.add_item("face", type_hash("Texture"), header);
//   keel::Status s = w.write("face.kpk");
//
// Large chunks need not be in memory: add_file_chunk (a file's bytes) and add_streamed_chunk (any
// producer) record where the bytes come from, and write()/write_to() copy them into the pack in
// pieces of kStreamPiece bytes, hashing and compressing piece by piece. merge_packs streams whole
// blocks of its inputs the same way (append_streamed_block). So writing a pack holds one piece
// buffer and the compressor's small buffers, however large its blocks are.
//
// Blocks: one per block type (block id = block type), chunks appended in call order, each padded
// (with zeros) to its alignment; block alignment = the largest chunk alignment in it. Chunk
// numbers count from 1 over the whole file. Data errors (more than 65535 chunks, a block over
// 4 GiB, two names with the same hash, an item whose primary chunk is not its own) are reported
// by write()/to_bytes(); programmer errors (alignment not a power of two, or over
// kMaxAlignment) assert in debug builds and are kInvalidArgument from write()/to_bytes().
#pragma once

#include "keel/core/bytes.h"
#include "keel/core/error.h"
#include "keel/pack/compression.h"
#include "keel/pack/format.h"

#include <cstddef>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace keel::pack {

struct WriterOptions {
  Compression compression = Compression::kZstd;
  int level = 3;  // 0 = the method's default
  bool write_dictionary = true;
};

// Streamed data is read in pieces of this size.
inline constexpr usize kStreamPiece = usize{1} << 20;

// Bytes a chunk or block copies from elsewhere when the file is written, not when it is added:
// `produce` hands exactly `length` bytes to its sink, in pieces of at most kStreamPiece bytes,
// and stops at the first error (its own or the sink's). It may run more than once (a block that
// compression does not shrink is written again raw), so it must produce the same bytes each time.
struct StreamedBytes {
  u64 length = 0;
  std::function<Status(const ByteSink&)> produce;
};

// Where write_to() puts a file: bytes appended in order; cut back (truncate) to write a block
// again raw when compression did not shrink it; the header overwritten (write_at offset 0) last,
// once the stored sizes and checksums are known. A failed write_to() leaves garbage: discard it.
class PackOutput {
 public:
  virtual Status append(ByteSpan bytes) = 0;
  virtual Status truncate(u64 size) = 0;
  virtual Status write_at(u64 offset, ByteSpan bytes) = 0;

 protected:
  ~PackOutput() = default;
};

class PackWriter {
 public:
  explicit PackWriter(WriterOptions options = {});

  LocatorId add_chunk(std::string_view asset_name, u16 block_type, ByteSpan data,
                      u32 alignment = 4);
  // A chunk holding the whole file at `path`, copied when the pack is written (its size is taken
  // now: a file that then has another size fails the write). A file that cannot be stat-ed is a
  // sticky kIo error naming it.
  LocatorId add_file_chunk(std::string_view asset_name, u16 block_type,
                           const std::filesystem::path& path, u32 alignment = 4);
  LocatorId add_streamed_chunk(std::string_view asset_name, u16 block_type, StreamedBytes bytes,
                               u32 alignment = 4);
  void add_item(std::string_view asset_name, u32 type_hash, LocatorId primary);

  Status write(const std::filesystem::path& out);  // atomic: temporary file + rename
  Result<ByteBuffer> to_bytes();                   // streamed chunks end up in memory here
  Status write_to(PackOutput& out);                // the one writing path; the others call it
  bool has_streamed_data() const { return streamed_ != 0; }

  usize chunk_count() const { return chunk_count_; }
  usize item_count() const { return items_.size(); }

  // ---- for merge_packs: whole blocks of an existing file, locator ids untouched --------------
  struct RawChunk {
    Hash name_hash = 0;
    LocatorId locator;
    u32 block_offset = 0;  // within `data`
    u32 length = 0;
  };
  // Appends `data` to the block of `block_type` at an offset aligned to `alignment`; every
  // chunk's offset moves by that base. Fails on key collisions or overflow (sticky).
  void append_block(u16 block_type, u32 alignment, ByteSpan data, std::span<const RawChunk> chunks);
  // Same, with the block's bytes produced when the file is written (merge_packs: an input's
  // block through PackFile::stream_block).
  void append_streamed_block(u16 block_type, u32 alignment, StreamedBytes data,
                             std::span<const RawChunk> chunks);
  // An item by hash; `name` may be empty (unknown).
  void add_item_hashed(Hash name_hash, std::string_view name, u32 type_hash, LocatorId primary);

 private:
  // A block is a list of segments at increasing offsets; the gaps between them are zero padding.
  struct Segment {
    u64 offset = 0;
    ByteBuffer bytes;        // in memory, or
    StreamedBytes streamed;  // produced when written (streamed.produce set)
    u64 length() const { return streamed.produce ? streamed.length : bytes.size(); }
  };
  struct Block {
    u32 alignment = 1;
    u64 length = 0;
    std::vector<Segment> segments;
    std::vector<BlockIndexEntry> entries;
  };
  struct Item {
    MasterIndexEntry entry;
    std::string name;
  };

  void note_name(Hash hash, std::string_view name);
  void set_error(Error error);
  Status validate();
  bool check_alignment(u32 alignment);  // false (and a sticky error) if unusable
  // Reserves `length` bytes at the next offset aligned to `alignment`; nullopt (and a sticky
  // error) past 4 GiB.
  std::optional<u32> reserve(Block& block, u64 length, u32 alignment);
  static void place(Block& block, u32 offset, ByteSpan data);
  LocatorId new_chunk(std::string_view asset_name, u16 block_type, u64 length, u32 alignment,
                      const std::function<void(Block&, u32)>& fill);
  void new_block_part(u16 block_type, u32 alignment, u64 length, std::span<const RawChunk> chunks,
                      const std::function<void(Block&, u32)>& fill);
  static Status produce_block(const Block& block, const ByteSink& sink);

  WriterOptions options_;
  std::map<u16, Block> blocks_;  // ordered by block type = file order
  std::vector<Item> items_;
  std::map<Hash, std::string> names_;  // every name seen, for collision checks and the dictionary
  usize chunk_count_ = 0;
  usize streamed_ = 0;  // segments produced at write time
  u32 next_chunk_ = 1;
  std::optional<Error> error_;  // first data error; reported by write()/to_bytes()
};

}  // namespace keel::pack
