// The composite data file format (Golden Rules ch. 5) with Keel's additions.
//
// File = [Keel header, 32 bytes][the book's layout, book_length bytes][block table, 16 per block]
//
//   Keel header  magic "KPAK", format version, header size, book_length, flags, a hash64 checksum
//                of the indices plus the block table, a hash64 checksum of the dictionary.
//   book layout  master index (20-byte header + 12-byte entries, sorted by name hash), block
//                indices (16-byte header + 16-byte entries sorted by the 64-bit key
//                name hash << 32 | locator id), block data as stored (raw or compressed),
//                optional names dictionary. Every offset in the book's worked example shifts by
//                exactly kFileHeaderSize.
//   block table  per block: stored length, compression, hash64 of the stored bytes.
//
// All integers are little-endian on disk on every host. The records below are encoded and decoded
// field by field (encode_*/decode_*), never memcpy'd, so the host's layout does not matter.
#pragma once

#include "keel/core/hash.h"
#include "keel/core/types.h"

#include <array>
#include <compare>
#include <span>
#include <string_view>

namespace keel::pack {

// A 32-bit locator id: block id (= block type) in the low 16 bits, chunk number in the high 16
// bits. Chunk numbers start at 1 in every file the writer makes, so value 0 is the null locator.
struct LocatorId {
  u32 value = 0;

  static constexpr LocatorId make(u16 block, u16 chunk) {
    return LocatorId{static_cast<u32>(block) | (static_cast<u32>(chunk) << 16)};
  }
  constexpr u16 block_id() const { return static_cast<u16>(value & 0xFFFFu); }
  constexpr u16 chunk() const { return static_cast<u16>(value >> 16); }
  constexpr bool is_null() const { return value == 0; }
  friend constexpr auto operator<=>(LocatorId, LocatorId) = default;
};
static_assert(sizeof(LocatorId) == 4);

enum class Compression : u8 { kNone = 0, kZstd = 1, kZlib = 2 };
std::string_view to_string(Compression compression);

// Asset names and asset type names hash with the book's case-folding HASH (filename_hash: A-Z
// fold to a-z, '/' equals '\'), which reproduces the spec's values: HASH("face") = 0x0CD871E5,
// HASH("Texture") = 0x8E9F4C94.
constexpr Hash name_hash(std::string_view name) { return filename_hash(name); }
constexpr Hash type_hash(std::string_view type_name) { return filename_hash(type_name); }

// The 64-bit key that orders a block index: name hash in the high half, locator id in the low.
constexpr u64 chunk_key(Hash name, LocatorId locator) {
  return (static_cast<u64>(name) << 32) | locator.value;
}

inline constexpr std::array<u8, 4> kMagic = {'K', 'P', 'A', 'K'};
inline constexpr u16 kFormatVersion = 1;
inline constexpr u32 kMaxAlignment = 64 * 1024;  // largest chunk / block alignment
inline constexpr usize kMaxBlocks = 0x10000;     // block ids are 16 bits

// What a reader (PackFile, Loader) checks and the limits it applies before allocating.
struct ReadOptions {
  bool verify_checksums = true;
  u64 max_block_length = u64{1} << 30;  // one block once loaded
  u64 max_total_length = u64{4} << 30;  // all blocks once loaded
};

// ---- on-disk records ------------------------------------------------------------------------

struct FileHeader {  // 32 bytes at offset 0
  u16 version = kFormatVersion;
  u16 header_size = 32;
  u32 book_length = 0;          // bytes from the end of this header to the block table
  u32 flags = 0;                // reserved, 0
  u64 index_checksum = 0;       // hash64 over master index + block indices + block table
  u64 dictionary_checksum = 0;  // hash64 over the dictionary (0 when there is none)
};
inline constexpr usize kFileHeaderSize = 32;

struct MasterIndexHeader {  // 20 bytes: the book's MasterIndex
  u32 index_length = 0;     // 20 + 12 * num_items
  u32 total_block_index_length = 0;
  u32 dictionary_length = 0;
  u32 num_blocks = 0;
  u32 num_items = 0;
};
inline constexpr usize kMasterIndexHeaderSize = 20;

struct MasterIndexEntry {  // 12 bytes: the book's MasterIndexEntry
  Hash name_hash = 0;
  Hash type_hash = 0;
  LocatorId primary_chunk;
};
inline constexpr usize kMasterIndexEntrySize = 12;

struct BlockIndexHeader {  // 16 bytes: the book's BlockIndex
  u32 block_type = 0;      // = block id of every locator in the block (<= 0xFFFF)
  u32 block_alignment = 1;
  u32 block_length = 0;  // bytes once loaded (uncompressed)
  u32 num_items = 0;
};
inline constexpr usize kBlockIndexHeaderSize = 16;

struct BlockIndexEntry {  // 16 bytes: the book's BlockIndexEntry
  Hash name_hash = 0;
  LocatorId locator_id;
  u32 block_offset = 0;
  u32 data_length = 0;
};
inline constexpr usize kBlockIndexEntrySize = 16;

struct BlockStorage {     // 16 bytes: Keel's block table entry, one per block, in block order
  u32 stored_length = 0;  // bytes in the file (compressed size, or block_length when raw)
  Compression compression = Compression::kNone;
  u64 checksum = 0;  // hash64 of the stored bytes
};
inline constexpr usize kBlockStorageSize = 16;

void encode(const FileHeader& header, std::span<u8, kFileHeaderSize> out);
void encode(const MasterIndexHeader& header, std::span<u8, kMasterIndexHeaderSize> out);
void encode(const MasterIndexEntry& entry, std::span<u8, kMasterIndexEntrySize> out);
void encode(const BlockIndexHeader& header, std::span<u8, kBlockIndexHeaderSize> out);
void encode(const BlockIndexEntry& entry, std::span<u8, kBlockIndexEntrySize> out);
void encode(const BlockStorage& storage, std::span<u8, kBlockStorageSize> out);

// Decoders do not validate values (index.h does); FileHeader's decoder reports a wrong magic.
bool decode(std::span<const u8, kFileHeaderSize> in, FileHeader& out);
MasterIndexHeader decode_master_header(std::span<const u8, kMasterIndexHeaderSize> in);
MasterIndexEntry decode_master_entry(std::span<const u8, kMasterIndexEntrySize> in);
BlockIndexHeader decode_block_header(std::span<const u8, kBlockIndexHeaderSize> in);
BlockIndexEntry decode_block_entry(std::span<const u8, kBlockIndexEntrySize> in);
BlockStorage decode_block_storage(std::span<const u8, kBlockStorageSize> in);

// Little-endian helpers used by the encoders (and by tests that poke at bytes).
constexpr u32 load_u32(const u8* p) {
  return static_cast<u32>(p[0]) | (static_cast<u32>(p[1]) << 8) | (static_cast<u32>(p[2]) << 16) |
         (static_cast<u32>(p[3]) << 24);
}
constexpr void store_u32(u8* p, u32 v) {
  p[0] = static_cast<u8>(v);
  p[1] = static_cast<u8>(v >> 8);
  p[2] = static_cast<u8>(v >> 16);
  p[3] = static_cast<u8>(v >> 24);
}

}  // namespace keel::pack
