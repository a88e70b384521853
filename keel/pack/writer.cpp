#include "keel/pack/writer.h"

#include "keel/core/assert.h"
#include "keel/core/file.h"
#include "keel/pack/compression.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cerrno>
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

// The whole file at `path` into `sink`, read in kStreamPiece pieces; its size must still be the
// one add_file_chunk saw (checked by the caller's count) and must not change while it is read.
Status stream_file(const std::filesystem::path& path, const ByteSink& sink) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return fail(ErrorCode::kIo, "cannot open `{}`: {}", path.string(), std::strerror(errno));
  }
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    return fail(ErrorCode::kIo, "cannot stat `{}`: {}", path.string(), std::strerror(errno));
  }
  const u64 size = static_cast<u64>(st.st_size);
  ByteBuffer buffer(static_cast<usize>(std::min<u64>(kStreamPiece, std::max<u64>(size, 1))));
  for (u64 at = 0; at < size;) {
    const usize want = static_cast<usize>(std::min<u64>(buffer.size(), size - at));
    const ssize_t n = ::pread(fd, buffer.data(), want, static_cast<off_t>(at));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      return fail(ErrorCode::kIo, "cannot read `{}`: {}", path.string(), std::strerror(errno));
    }
    if (n == 0) {
      return fail(ErrorCode::kCorrupt, "`{}` shrank to {} bytes while it was packed", path.string(),
                  at);
    }
    if (auto s = sink(ByteSpan(buffer).first(static_cast<usize>(n))); !s) return s;
    at += static_cast<u64>(n);
  }
  return ok();
}

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

std::optional<u32> PackWriter::reserve(Block& block, u64 length, u32 alignment) {
  const u64 offset = (block.length + alignment - 1) & ~(u64{alignment} - 1);
  if (offset + length > kMaxU32) {
    set_error(Error(ErrorCode::kOverflow, "a block would exceed 4 GiB"));
    return std::nullopt;
  }
  block.length = offset + length;
  block.alignment = std::max(block.alignment, alignment);
  return static_cast<u32>(offset);
}

void PackWriter::place(Block& block, u32 offset, ByteSpan data) {
  if (data.empty()) return;
  if (block.segments.empty() || block.segments.back().streamed.produce) {
    block.segments.push_back(Segment{offset, ByteBuffer(data.begin(), data.end()), {}});
    return;
  }
  Segment& last = block.segments.back();  // in memory: pad it up to the offset and append
  last.bytes.resize(static_cast<usize>(offset - last.offset), std::byte{0});
  last.bytes.insert(last.bytes.end(), data.begin(), data.end());
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

LocatorId PackWriter::new_chunk(std::string_view asset_name, u16 block_type, u64 length,
                                u32 alignment, const std::function<void(Block&, u32)>& fill) {
  if (!check_alignment(alignment) || error_) return LocatorId{};
  if (next_chunk_ > 0xFFFF) {
    set_error(Error(ErrorCode::kOverflow, "more than 65535 chunks in one file"));
    return LocatorId{};
  }
  const Hash hash = name_hash(asset_name);
  note_name(hash, asset_name);
  Block& block = blocks_[block_type];
  const std::optional<u32> offset = reserve(block, length, alignment);
  if (!offset || error_) return LocatorId{};
  fill(block, *offset);
  const LocatorId locator = LocatorId::make(block_type, static_cast<u16>(next_chunk_++));
  block.entries.push_back(BlockIndexEntry{hash, locator, *offset, static_cast<u32>(length)});
  ++chunk_count_;
  return locator;
}

LocatorId PackWriter::add_chunk(std::string_view asset_name, u16 block_type, ByteSpan data,
                                u32 alignment) {
  return new_chunk(asset_name, block_type, data.size(), alignment,
                   [data](Block& block, u32 offset) { place(block, offset, data); });
}

LocatorId PackWriter::add_streamed_chunk(std::string_view asset_name, u16 block_type,
                                         StreamedBytes bytes, u32 alignment) {
  if (!bytes.produce) {
    set_error(Error(ErrorCode::kInvalidArgument, "a streamed chunk without a producer"));
    return LocatorId{};
  }
  return new_chunk(asset_name, block_type, bytes.length, alignment,
                   [this, &bytes](Block& block, u32 offset) {
                     if (bytes.length == 0) return;
                     block.segments.push_back(Segment{offset, {}, std::move(bytes)});
                     ++streamed_;
                   });
}

LocatorId PackWriter::add_file_chunk(std::string_view asset_name, u16 block_type,
                                     const std::filesystem::path& path, u32 alignment) {
  std::error_code ec;
  const u64 size = std::filesystem::file_size(path, ec);
  if (ec) {
    set_error(
        Error(ErrorCode::kIo, fmt::format("cannot read `{}`: {}", path.string(), ec.message())));
    return LocatorId{};
  }
  auto produce = [path](const ByteSink& sink) -> Status { return stream_file(path, sink); };
  return add_streamed_chunk(asset_name, block_type, StreamedBytes{size, std::move(produce)},
                            alignment);
}

void PackWriter::add_item(std::string_view asset_name, u32 type_hash, LocatorId primary) {
  add_item_hashed(name_hash(asset_name), asset_name, type_hash, primary);
}

void PackWriter::add_item_hashed(Hash hash, std::string_view name, u32 type_hash,
                                 LocatorId primary) {
  note_name(hash, name);
  items_.push_back(Item{MasterIndexEntry{hash, type_hash, primary}, std::string(name)});
}

void PackWriter::new_block_part(u16 block_type, u32 alignment, u64 length,
                                std::span<const RawChunk> chunks,
                                const std::function<void(Block&, u32)>& fill) {
  if (!check_alignment(alignment) || error_) return;
  for (const RawChunk& c : chunks) {
    if (u64{c.block_offset} + c.length > length) {
      set_error(Error(ErrorCode::kCorrupt, fmt::format("chunk at {} + {} lies outside its {}-byte "
                                                       "block",
                                                       c.block_offset, c.length, length)));
      return;
    }
    if (c.locator.block_id() != block_type) {
      set_error(Error(ErrorCode::kCorrupt, fmt::format("locator 0x{:08X} is not in block {}",
                                                       c.locator.value, block_type)));
      return;
    }
  }
  Block& block = blocks_[block_type];
  const std::optional<u32> base = reserve(block, length, alignment);
  if (!base || error_) return;
  fill(block, *base);
  for (const RawChunk& c : chunks) {
    block.entries.push_back(
        BlockIndexEntry{c.name_hash, c.locator, *base + c.block_offset, c.length});
    ++chunk_count_;
  }
}

void PackWriter::append_block(u16 block_type, u32 alignment, ByteSpan data,
                              std::span<const RawChunk> chunks) {
  new_block_part(block_type, alignment, data.size(), chunks,
                 [data](Block& block, u32 offset) { place(block, offset, data); });
}

void PackWriter::append_streamed_block(u16 block_type, u32 alignment, StreamedBytes data,
                                       std::span<const RawChunk> chunks) {
  if (!data.produce) {
    set_error(Error(ErrorCode::kInvalidArgument, "a streamed block without a producer"));
    return;
  }
  new_block_part(block_type, alignment, data.length, chunks, [this, &data](Block& block, u32 at) {
    if (data.length == 0) return;
    block.segments.push_back(Segment{at, {}, std::move(data)});
    ++streamed_;
  });
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

constexpr std::array<std::byte, 4096> kZeros{};

Status zeros(u64 count, const ByteSink& sink) {
  while (count > 0) {
    const usize n = static_cast<usize>(std::min<u64>(count, kZeros.size()));
    if (auto s = sink(ByteSpan(kZeros).first(n)); !s) return s;
    count -= n;
  }
  return ok();
}

// Writes into a buffer (to_bytes).
class BufferOutput final : public PackOutput {
 public:
  explicit BufferOutput(ByteBuffer& out) : out_(out) {}
  Status append(ByteSpan bytes) override {
    out_.insert(out_.end(), bytes.begin(), bytes.end());
    return ok();
  }
  Status truncate(u64 size) override {
    out_.resize(static_cast<usize>(size));
    return ok();
  }
  Status write_at(u64 offset, ByteSpan bytes) override {
    std::copy(bytes.begin(), bytes.end(), out_.begin() + static_cast<std::ptrdiff_t>(offset));
    return ok();
  }

 private:
  ByteBuffer& out_;
};

// Writes the temporary file of an atomic write (write).
class AtomicOutput final : public PackOutput {
 public:
  explicit AtomicOutput(AtomicFileWriter& file) : file_(file) {}
  Status append(ByteSpan bytes) override { return file_.write(bytes.data(), bytes.size()); }
  Status truncate(u64 size) override { return file_.truncate(size); }
  Status write_at(u64 offset, ByteSpan bytes) override {
    return file_.write_at(offset, bytes.data(), bytes.size());
  }

 private:
  AtomicFileWriter& file_;
};

}  // namespace

Status PackWriter::produce_block(const Block& block, const ByteSink& sink) {
  u64 at = 0;
  for (const Segment& segment : block.segments) {
    if (auto s = zeros(segment.offset - at, sink); !s) return s;
    if (segment.streamed.produce) {
      u64 produced = 0;
      const u64 length = segment.streamed.length;
      Status s = segment.streamed.produce([&](ByteSpan piece) -> Status {
        if (produced + piece.size() > length) {
          return fail(ErrorCode::kCorrupt,
                      "streamed data is longer than the {} bytes it had when it was added "
                      "(did the file change?)",
                      length);
        }
        produced += piece.size();
        return sink(piece);
      });
      if (!s) return s;
      if (produced != length) {
        return fail(ErrorCode::kCorrupt,
                    "streamed data has {} bytes, not the {} it had when it was added (did the "
                    "file change?)",
                    produced, length);
      }
    } else if (auto s = sink(segment.bytes); !s) {
      return s;
    }
    at = segment.offset + segment.length();
  }
  return zeros(block.length - at, sink);
}

Status PackWriter::write_to(PackOutput& out) {
  if (auto s = validate(); !s) return s;
  MasterIndexHeader master;
  master.num_items = static_cast<u32>(items_.size());
  master.num_blocks = static_cast<u32>(blocks_.size());
  master.index_length =
      static_cast<u32>(kMasterIndexHeaderSize + items_.size() * kMasterIndexEntrySize);
  u64 block_index_length = 0;
  for (const auto& [type, block] : blocks_) {
    block_index_length += kBlockIndexHeaderSize + block.entries.size() * kBlockIndexEntrySize;
  }
  std::vector<u8> dictionary;
  if (options_.write_dictionary && !items_.empty()) {
    for (const Item& item : items_) {
      std::string_view name = item.name;
      if (name.empty()) {
        auto it = names_.find(item.entry.name_hash);
        if (it != names_.end()) name = it->second;
      }
      dictionary.insert(dictionary.end(), name.begin(), name.end());
      dictionary.push_back(0);
    }
  }
  // Everything but the stored blocks is known before they are written; the stored sizes only
  // after, so the header (book length, index checksum over the block table) is written last.
  const u64 fixed = u64{master.index_length} + block_index_length + dictionary.size();
  if (fixed > kMaxU32) return fail(ErrorCode::kOverflow, "pack indices exceed 4 GiB");
  master.total_block_index_length = static_cast<u32>(block_index_length);
  master.dictionary_length = static_cast<u32>(dictionary.size());

  std::vector<u8> head;
  head.reserve(static_cast<usize>(kFileHeaderSize + master.index_length + block_index_length));
  slot<kFileHeaderSize>(head);  // written last
  encode(master, slot<kMasterIndexHeaderSize>(head));
  for (const Item& item : items_) encode(item.entry, slot<kMasterIndexEntrySize>(head));
  for (const auto& [type, block] : blocks_) {
    encode(BlockIndexHeader{type, block.alignment, static_cast<u32>(block.length),
                            static_cast<u32>(block.entries.size())},
           slot<kBlockIndexHeaderSize>(head));
    for (const BlockIndexEntry& e : block.entries) encode(e, slot<kBlockIndexEntrySize>(head));
  }

  u64 size = 0;
  auto append = [&](ByteSpan bytes) -> Status {
    size += bytes.size();
    return out.append(bytes);
  };
  if (auto s = append(as_bytes(std::span<const u8>(head))); !s) return s;

  std::vector<u8> table;
  u64 stored_total = 0;
  for (const auto& [type, block] : blocks_) {
    const u64 start = size;
    std::optional<BlockStorage> storage;
    if (options_.compression != Compression::kNone && block.length > 0) {
      // The compressed stream goes straight to the output; the sink gives up as soon as it is no
      // smaller than the raw block (incompressible data costs one buffer's worth of work), and
      // the block is then cut off and written again raw.
      constexpr usize kBuffer = usize{64} << 10;
      Hasher64 hasher;
      u64 packed = 0;
      bool no_gain = false;
      auto sink = [&](ByteSpan piece) -> Status {
        if (packed + piece.size() >= block.length) {
          no_gain = true;
          return fail(ErrorCode::kRefused, "compression does not help");
        }
        packed += piece.size();
        hasher.update(piece.data(), piece.size());
        return append(piece);
      };
      auto compressor = StreamCompressor::create(options_.compression, options_.level, kBuffer,
                                                 sink, block.length);
      if (!compressor) return std::unexpected(compressor.error());
      Status s = produce_block(block, [&](ByteSpan piece) { return compressor->write(piece); });
      if (s) s = compressor->finish();
      if (no_gain) {
        if (auto t = out.truncate(start); !t) return t;
        size = start;
      } else if (!s) {
        return s;
      } else {
        storage = BlockStorage{static_cast<u32>(packed), options_.compression, hasher.digest()};
      }
    }
    if (!storage) {
      Hasher64 hasher;
      Status s = produce_block(block, [&](ByteSpan piece) -> Status {
        hasher.update(piece.data(), piece.size());
        return append(piece);
      });
      if (!s) return s;
      storage = BlockStorage{static_cast<u32>(block.length), Compression::kNone, hasher.digest()};
    }
    stored_total += storage->stored_length;
    encode(*storage, slot<kBlockStorageSize>(table));
  }
  const u64 book = fixed + stored_total;
  if (book > kMaxU32) {
    return fail(ErrorCode::kOverflow, "pack layout of {} bytes exceeds 4 GiB", book);
  }
  if (auto s = append(as_bytes(std::span<const u8>(dictionary))); !s) return s;
  if (auto s = append(as_bytes(std::span<const u8>(table))); !s) return s;

  FileHeader header;
  header.book_length = static_cast<u32>(book);
  Hasher64 hasher;
  hasher.update(head.data() + kFileHeaderSize, head.size() - kFileHeaderSize);
  hasher.update(table.data(), table.size());
  header.index_checksum = hasher.digest();
  header.dictionary_checksum =
      dictionary.empty() ? 0 : hash64(dictionary.data(), dictionary.size());
  std::array<u8, kFileHeaderSize> bytes{};
  encode(header, std::span<u8, kFileHeaderSize>(bytes));
  return out.write_at(0, as_bytes(std::span<const u8>(bytes)));
}

Result<ByteBuffer> PackWriter::to_bytes() {
  ByteBuffer bytes;
  if (streamed_ == 0) {  // a hint: the blocks stored raw plus small indices
    u64 raw = 0;
    for (const auto& [type, block] : blocks_) raw += block.length;
    if (raw < kMaxU32) bytes.reserve(static_cast<usize>(raw) + 4096);
  }
  BufferOutput out(bytes);
  if (auto s = write_to(out); !s) return std::unexpected(s.error());
  return bytes;
}

Status PackWriter::write(const std::filesystem::path& out) {
  if (auto s = validate(); !s) return s;  // nothing created for a writer that cannot succeed
  AtomicFileWriter file;
  if (auto s = file.open(out); !s) return s;
  AtomicOutput output(file);
  if (auto s = write_to(output); !s) return s;  // the destructor discards the temporary
  return file.commit();
}

}  // namespace keel::pack
