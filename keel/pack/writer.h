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
// Blocks: one per block type (block id = block type), chunks appended in call order, each padded
// (with zeros) to its alignment; block alignment = the largest chunk alignment in it. Chunk
// numbers count from 1 over the whole file. Data errors (more than 65535 chunks, a block over
// 4 GiB, two names with the same hash, an item whose primary chunk is not its own) are reported
// by write()/to_bytes(); programmer errors (alignment not a power of two, or over
// kMaxAlignment) assert in debug builds and are kInvalidArgument from write()/to_bytes().
#pragma once

#include "keel/core/bytes.h"
#include "keel/core/error.h"
#include "keel/pack/format.h"

#include <cstddef>
#include <filesystem>
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

class PackWriter {
 public:
  explicit PackWriter(WriterOptions options = {});

  LocatorId add_chunk(std::string_view asset_name, u16 block_type, ByteSpan data,
                      u32 alignment = 4);
  void add_item(std::string_view asset_name, u32 type_hash, LocatorId primary);

  Status write(const std::filesystem::path& out);  // atomic: temporary file + rename
  Result<ByteBuffer> to_bytes();

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
  // An item by hash; `name` may be empty (unknown).
  void add_item_hashed(Hash name_hash, std::string_view name, u32 type_hash, LocatorId primary);

 private:
  struct Block {
    u32 alignment = 1;
    ByteBuffer data;
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
  u32 append_aligned(Block& block, ByteSpan data, u32 alignment);

  WriterOptions options_;
  std::map<u16, Block> blocks_;  // ordered by block type = file order
  std::vector<Item> items_;
  std::map<Hash, std::string> names_;  // every name seen, for collision checks and the dictionary
  usize chunk_count_ = 0;
  u32 next_chunk_ = 1;
  std::optional<Error> error_;  // first data error; reported by write()/to_bytes()
};

}  // namespace keel::pack
