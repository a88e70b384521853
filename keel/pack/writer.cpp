#include "keel/pack/writer.h"

#include "keel/core/assert.h"
#include "keel/core/file.h"
#include "keel/pack/compression.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>

namespace keel::pack {
namespace {

constexpr u64 kMaxU32 = std::numeric_limits<u32>::max();

// Names that hash alike because the hash folds them (case, '/' vs '\') are the same asset.
bool same_name(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (usize i = 0; i < a.size(); ++i) {
    if (filename_hash(a.substr(i, 1)) != filename_hash(b.substr(i, 1))) return false;
  }
  return true;
}

struct StoredBlock {
  BlockIndexHeader header;
  std::vector<BlockIndexEntry> entries;
  ByteSpan raw;
  ByteBuffer compressed;
  BlockStorage storage;
  ByteSpan stored() const {
    return storage.compression == Compression::kNone ? raw : std::span(compressed);
  }
};

struct Plan {
  std::vector<u8> head;  // file header + master index + block indices
  std::vector<StoredBlock> blocks;
  std::vector<u8> dictionary;
  std::vector<u8> table;
  u64 size() const {
    u64 n = head.size() + dictionary.size() + table.size();
    for (const StoredBlock& b : blocks) n += b.storage.stored_length;
    return n;
  }
};

template <usize N>
std::span<u8, N> slot(std::vector<u8>& out) {
  const usize at = out.size();
  out.resize(at + N);
  return std::span<u8, N>(out.data() + at, N);
}

}  // namespace

PackWriter::PackWriter(WriterOptions options) : options_(options) {}

void PackWriter::set_error(Error error) {
  if (!error_) error_ = std::move(error);
}

void PackWriter::note_name(Hash hash, std::string_view name) {
  if (name.empty()) return;
  auto [it, inserted] = names_.try_emplace(hash, name);
  if (!inserted && !same_name(it->second, name)) {
    set_error(Error(ErrorCode::kAlreadyExists,
                    fmt::format("asset names '{}' and '{}' have the same hash 0x{:08X}", it->second,
                                name, hash)));
  }
}

u32 PackWriter::append_aligned(Block& block, ByteSpan data, u32 alignment) {
  const u64 offset = (u64{block.data.size()} + alignment - 1) & ~(u64{alignment} - 1);
  if (offset + data.size() > kMaxU32) {
    set_error(Error(ErrorCode::kOverflow, "a block would exceed 4 GiB"));
    return 0;
  }
  block.data.resize(static_cast<usize>(offset), std::byte{0});
  block.data.insert(block.data.end(), data.begin(), data.end());
  block.alignment = std::max(block.alignment, alignment);
  return static_cast<u32>(offset);
}

bool PackWriter::check_alignment(u32 alignment) {
  const bool good = std::has_single_bit(alignment) && alignment <= kMaxAlignment;
  KEEL_ASSERT(good, "chunk alignment {} is not a power of two up to {}", alignment, kMaxAlignment);
  if (!good) {
    set_error(Error(
        ErrorCode::kInvalidArgument,
        fmt::format("alignment {} is not a power of two up to {}", alignment, kMaxAlignment)));
  }
  return good;
}

LocatorId PackWriter::add_chunk(std::string_view asset_name, u16 block_type, ByteSpan data,
                                u32 alignment) {
  if (!check_alignment(alignment) || error_) return LocatorId{};
  if (next_chunk_ > 0xFFFF) {
    set_error(Error(ErrorCode::kOverflow, "more than 65535 chunks in one file"));
    return LocatorId{};
  }
  const Hash hash = name_hash(asset_name);
  note_name(hash, asset_name);
  Block& block = blocks_[block_type];
  const u32 offset = append_aligned(block, data, alignment);
  if (error_) return LocatorId{};
  const LocatorId locator = LocatorId::make(block_type, static_cast<u16>(next_chunk_++));
  block.entries.push_back(BlockIndexEntry{hash, locator, offset, static_cast<u32>(data.size())});
  ++chunk_count_;
  return locator;
}

void PackWriter::add_item(std::string_view asset_name, u32 type_hash, LocatorId primary) {
  add_item_hashed(name_hash(asset_name), asset_name, type_hash, primary);
}

void PackWriter::add_item_hashed(Hash hash, std::string_view name, u32 type_hash,
                                 LocatorId primary) {
  note_name(hash, name);
  items_.push_back(Item{MasterIndexEntry{hash, type_hash, primary}, std::string(name)});
}

void PackWriter::append_block(u16 block_type, u32 alignment, ByteSpan data,
                              std::span<const RawChunk> chunks) {
  if (!check_alignment(alignment) || error_) return;
  Block& block = blocks_[block_type];
  const u32 base = append_aligned(block, data, alignment);
  if (error_) return;
  for (const RawChunk& c : chunks) {
    if (u64{c.block_offset} + c.length > data.size()) {
      set_error(Error(ErrorCode::kCorrupt, fmt::format("chunk at {} + {} lies outside its {}-byte "
                                                       "block",
                                                       c.block_offset, c.length, data.size())));
      return;
    }
    if (c.locator.block_id() != block_type) {
      set_error(Error(ErrorCode::kCorrupt, fmt::format("locator 0x{:08X} is not in block {}",
                                                       c.locator.value, block_type)));
      return;
    }
    block.entries.push_back(
        BlockIndexEntry{c.name_hash, c.locator, base + c.block_offset, c.length});
    ++chunk_count_;
  }
}

Status PackWriter::validate() {
  if (error_) return Unexpected(*error_);
  std::sort(items_.begin(), items_.end(),
            [](const Item& a, const Item& b) { return a.entry.name_hash < b.entry.name_hash; });
  for (usize i = 1; i < items_.size(); ++i) {
    if (items_[i].entry.name_hash == items_[i - 1].entry.name_hash) {
      return fail(ErrorCode::kAlreadyExists, "asset '{}' (0x{:08X}) is added twice",
                  items_[i].name.empty() ? items_[i - 1].name : items_[i].name,
                  items_[i].entry.name_hash);
    }
  }
  for (auto& [type, block] : blocks_) {
    std::sort(block.entries.begin(), block.entries.end(),
              [](const BlockIndexEntry& a, const BlockIndexEntry& b) {
                return chunk_key(a.name_hash, a.locator_id) < chunk_key(b.name_hash, b.locator_id);
              });
    for (usize i = 1; i < block.entries.size(); ++i) {
      const BlockIndexEntry& e = block.entries[i];
      if (chunk_key(e.name_hash, e.locator_id) ==
          chunk_key(block.entries[i - 1].name_hash, block.entries[i - 1].locator_id)) {
        return fail(ErrorCode::kAlreadyExists, "chunk 0x{:08X} of asset 0x{:08X} is defined twice",
                    e.locator_id.value, e.name_hash);
      }
    }
  }
  for (const Item& item : items_) {
    const LocatorId primary = item.entry.primary_chunk;
    if (primary.is_null()) continue;
    auto block = blocks_.find(primary.block_id());
    const bool found =
        block != blocks_.end() &&
        std::binary_search(block->second.entries.begin(), block->second.entries.end(),
                           BlockIndexEntry{item.entry.name_hash, primary, 0, 0},
                           [](const BlockIndexEntry& a, const BlockIndexEntry& b) {
                             return chunk_key(a.name_hash, a.locator_id) <
                                    chunk_key(b.name_hash, b.locator_id);
                           });
    if (!found) {
      return fail(ErrorCode::kNotFound,
                  "asset '{}': primary chunk 0x{:08X} is not one of its chunks", item.name,
                  primary.value);
    }
  }
  if (items_.size() > (kMaxU32 - kMasterIndexHeaderSize) / kMasterIndexEntrySize) {
    return fail(ErrorCode::kOverflow, "too many assets");
  }
  return ok();
}

namespace {

// A block compressed through a StreamCompressor whose sink gives up as soon as the output is no
// smaller than the raw block: incompressible data (already compressed textures or sounds) costs
// one output buffer's worth of work, not a whole compression. None: store the block raw.
Result<std::optional<ByteBuffer>> compress_block(const WriterOptions& options, ByteSpan raw) {
  constexpr usize kBuffer = usize{64} << 10;
  ByteBuffer packed;
  bool no_gain = false;
  auto sink = [&](ByteSpan piece) -> Status {
    if (packed.size() + piece.size() >= raw.size()) {
      no_gain = true;
      return fail(ErrorCode::kRefused, "compression does not help");
    }
    packed.insert(packed.end(), piece.begin(), piece.end());
    return ok();
  };
  auto compressor =
      StreamCompressor::create(options.compression, options.level, kBuffer, sink, raw.size());
  if (!compressor) return std::unexpected(compressor.error());
  Status s = compressor->write(raw);
  if (s) s = compressor->finish();
  if (no_gain) return std::optional<ByteBuffer>();
  if (!s) return std::unexpected(s.error());
  return std::optional<ByteBuffer>(std::move(packed));
}

Result<Plan> make_plan(const WriterOptions& options, auto& blocks, auto& items, auto& names) {
  Plan plan;
  MasterIndexHeader master;
  master.num_items = static_cast<u32>(items.size());
  master.num_blocks = static_cast<u32>(blocks.size());
  master.index_length =
      static_cast<u32>(kMasterIndexHeaderSize + items.size() * kMasterIndexEntrySize);

  u64 block_index_length = 0;
  u64 stored_total = 0;
  for (auto& [type, block] : blocks) {
    block_index_length += kBlockIndexHeaderSize + block.entries.size() * kBlockIndexEntrySize;
    StoredBlock stored;
    stored.header = BlockIndexHeader{type, block.alignment, static_cast<u32>(block.data.size()),
                                     static_cast<u32>(block.entries.size())};
    stored.raw = ByteSpan(block.data);
    stored.storage.compression = Compression::kNone;
    if (options.compression != Compression::kNone && !block.data.empty()) {
      auto packed = compress_block(options, stored.raw);
      if (!packed) return std::unexpected(packed.error());
      if (*packed) {  // else store raw: compression did not help
        stored.compressed = std::move(**packed);
        stored.storage.compression = options.compression;
      }
    }
    const ByteSpan bytes = stored.stored();
    stored.storage.stored_length = static_cast<u32>(bytes.size());
    stored.storage.checksum = hash64(bytes.data(), bytes.size());
    stored_total += bytes.size();
    stored.entries = block.entries;
    plan.blocks.push_back(std::move(stored));
  }

  if (options.write_dictionary && !items.empty()) {
    for (const auto& item : items) {
      std::string_view name = item.name;
      if (name.empty()) {
        auto it = names.find(item.entry.name_hash);
        if (it != names.end()) name = it->second;
      }
      plan.dictionary.insert(plan.dictionary.end(), name.begin(), name.end());
      plan.dictionary.push_back(0);
    }
  }
  const u64 book =
      u64{master.index_length} + block_index_length + stored_total + plan.dictionary.size();
  if (book > kMaxU32) {
    return fail(ErrorCode::kOverflow, "pack layout of {} bytes exceeds 4 GiB", book);
  }
  master.total_block_index_length = static_cast<u32>(block_index_length);
  master.dictionary_length = static_cast<u32>(plan.dictionary.size());

  FileHeader header;
  header.book_length = static_cast<u32>(book);
  plan.head.reserve(kFileHeaderSize + master.index_length + block_index_length);
  slot<kFileHeaderSize>(plan.head);  // filled in last, once the checksums are known
  encode(master, slot<kMasterIndexHeaderSize>(plan.head));
  for (const auto& item : items) encode(item.entry, slot<kMasterIndexEntrySize>(plan.head));
  for (const StoredBlock& b : plan.blocks) {
    encode(b.header, slot<kBlockIndexHeaderSize>(plan.head));
    for (const BlockIndexEntry& e : b.entries) encode(e, slot<kBlockIndexEntrySize>(plan.head));
  }
  for (const StoredBlock& b : plan.blocks) encode(b.storage, slot<kBlockStorageSize>(plan.table));

  Hasher64 hasher;
  hasher.update(plan.head.data() + kFileHeaderSize, plan.head.size() - kFileHeaderSize);
  hasher.update(plan.table.data(), plan.table.size());
  header.index_checksum = hasher.digest();
  header.dictionary_checksum =
      plan.dictionary.empty() ? 0 : hash64(plan.dictionary.data(), plan.dictionary.size());
  encode(header, std::span<u8, kFileHeaderSize>(plan.head.data(), kFileHeaderSize));
  return plan;
}

}  // namespace

Result<ByteBuffer> PackWriter::to_bytes() {
  if (auto s = validate(); !s) return std::unexpected(s.error());
  auto plan = make_plan(options_, blocks_, items_, names_);
  if (!plan) return std::unexpected(plan.error());
  ByteBuffer out;
  out.reserve(static_cast<usize>(plan->size()));
  auto append = [&out](const void* data, usize size) {
    const auto* p = static_cast<const std::byte*>(data);
    out.insert(out.end(), p, p + size);
  };
  append(plan->head.data(), plan->head.size());
  for (const StoredBlock& b : plan->blocks) append(b.stored().data(), b.stored().size());
  append(plan->dictionary.data(), plan->dictionary.size());
  append(plan->table.data(), plan->table.size());
  return out;
}

Status PackWriter::write(const std::filesystem::path& out) {
  if (auto s = validate(); !s) return s;
  auto plan = make_plan(options_, blocks_, items_, names_);
  if (!plan) return std::unexpected(plan.error());
  AtomicFileWriter file;
  if (auto s = file.open(out); !s) return s;
  if (auto s = file.write(plan->head.data(), plan->head.size()); !s) return s;
  for (const StoredBlock& b : plan->blocks) {
    if (auto s = file.write(b.stored().data(), b.stored().size()); !s) return s;
  }
  if (auto s = file.write(plan->dictionary.data(), plan->dictionary.size()); !s) return s;
  if (auto s = file.write(plan->table.data(), plan->table.size()); !s) return s;
  return file.commit();
}

}  // namespace keel::pack
