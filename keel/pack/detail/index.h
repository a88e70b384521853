// Internal. PackIndex: the validated view of a pack file's indices, shared by PackFile (tools) and
// Loader.
//
// It reads the raw index bytes in place (no copy of the entries), so the loader can keep them in
// memory from its short-lived allocator. parse() checks everything a hostile file could get
// wrong before anyone allocates or indexes with it:
//   header: magic, version, header size, file size = 32 + book_length + 16 * num_blocks;
//   master index: index_length = 20 + 12 * num_items, entries strictly sorted by name hash,
//     every non-null primary chunk exists and belongs to its asset;
//   block indices: lengths add up to total_block_index_length, block types strictly ascending and
//     <= 0xFFFF, alignment a power of two <= kMaxAlignment, entries strictly sorted by the 64-bit
//     key, every locator's block id = the block's type, every chunk inside its block and
//     aligned as the block's alignment cannot promise (checked: offset + length <= block length);
//   block table: known compression, raw blocks stored at full length, compressed blocks no larger
//     than the method's maximum expansion allows, sizes under ReadOptions' limits, stored data
//     plus dictionary exactly filling the book's layout;
//   checksums (unless disabled): hash64 of master index + block indices + block table.
#pragma once

#include "keel/core/error.h"
#include "keel/pack/format.h"

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace keel::pack {

struct BlockView {
  BlockIndexHeader header;
  BlockStorage storage;
  u64 stored_offset = 0;   // file offset of the stored bytes
  usize index_offset = 0;  // offset of this block's index within the block-index bytes
};

class PackIndex {
 public:
  // Checks the fixed header against the file size. `label` names the file in errors.
  static Result<FileHeader> parse_header(std::span<const u8> first_bytes, u64 file_size,
                                         const std::string& label);
  // The 20-byte master header that follows the file header, checked against the file header.
  static Result<MasterIndexHeader> parse_master_header(std::span<const u8> bytes,
                                                       const FileHeader& header, u64 file_size,
                                                       const std::string& label);
  // `master` = index_length bytes, `block_indices` = total_block_index_length bytes,
  // `block_table` = 16 * num_blocks bytes. The spans must outlive the PackIndex.
  static Result<PackIndex> parse(const FileHeader& header, std::span<const u8> master,
                                 std::span<const u8> block_indices, std::span<const u8> block_table,
                                 u64 file_size, const ReadOptions& options,
                                 const std::string& label);

  const FileHeader& file_header() const { return file_header_; }
  const MasterIndexHeader& master() const { return master_; }
  usize item_count() const { return master_.num_items; }
  MasterIndexEntry item(usize i) const;
  std::optional<usize> find_item(Hash name_hash) const;

  std::span<const BlockView> blocks() const { return blocks_; }
  const BlockView* find_block(u16 block_id) const;
  BlockIndexEntry entry(const BlockView& block, usize i) const;
  std::optional<BlockIndexEntry> find_chunk(Hash name_hash, LocatorId locator) const;

  u64 dictionary_offset() const { return dictionary_offset_; }  // file offset
  u64 total_block_length() const { return total_block_length_; }

  // The names dictionary: one NUL-terminated name per master entry, in master order (empty =
  // unknown). Checked: count, terminators, and each name hashes to its entry's name hash.
  Result<std::vector<std::string>> parse_dictionary(std::span<const u8> bytes,
                                                    const std::string& label) const;

 private:
  FileHeader file_header_;
  MasterIndexHeader master_;
  std::span<const u8> master_bytes_;
  std::span<const u8> block_index_bytes_;
  std::vector<BlockView> blocks_;
  u64 dictionary_offset_ = 0;
  u64 total_block_length_ = 0;
  bool verify_checksums_ = true;
};

}  // namespace keel::pack
