#include "keel/pack/pack_file.h"

#include "keel/pack/compression.h"
#include "keel/pack/detail/index.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

namespace keel::pack {

PackFile::PackFile() : index_(std::make_unique<PackIndex>()) {}
PackFile::PackFile(PackFile&&) noexcept = default;
PackFile& PackFile::operator=(PackFile&&) noexcept = default;
PackFile::~PackFile() = default;

bool PackFile::has_dictionary() const { return index_->master().dictionary_length != 0; }

Result<PackFile> PackFile::open(const std::filesystem::path& path, ReadOptions options) {
  // Straight into the buffer the PackFile keeps (no second copy of a large file).
  auto io_error = [&path](std::string_view what) {
    return Unexpected(Error(ErrorCode::kIo, fmt::format("{}: {}", what, std::strerror(errno)),
                            SourceLocation{path.string(), 0, 0, 0, false}));
  };
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return io_error("cannot open for reading");
  ByteBuffer bytes;
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  if (!ec) bytes.reserve(static_cast<usize>(size));
  std::byte buffer[1 << 16];
  for (;;) {
    const usize n = std::fread(buffer, 1, sizeof buffer, f);
    bytes.insert(bytes.end(), buffer, buffer + n);
    if (n < sizeof buffer) break;
  }
  const bool failed = std::ferror(f) != 0;
  std::fclose(f);
  if (failed) return io_error("read failed");
  return from_bytes(std::move(bytes), path.string(), options);
}

Result<PackFile> PackFile::from_bytes(ByteBuffer bytes, std::string label, ReadOptions options) {
  PackFile file;
  file.label_ = std::move(label);
  file.bytes_ = std::move(bytes);
  if (auto s = file.init(options); !s) return std::unexpected(s.error());
  return file;
}

Status PackFile::init(ReadOptions options) {
  options_ = options;
  const std::span<const u8> all = as_u8(ByteSpan(bytes_));
  auto header = PackIndex::parse_header(all, all.size(), label_);
  if (!header) return std::unexpected(header.error());
  auto master =
      PackIndex::parse_master_header(all.subspan(kFileHeaderSize), *header, all.size(), label_);
  if (!master) return std::unexpected(master.error());
  const usize block_index_at = kFileHeaderSize + master->index_length;
  const usize table_at = kFileHeaderSize + header->book_length;
  auto index = PackIndex::parse(*header, all.subspan(kFileHeaderSize, master->index_length),
                                all.subspan(block_index_at, master->total_block_index_length),
                                all.subspan(table_at), all.size(), options, label_);
  if (!index) return std::unexpected(index.error());
  index_ = std::make_unique<PackIndex>(std::move(*index));

  std::vector<std::string> names;
  if (master->dictionary_length != 0) {
    auto parsed = index_->parse_dictionary(
        all.subspan(static_cast<usize>(index_->dictionary_offset()), master->dictionary_length),
        label_);
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
  const ByteSpan input = ByteSpan(bytes_).subspan(b.file_offset, b.stored_length);
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
  const ByteSpan stored = ByteSpan(bytes_).subspan(b.file_offset, b.stored_length);
  const auto where = SourceLocation::bytes(label_, b.file_offset);
  if (options_.verify_checksums && hash64(stored.data(), stored.size()) != b.checksum) {
    return fail_at(where, ErrorCode::kCorrupt, "block {} (type {}) checksum mismatch", block,
                   b.type);
  }
  usize fed = 0;
  auto stream = StreamDecompressor::create(
      b.compression, std::min(piece, usize{64} << 10), [&](MutableByteSpan in) -> Result<usize> {
        const usize n = std::min(in.size(), stored.size() - fed);
        std::copy_n(stored.begin() + static_cast<std::ptrdiff_t>(fed), n, in.begin());
        fed += n;
        return n;
      });
  if (!stream) return std::unexpected(stream.error());
  ByteBuffer buffer(std::min<usize>(piece, std::max<u32>(entry->data_length, 1)));
  const u64 begin = entry->block_offset;
  const u64 end = begin + entry->data_length;
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
                     "block {} (type {}) ends at byte {}, chunk "
                     "ends at {}",
                     block, b.type, at, end);
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

Status PackFile::verify() const {
  // Structure and limits were checked when the file was opened; checksums are checked here even
  // when the file was opened without them.
  const MasterIndexHeader& m = index_->master();
  const usize index_bytes = u64{m.index_length} + m.total_block_index_length;
  const usize table_at = kFileHeaderSize + index_->file_header().book_length;
  Hasher64 hasher;
  hasher.update(bytes_.data() + kFileHeaderSize, index_bytes);
  hasher.update(bytes_.data() + table_at, bytes_.size() - table_at);
  if (hasher.digest() != index_->file_header().index_checksum) {
    return fail_at(SourceLocation::bytes(label_, 16), ErrorCode::kCorrupt,
                   "index checksum mismatch (the indices are damaged)");
  }
  if (m.dictionary_length != 0 &&
      hash64(bytes_.data() + index_->dictionary_offset(), m.dictionary_length) !=
          index_->file_header().dictionary_checksum) {
    return fail_at(SourceLocation::bytes(label_, index_->dictionary_offset()), ErrorCode::kCorrupt,
                   "dictionary checksum mismatch");
  }
  for (usize b = 0; b < blocks_.size(); ++b) {
    const PackBlock& block = blocks_[b];
    if (hash64(bytes_.data() + block.file_offset, block.stored_length) != block.checksum) {
      return fail_at(SourceLocation::bytes(label_, block.file_offset), ErrorCode::kCorrupt,
                     "block {} (type {}) checksum mismatch", b, block.type);
    }
    auto data = read_block(b);
    if (!data) return std::unexpected(data.error());
  }
  return ok();
}

}  // namespace keel::pack
