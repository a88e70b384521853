#include "keel/pack/detail/index.h"

#include "keel/pack/compression.h"

#include <algorithm>
#include <bit>

namespace keel::pack {
namespace {

Unexpected corrupt(const std::string& label, u64 offset, std::string message) {
  return Unexpected(
      Error(ErrorCode::kCorrupt, std::move(message), SourceLocation::bytes(label, offset)));
}

bool known(Compression c) {
  return c == Compression::kNone || c == Compression::kZstd || c == Compression::kZlib;
}

// File offsets of the book's parts.
constexpr u64 kMasterOffset = kFileHeaderSize;

}  // namespace

Result<FileHeader> PackIndex::parse_header(std::span<const u8> first_bytes, u64 file_size,
                                           const std::string& label) {
  if (first_bytes.size() < kFileHeaderSize || file_size < kFileHeaderSize) {
    return fail_at(SourceLocation::bytes(label, 0), ErrorCode::kUnderflow,
                   "file of {} bytes is too short for a pack header", file_size);
  }
  FileHeader header;
  if (!decode(first_bytes.first<kFileHeaderSize>(), header)) {
    return corrupt(label, 0, "not a Keel pack file (bad magic)");
  }
  if (header.version == 0) return corrupt(label, 4, "format version 0");
  if (header.version > kFormatVersion) {
    return fail_at(SourceLocation::bytes(label, 4), ErrorCode::kUnsupported,
                   "format version {} is newer than this reader ({})", header.version,
                   kFormatVersion);
  }
  if (header.header_size != kFileHeaderSize) {
    return corrupt(label, 6,
                   fmt::format("header size {}, expected {}", header.header_size, kFileHeaderSize));
  }
  if (header.flags != 0) return corrupt(label, 12, "unknown flags set");
  if (kFileHeaderSize + u64{header.book_length} > file_size) {
    return fail_at(SourceLocation::bytes(label, 8), ErrorCode::kUnderflow,
                   "file is truncated: {} bytes, the header promises at least {}", file_size,
                   kFileHeaderSize + u64{header.book_length});
  }
  return header;
}

Result<MasterIndexHeader> PackIndex::parse_master_header(std::span<const u8> bytes,
                                                         const FileHeader& header, u64 file_size,
                                                         const std::string& label) {
  if (bytes.size() < kMasterIndexHeaderSize || header.book_length < kMasterIndexHeaderSize) {
    return fail_at(SourceLocation::bytes(label, kMasterOffset), ErrorCode::kUnderflow,
                   "file too short for a master index");
  }
  const MasterIndexHeader m = decode_master_header(bytes.first<kMasterIndexHeaderSize>());
  if (u64{m.index_length} != kMasterIndexHeaderSize + u64{m.num_items} * kMasterIndexEntrySize) {
    return corrupt(
        label, kMasterOffset,
        fmt::format("index length {} does not match {} items", m.index_length, m.num_items));
  }
  if (m.num_blocks > kMaxBlocks) {
    return corrupt(label, kMasterOffset + 12,
                   fmt::format("the master index declares {} blocks, more than a pack can hold "
                               "({}): the file is damaged or not a Keel pack; rebuild it",
                               m.num_blocks, kMaxBlocks));
  }
  const u64 fixed = u64{m.index_length} + m.total_block_index_length + m.dictionary_length;
  if (fixed > header.book_length) {
    return corrupt(label, kMasterOffset,
                   fmt::format("indices and dictionary ({} bytes) exceed the layout ({} bytes)",
                               fixed, header.book_length));
  }
  if (u64{m.total_block_index_length} < u64{m.num_blocks} * kBlockIndexHeaderSize) {
    return corrupt(label, kMasterOffset + 4, "block index length too small for its blocks");
  }
  const u64 expected =
      kFileHeaderSize + u64{header.book_length} + u64{m.num_blocks} * kBlockStorageSize;
  if (file_size != expected) {
    return fail_at(SourceLocation::bytes(label, std::min(file_size, expected)),
                   file_size < expected ? ErrorCode::kUnderflow : ErrorCode::kTrailingData,
                   "file size {} does not match the {} bytes its header describes", file_size,
                   expected);
  }
  return m;
}

Result<PackIndex> PackIndex::parse(const FileHeader& header, std::span<const u8> master,
                                   std::span<const u8> block_indices,
                                   std::span<const u8> block_table, u64 file_size,
                                   const ReadOptions& options, const std::string& label) {
  auto m = parse_master_header(master, header, file_size, label);
  if (!m) return std::unexpected(m.error());
  PackIndex index;
  index.file_header_ = header;
  index.master_ = *m;
  index.verify_checksums_ = options.verify_checksums;
  if (master.size() != m->index_length || block_indices.size() != m->total_block_index_length ||
      block_table.size() != u64{m->num_blocks} * kBlockStorageSize) {
    return fail(ErrorCode::kInvalidArgument, "{}: index spans do not match the header", label);
  }
  index.master_bytes_ = master;
  index.block_index_bytes_ = block_indices;

  if (options.verify_checksums) {
    Hasher64 hasher;
    hasher.update(master.data(), master.size());
    hasher.update(block_indices.data(), block_indices.size());
    hasher.update(block_table.data(), block_table.size());
    if (hasher.digest() != header.index_checksum) {
      return corrupt(label, 16, "index checksum mismatch (the indices are damaged)");
    }
  }

  // Master entries: strictly ascending name hashes.
  for (usize i = 1; i < m->num_items; ++i) {
    if (index.item(i).name_hash <= index.item(i - 1).name_hash) {
      return corrupt(label, kMasterOffset + kMasterIndexHeaderSize + i * kMasterIndexEntrySize,
                     "master index is not strictly sorted by name hash");
    }
  }

  // Block indices and the block table.
  const u64 block_index_base = kMasterOffset + m->index_length;
  u64 stored_offset = block_index_base + m->total_block_index_length;
  const u64 data_end = kFileHeaderSize + u64{header.book_length} - m->dictionary_length;
  usize pos = 0;
  index.blocks_.reserve(m->num_blocks);
  for (u32 b = 0; b < m->num_blocks; ++b) {
    const u64 where = block_index_base + pos;
    if (block_indices.size() - pos < kBlockIndexHeaderSize) {
      return corrupt(label, where, "block indices end inside a block header");
    }
    BlockView view;
    view.header = decode_block_header(block_indices.subspan(pos).first<kBlockIndexHeaderSize>());
    view.index_offset = pos;
    const BlockIndexHeader& h = view.header;
    if (h.block_type > 0xFFFF) {
      return corrupt(label, where, fmt::format("block type {} is not 16 bits", h.block_type));
    }
    if (b > 0 && h.block_type <= index.blocks_.back().header.block_type) {
      return corrupt(label, where, "blocks are not strictly sorted by type");
    }
    if (!std::has_single_bit(h.block_alignment) || h.block_alignment > kMaxAlignment) {
      return corrupt(label, where + 4, fmt::format("block alignment {}", h.block_alignment));
    }
    const u64 entries_size = u64{h.num_items} * kBlockIndexEntrySize;
    if (entries_size > block_indices.size() - pos - kBlockIndexHeaderSize) {
      return corrupt(label, where + 12,
                     fmt::format("{} entries overrun the block indices", h.num_items));
    }
    pos += kBlockIndexHeaderSize + static_cast<usize>(entries_size);

    const u8* t = block_table.data() + usize{b} * kBlockStorageSize;
    const u64 table_where = kFileHeaderSize + u64{header.book_length} + u64{b} * kBlockStorageSize;
    view.storage =
        decode_block_storage(std::span<const u8, kBlockStorageSize>(t, kBlockStorageSize));
    if (t[5] != 0 || t[6] != 0 || t[7] != 0) {
      return corrupt(label, table_where + 5, "reserved bytes in the block table are not 0");
    }
    const BlockStorage& s = view.storage;
    if (!known(s.compression)) {
      return corrupt(label, table_where + 4,
                     fmt::format("unknown compression {}", static_cast<int>(s.compression)));
    }
    if (s.compression == Compression::kNone && s.stored_length != h.block_length) {
      return corrupt(label, table_where, "raw block stored with a different length");
    }
    if (h.block_length > max_expansion(s.compression, s.stored_length)) {
      return corrupt(label, where + 8,
                     fmt::format("block of {} bytes cannot come from {} {} bytes", h.block_length,
                                 s.stored_length, to_string(s.compression)));
    }
    if (h.block_length > options.max_block_length) {
      return fail_at(SourceLocation::bytes(label, where + 8), ErrorCode::kOutOfRange,
                     "block of {} bytes exceeds the limit of {}", h.block_length,
                     options.max_block_length);
    }
    index.total_block_length_ += h.block_length;
    if (index.total_block_length_ > options.max_total_length) {
      return fail_at(SourceLocation::bytes(label, where + 8), ErrorCode::kOutOfRange,
                     "blocks total more than the limit of {} bytes", options.max_total_length);
    }
    if (s.stored_length > data_end - stored_offset) {
      return corrupt(label, table_where, "stored block data overruns the file layout");
    }
    view.stored_offset = stored_offset;
    stored_offset += s.stored_length;

    // Entries: sorted keys, locators of this block, chunks inside the block.
    u64 previous_key = 0;
    for (u32 i = 0; i < h.num_items; ++i) {
      const BlockIndexEntry e = index.entry(view, i);
      const u64 entry_where = where + kBlockIndexHeaderSize + u64{i} * kBlockIndexEntrySize;
      const u64 key = chunk_key(e.name_hash, e.locator_id);
      if (i > 0 && key <= previous_key) {
        return corrupt(label, entry_where, "block index is not strictly sorted by key");
      }
      previous_key = key;
      if (e.locator_id.block_id() != h.block_type || e.locator_id.chunk() == 0) {
        return corrupt(label, entry_where + 4,
                       fmt::format("locator 0x{:08X} does not belong to block {}",
                                   e.locator_id.value, h.block_type));
      }
      if (u64{e.block_offset} + e.data_length > h.block_length) {
        return corrupt(label, entry_where + 8, "chunk extends past the end of its block");
      }
    }
    index.blocks_.push_back(view);
  }
  if (pos != block_indices.size()) {
    return corrupt(label, block_index_base + pos, "block indices have bytes left over");
  }
  if (stored_offset != data_end) {
    return corrupt(label, stored_offset, "stored block data does not fill the file layout");
  }
  index.dictionary_offset_ = data_end;

  // Primary chunks resolve to a chunk of their own asset.
  for (usize i = 0; i < m->num_items; ++i) {
    const MasterIndexEntry e = index.item(i);
    if (e.primary_chunk.is_null()) continue;
    if (!index.find_chunk(e.name_hash, e.primary_chunk)) {
      return corrupt(label, kMasterOffset + kMasterIndexHeaderSize + i * kMasterIndexEntrySize + 8,
                     fmt::format("primary chunk 0x{:08X} of asset 0x{:08X} does not exist",
                                 e.primary_chunk.value, e.name_hash));
    }
  }
  return index;
}

MasterIndexEntry PackIndex::item(usize i) const {
  const usize at = kMasterIndexHeaderSize + i * kMasterIndexEntrySize;
  return decode_master_entry(master_bytes_.subspan(at).first<kMasterIndexEntrySize>());
}

std::optional<usize> PackIndex::find_item(Hash name_hash) const {
  usize lo = 0;
  usize hi = master_.num_items;
  while (lo < hi) {
    const usize mid = lo + (hi - lo) / 2;
    const Hash h = item(mid).name_hash;
    if (h == name_hash) return mid;
    if (h < name_hash) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return std::nullopt;
}

const BlockView* PackIndex::find_block(u16 block_id) const {
  auto it = std::lower_bound(blocks_.begin(), blocks_.end(), block_id,
                             [](const BlockView& b, u16 id) { return b.header.block_type < id; });
  if (it == blocks_.end() || it->header.block_type != block_id) return nullptr;
  return &*it;
}

BlockIndexEntry PackIndex::entry(const BlockView& block, usize i) const {
  const usize at = block.index_offset + kBlockIndexHeaderSize + i * kBlockIndexEntrySize;
  return decode_block_entry(block_index_bytes_.subspan(at).first<kBlockIndexEntrySize>());
}

std::optional<BlockIndexEntry> PackIndex::find_chunk(Hash name_hash, LocatorId locator) const {
  const BlockView* block = find_block(locator.block_id());
  if (block == nullptr) return std::nullopt;
  const u64 key = chunk_key(name_hash, locator);
  usize lo = 0;
  usize hi = block->header.num_items;
  while (lo < hi) {
    const usize mid = lo + (hi - lo) / 2;
    const BlockIndexEntry e = entry(*block, mid);
    const u64 k = chunk_key(e.name_hash, e.locator_id);
    if (k == key) return e;
    if (k < key) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return std::nullopt;
}

Result<std::vector<std::string>> PackIndex::parse_dictionary(std::span<const u8> bytes,
                                                             const std::string& label) const {
  if (bytes.size() != master_.dictionary_length) {
    return fail(ErrorCode::kInvalidArgument, "{}: dictionary span has the wrong size", label);
  }
  std::vector<std::string> names;
  if (master_.dictionary_length == 0) return names;
  if (verify_checksums_ && hash64(bytes.data(), bytes.size()) != file_header_.dictionary_checksum) {
    return corrupt(label, dictionary_offset_, "dictionary checksum mismatch");
  }
  names.reserve(master_.num_items);
  usize pos = 0;
  for (usize i = 0; i < master_.num_items; ++i) {
    const auto* begin = bytes.data() + pos;
    const auto* end = std::find(begin, bytes.data() + bytes.size(), u8{0});
    if (end == bytes.data() + bytes.size()) {
      return corrupt(label, dictionary_offset_ + pos,
                     fmt::format("dictionary ends inside name {} of {}", i + 1, master_.num_items));
    }
    std::string name =
        keel::to_string(as_bytes(std::span<const u8>(begin, static_cast<usize>(end - begin))));
    if (!name.empty() && name_hash(name) != item(i).name_hash) {
      return corrupt(label, dictionary_offset_ + pos,
                     fmt::format("dictionary name '{}' does not match its hash 0x{:08X}", name,
                                 item(i).name_hash));
    }
    pos += name.size() + 1;
    names.push_back(std::move(name));
  }
  if (pos != bytes.size()) {
    return corrupt(label, dictionary_offset_ + pos, "dictionary has bytes left over");
  }
  return names;
}

}  // namespace keel::pack
