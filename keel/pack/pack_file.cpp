#include "keel/pack/pack_file.h"

#include "keel/core/assert.h"
#include "keel/pack/compression.h"
#include "keel/pack/detail/file_io.h"
#include "keel/pack/detail/index.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>

namespace keel::pack {
namespace {

constexpr usize kPiece = usize{64} << 10;  // checksum and decompress blocks in pieces this big

}  // namespace

using detail::io_error;

// Where the bytes come from: a file descriptor (pread, so const reads share no position) or a
// buffer.
class PackFile::Source {
 public:
  explicit Source(ByteBuffer bytes) : bytes_(std::move(bytes)) {}
  explicit Source(int fd) : fd_(fd) {}
  Source(const Source&) = delete;
  Source& operator=(const Source&) = delete;
  ~Source() {
    if (fd_ >= 0) ::close(fd_);
  }
  Status read_at(const std::string& label, u64 offset, MutableByteSpan out) const {
    if (fd_ < 0) {
      KEEL_ASSERT(offset <= bytes_.size() && out.size() <= bytes_.size() - offset,
                  "PackFile read outside the buffer");
      if (!out.empty()) std::memcpy(out.data(), bytes_.data() + offset, out.size());
      return ok();
    }
    return detail::pread_exact(fd_, offset, out, label);
  }

 private:
  ByteBuffer bytes_;
  int fd_ = -1;
};

PackFile::PackFile() : index_(std::make_unique<PackIndex>()) {}
PackFile::PackFile(PackFile&&) noexcept = default;
PackFile& PackFile::operator=(PackFile&&) noexcept = default;
PackFile::~PackFile() = default;

bool PackFile::has_dictionary() const { return index_->master().dictionary_length != 0; }

Result<PackFile> PackFile::open(const std::filesystem::path& path, ReadOptions options) {
  // Only the indices are read now; block data is read on demand.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return io_error(path.string(), "cannot open for reading");
  PackFile file;
  file.source_ = std::make_unique<Source>(fd);
  file.label_ = path.string();
  struct stat st {};
  if (::fstat(fd, &st) != 0) return io_error(file.label_, "cannot stat");
  file.file_size_ = static_cast<u64>(st.st_size);
  if (auto s = file.init(options); !s) return std::unexpected(s.error());
  return file;
}

Result<PackFile> PackFile::from_bytes(ByteBuffer bytes, std::string label, ReadOptions options) {
  PackFile file;
  file.label_ = std::move(label);
  file.file_size_ = bytes.size();
  file.source_ = std::make_unique<Source>(std::move(bytes));
  if (auto s = file.init(options); !s) return std::unexpected(s.error());
  return file;
}

Status PackFile::read_at(u64 offset, MutableByteSpan out) const {
  return source_->read_at(label_, offset, out);
}

Status PackFile::init(ReadOptions options) {
  options_ = options;
  std::array<std::byte, kFileHeaderSize + kMasterIndexHeaderSize> first{};
  const usize first_size = static_cast<usize>(std::min<u64>(first.size(), file_size_));
  if (auto s = read_at(0, MutableByteSpan(first).first(first_size)); !s) return s;
  const auto head = as_u8(ByteSpan(first).first(first_size));
  auto header = PackIndex::parse_header(head, file_size_, label_);
  if (!header) return std::unexpected(header.error());
  auto master =
      PackIndex::parse_master_header(head.subspan(kFileHeaderSize), *header, file_size_, label_);
  if (!master) return std::unexpected(master.error());
  // parse_header and parse_master_header bound these by the file size.
  const usize index_length = usize{master->index_length} + master->total_block_index_length;
  const u64 table_at = kFileHeaderSize + u64{header->book_length};
  const usize table_length = static_cast<usize>(file_size_ - table_at);
  index_bytes_.assign(index_length + table_length, std::byte{0});
  const MutableByteSpan all(index_bytes_);
  if (auto s = read_at(kFileHeaderSize, all.first(index_length)); !s) return s;
  if (auto s = read_at(table_at, all.subspan(index_length)); !s) return s;
  const auto bytes = as_u8(ByteSpan(index_bytes_));
  auto index =
      PackIndex::parse(*header, bytes.first(master->index_length),
                       bytes.subspan(master->index_length, master->total_block_index_length),
                       bytes.subspan(index_length), file_size_, options, label_);
  if (!index) return std::unexpected(index.error());
  index_ = std::make_unique<PackIndex>(std::move(*index));

  std::vector<std::string> names;
  if (master->dictionary_length != 0) {
    ByteBuffer dictionary(master->dictionary_length);
    if (auto s = read_at(index_->dictionary_offset(), dictionary); !s) return s;
    auto parsed = index_->parse_dictionary(as_u8(ByteSpan(dictionary)), label_);
    if (!parsed) return std::unexpected(parsed.error());
    names = std::move(*parsed);
  }
  items_.clear();
  items_.reserve(index_->item_count());
  for (usize i = 0; i < index_->item_count(); ++i) {
    const MasterIndexEntry e = index_->item(i);
    items_.push_back(PackItem{e.name_hash, e.type_hash, e.primary_chunk,
                              names.empty() ? std::string() : std::move(names[i])});
  }
  blocks_.clear();
  for (const BlockView& b : index_->blocks()) {
    blocks_.push_back(PackBlock{static_cast<u16>(b.header.block_type), b.header.block_alignment,
                                b.header.block_length, b.storage.stored_length,
                                b.storage.compression, b.storage.checksum, b.stored_offset,
                                b.header.num_items});
  }
  return ok();
}

std::vector<PackChunk> PackFile::chunks(usize block) const {
  std::vector<PackChunk> out;
  if (block >= index_->blocks().size()) return out;
  const BlockView& view = index_->blocks()[block];
  out.reserve(view.header.num_items);
  for (usize i = 0; i < view.header.num_items; ++i) {
    const BlockIndexEntry e = index_->entry(view, i);
    out.push_back(PackChunk{e.name_hash, e.locator_id, e.block_offset, e.data_length});
  }
  return out;
}

const PackItem* PackFile::find_item(std::string_view name) const {
  return find_item_hash(name_hash(name));
}

const PackItem* PackFile::find_item_hash(Hash hash) const {
  auto i = index_->find_item(hash);
  return i ? &items_[*i] : nullptr;
}

const PackBlock* PackFile::find_block(u16 type) const {
  const BlockView* view = index_->find_block(type);
  return view ? &blocks_[static_cast<usize>(view - index_->blocks().data())] : nullptr;
}

Result<ByteBuffer> PackFile::read_block(usize block) const {
  if (block >= blocks_.size()) {
    return fail(ErrorCode::kOutOfRange, "{}: no block {}", label_, block);
  }
  const PackBlock& b = blocks_[block];
  ByteBuffer stored(b.stored_length);
  if (auto s = read_at(b.file_offset, stored); !s) return std::unexpected(s.error());
  const ByteSpan input(stored);
  if (options_.verify_checksums && hash64(input.data(), input.size()) != b.checksum) {
    return fail_at(SourceLocation::bytes(label_, b.file_offset), ErrorCode::kCorrupt,
                   "block {} (type {}) checksum mismatch", block, b.type);
  }
  ByteBuffer out(b.length);
  if (auto s = decompress(b.compression, input, out); !s) {
    return fail_at(SourceLocation::bytes(label_, b.file_offset), s.error().code(),
                   "block {} (type {}): {}", block, b.type, s.error().message());
  }
  return out;
}

Status PackFile::check_block_checksum(usize block) const {
  const PackBlock& b = blocks_[block];
  ByteBuffer buffer(std::min<usize>(kPiece, std::max<u32>(b.stored_length, 1)));
  Hasher64 hasher;
  for (u64 at = 0; at < b.stored_length;) {
    const usize n = static_cast<usize>(std::min<u64>(buffer.size(), b.stored_length - at));
    if (auto s = read_at(b.file_offset + at, MutableByteSpan(buffer).first(n)); !s) return s;
    hasher.update(buffer.data(), n);
    at += n;
  }
  if (hasher.digest() != b.checksum) {
    return fail_at(SourceLocation::bytes(label_, b.file_offset), ErrorCode::kCorrupt,
                   "block {} (type {}) checksum mismatch", block, b.type);
  }
  return ok();
}

Result<StreamDecompressor> PackFile::block_stream(usize block, usize buffer_size,
                                                  Hasher64* hasher) const {
  const PackBlock& b = blocks_[block];
  return StreamDecompressor::create(
      b.compression, buffer_size,
      [this, hasher, offset = b.file_offset, length = u64{b.stored_length},
       fed = u64{0}](MutableByteSpan in) mutable -> Result<usize> {
        const usize n = static_cast<usize>(std::min<u64>(in.size(), length - fed));
        if (auto s = read_at(offset + fed, in.first(n)); !s) return std::unexpected(s.error());
        if (hasher != nullptr) hasher->update(in.data(), n);
        fed += n;
        return n;
      });
}

Status PackFile::stream_block(usize block, const ByteSink& sink, usize piece) const {
  if (!sink || piece == 0) {
    return fail(ErrorCode::kInvalidArgument, "stream_block needs a sink and a piece size >= 1");
  }
  if (block >= blocks_.size()) {
    return fail(ErrorCode::kOutOfRange, "{}: no block {}", label_, block);
  }
  const PackBlock& b = blocks_[block];
  const auto where = SourceLocation::bytes(label_, b.file_offset);
  ByteBuffer buffer(std::min<usize>(piece, std::max<u32>(b.length, 1)));
  Hasher64 hasher;
  u64 produced = 0;
  if (b.compression == Compression::kNone) {  // raw: stored bytes are the block
    while (produced < b.length) {
      const usize n = static_cast<usize>(std::min<u64>(buffer.size(), b.length - produced));
      const MutableByteSpan part = MutableByteSpan(buffer).first(n);
      if (auto s = read_at(b.file_offset + produced, part); !s) return s;
      hasher.update(part.data(), n);
      if (auto s = sink(part); !s) return s;
      produced += n;
    }
  } else {
    auto stream = block_stream(block, std::min(piece, kPiece), &hasher);
    if (!stream) return std::unexpected(stream.error());
    for (;;) {
      auto n = stream->read(buffer);
      if (!n) {
        return fail_at(where, n.error().code(), "block {} (type {}): {}", block, b.type,
                       n.error().message());
      }
      if (*n == 0) break;
      if (produced + *n > b.length) {
        return fail_at(where, ErrorCode::kCorrupt,
                       "block {} (type {}) decompresses to more than {} bytes", block, b.type,
                       b.length);
      }
      if (auto s = sink(ByteSpan(buffer).first(*n)); !s) return s;
      produced += *n;
    }
    if (produced != b.length) {
      return fail_at(where, ErrorCode::kCorrupt,
                     "block {} (type {}) decompresses to {} bytes, not {}", block, b.type, produced,
                     b.length);
    }
  }
  if (options_.verify_checksums && hasher.digest() != b.checksum) {
    return fail_at(where, ErrorCode::kCorrupt, "block {} (type {}) checksum mismatch", block,
                   b.type);
  }
  return ok();
}

Status PackFile::extract_chunk(Hash hash, LocatorId locator, const ByteSink& sink,
                               usize piece) const {
  if (!sink || piece == 0) {
    return fail(ErrorCode::kInvalidArgument, "extract_chunk needs a sink and a piece size >= 1");
  }
  auto entry = index_->find_chunk(hash, locator);
  if (!entry) {
    return fail(ErrorCode::kNotFound, "{}: no chunk 0x{:08X} of asset 0x{:08X}", label_,
                locator.value, hash);
  }
  const BlockView* view = index_->find_block(locator.block_id());
  const usize block = static_cast<usize>(view - index_->blocks().data());
  const PackBlock& b = blocks_[block];
  const auto where = SourceLocation::bytes(label_, b.file_offset);
  if (options_.verify_checksums) {
    if (auto s = check_block_checksum(block); !s) return s;
  }
  ByteBuffer buffer(std::min<usize>(piece, std::max<u32>(entry->data_length, 1)));
  const u64 begin = entry->block_offset;
  const u64 end = begin + entry->data_length;
  if (b.compression == Compression::kNone) {  // stored raw: read the chunk where it lies
    for (u64 at = begin; at < end;) {
      const usize n = static_cast<usize>(std::min<u64>(buffer.size(), end - at));
      if (auto s = read_at(b.file_offset + at, MutableByteSpan(buffer).first(n)); !s) return s;
      if (auto s = sink(ByteSpan(buffer).first(n)); !s) return s;
      at += n;
    }
    return ok();
  }
  auto stream = block_stream(block, std::min(piece, kPiece));
  if (!stream) return std::unexpected(stream.error());
  for (u64 at = 0; at < end;) {
    const usize want =
        static_cast<usize>(std::min<u64>(buffer.size(), at < begin ? begin - at : end - at));
    auto n = stream->read(MutableByteSpan(buffer).first(want));
    if (!n) {
      return fail_at(where, n.error().code(), "block {} (type {}): {}", block, b.type,
                     n.error().message());
    }
    if (*n == 0) {
      return fail_at(where, ErrorCode::kCorrupt,
                     "block {} (type {}) ends at byte {}, chunk ends at {}", block, b.type, at,
                     end);
    }
    if (at >= begin) {
      if (auto s = sink(ByteSpan(buffer).first(*n)); !s) return s;
    }
    at += *n;
  }
  return ok();
}

Result<ByteBuffer> PackFile::read_chunk(Hash hash, LocatorId locator) const {
  auto entry = index_->find_chunk(hash, locator);
  if (!entry) {
    return fail(ErrorCode::kNotFound, "{}: no chunk 0x{:08X} of asset 0x{:08X}", label_,
                locator.value, hash);
  }
  const BlockView* view = index_->find_block(locator.block_id());
  auto data = read_block(static_cast<usize>(view - index_->blocks().data()));
  if (!data) return std::unexpected(data.error());
  const auto begin = data->begin() + entry->block_offset;
  return ByteBuffer(begin, begin + entry->data_length);
}

Status PackFile::verify_block(usize block) const {
  if (auto s = check_block_checksum(block); !s) return s;
  const PackBlock& b = blocks_[block];
  const auto where = SourceLocation::bytes(label_, b.file_offset);
  auto stream = block_stream(block, kPiece);
  if (!stream) return std::unexpected(stream.error());
  ByteBuffer buffer(kPiece);
  u64 produced = 0;
  for (;;) {
    auto n = stream->read(buffer);
    if (!n) {
      return fail_at(where, n.error().code(), "block {} (type {}): {}", block, b.type,
                     n.error().message());
    }
    if (*n == 0) break;
    produced += *n;
    if (produced > b.length) break;
  }
  if (produced != b.length) {
    return fail_at(where, ErrorCode::kCorrupt,
                   "block {} (type {}) decompresses to {}{} bytes, not {}", block, b.type,
                   produced > b.length ? "more than " : "", std::min<u64>(produced, b.length),
                   b.length);
  }
  return ok();
}

Status PackFile::verify() const {
  // Structure and limits were checked when the file was opened; checksums are checked here even
  // when the file was opened without them. Memory: the indices plus two 64 KiB buffers.
  const MasterIndexHeader& m = index_->master();
  if (hash64(index_bytes_.data(), index_bytes_.size()) != index_->file_header().index_checksum) {
    return fail_at(SourceLocation::bytes(label_, 16), ErrorCode::kCorrupt,
                   "index checksum mismatch (the indices are damaged)");
  }
  if (m.dictionary_length != 0) {
    ByteBuffer dictionary(m.dictionary_length);
    if (auto s = read_at(index_->dictionary_offset(), dictionary); !s) return s;
    if (hash64(dictionary.data(), dictionary.size()) != index_->file_header().dictionary_checksum) {
      return fail_at(SourceLocation::bytes(label_, index_->dictionary_offset()),
                     ErrorCode::kCorrupt, "dictionary checksum mismatch");
    }
  }
  for (usize b = 0; b < blocks_.size(); ++b) {
    if (auto s = verify_block(b); !s) return s;
  }
  return ok();
}

}  // namespace keel::pack
