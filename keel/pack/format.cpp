#include "keel/pack/format.h"

#include <algorithm>

namespace keel::pack {
namespace {

void store_u16(u8* p, u16 v) {
  p[0] = static_cast<u8>(v);
  p[1] = static_cast<u8>(v >> 8);
}
u16 load_u16(const u8* p) { return static_cast<u16>(p[0] | (p[1] << 8)); }
void store_u64(u8* p, u64 v) {
  store_u32(p, static_cast<u32>(v));
  store_u32(p + 4, static_cast<u32>(v >> 32));
}
u64 load_u64(const u8* p) { return load_u32(p) | (static_cast<u64>(load_u32(p + 4)) << 32); }

}  // namespace

std::string_view to_string(Compression compression) {
  switch (compression) {
    case Compression::kNone: return "none";
    case Compression::kZstd: return "zstd";
    case Compression::kZlib: return "zlib";
  }
  return "unknown";
}

void encode(const FileHeader& header, std::span<u8, kFileHeaderSize> out) {
  u8* p = out.data();
  std::copy(kMagic.begin(), kMagic.end(), p);
  store_u16(p + 4, header.version);
  store_u16(p + 6, header.header_size);
  store_u32(p + 8, header.book_length);
  store_u32(p + 12, header.flags);
  store_u64(p + 16, header.index_checksum);
  store_u64(p + 24, header.dictionary_checksum);
}

void encode(const MasterIndexHeader& header, std::span<u8, kMasterIndexHeaderSize> out) {
  u8* p = out.data();
  store_u32(p, header.index_length);
  store_u32(p + 4, header.total_block_index_length);
  store_u32(p + 8, header.dictionary_length);
  store_u32(p + 12, header.num_blocks);
  store_u32(p + 16, header.num_items);
}

void encode(const MasterIndexEntry& entry, std::span<u8, kMasterIndexEntrySize> out) {
  u8* p = out.data();
  store_u32(p, entry.name_hash);
  store_u32(p + 4, entry.type_hash);
  store_u32(p + 8, entry.primary_chunk.value);
}

void encode(const BlockIndexHeader& header, std::span<u8, kBlockIndexHeaderSize> out) {
  u8* p = out.data();
  store_u32(p, header.block_type);
  store_u32(p + 4, header.block_alignment);
  store_u32(p + 8, header.block_length);
  store_u32(p + 12, header.num_items);
}

void encode(const BlockIndexEntry& entry, std::span<u8, kBlockIndexEntrySize> out) {
  u8* p = out.data();
  store_u32(p, entry.name_hash);
  store_u32(p + 4, entry.locator_id.value);
  store_u32(p + 8, entry.block_offset);
  store_u32(p + 12, entry.data_length);
}

void encode(const BlockStorage& storage, std::span<u8, kBlockStorageSize> out) {
  u8* p = out.data();
  store_u32(p, storage.stored_length);
  p[4] = static_cast<u8>(storage.compression);
  p[5] = p[6] = p[7] = 0;
  store_u64(p + 8, storage.checksum);
}

bool decode(std::span<const u8, kFileHeaderSize> in, FileHeader& out) {
  const u8* p = in.data();
  if (!std::equal(kMagic.begin(), kMagic.end(), p)) return false;
  out.version = load_u16(p + 4);
  out.header_size = load_u16(p + 6);
  out.book_length = load_u32(p + 8);
  out.flags = load_u32(p + 12);
  out.index_checksum = load_u64(p + 16);
  out.dictionary_checksum = load_u64(p + 24);
  return true;
}

MasterIndexHeader decode_master_header(std::span<const u8, kMasterIndexHeaderSize> in) {
  const u8* p = in.data();
  return MasterIndexHeader{load_u32(p), load_u32(p + 4), load_u32(p + 8), load_u32(p + 12),
                           load_u32(p + 16)};
}

MasterIndexEntry decode_master_entry(std::span<const u8, kMasterIndexEntrySize> in) {
  const u8* p = in.data();
  return MasterIndexEntry{load_u32(p), load_u32(p + 4), LocatorId{load_u32(p + 8)}};
}

BlockIndexHeader decode_block_header(std::span<const u8, kBlockIndexHeaderSize> in) {
  const u8* p = in.data();
  return BlockIndexHeader{load_u32(p), load_u32(p + 4), load_u32(p + 8), load_u32(p + 12)};
}

BlockIndexEntry decode_block_entry(std::span<const u8, kBlockIndexEntrySize> in) {
  const u8* p = in.data();
  return BlockIndexEntry{load_u32(p), LocatorId{load_u32(p + 4)}, load_u32(p + 8),
                         load_u32(p + 12)};
}

BlockStorage decode_block_storage(std::span<const u8, kBlockStorageSize> in) {
  const u8* p = in.data();
  // Bytes 5..7 are reserved; the compression byte is validated by the index parser (an unknown
  // value stays unknown here, it is not masked into a known one).
  return BlockStorage{load_u32(p), static_cast<Compression>(p[4]), load_u64(p + 8)};
}

}  // namespace keel::pack
