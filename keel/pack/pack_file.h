// PackFile: a pack file for tools and the merge step (list, verify, extract). open() keeps only the
// indices in memory and reads block data from the file on demand (pread), so list, verify and
// extract_chunk use memory independent of the pack's size; from_bytes() reads from a buffer.
// The game loads packs with Loader (loader.h) instead, which streams blocks into their own memory.
//
//   auto pack = PackFile::open("level1.kpk");
//   for (const PackItem& item : pack->items()) ...
//   auto bytes = pack->read_chunk(name_hash("face"), item.primary);   // decompressed
//   keel::Status ok = pack->verify();
#pragma once

#include "keel/core/bytes.h"
#include "keel/core/error.h"
#include "keel/core/hash.h"
#include "keel/pack/compression.h"
#include "keel/pack/format.h"

#include <cstddef>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace keel::pack {

class PackIndex;

struct PackItem {
  Hash name_hash = 0;
  Hash type_hash = 0;
  LocatorId primary;
  std::string name;  // from the dictionary; empty when the file has none
};

struct PackBlock {
  u16 type = 0;
  u32 alignment = 1;
  u32 length = 0;         // loaded size
  u32 stored_length = 0;  // size in the file
  Compression compression = Compression::kNone;
  u64 checksum = 0;
  u64 file_offset = 0;
  u32 chunk_count = 0;
};

struct PackChunk {
  Hash name_hash = 0;
  LocatorId locator;
  u32 block_offset = 0;
  u32 length = 0;
};

class PackFile {
 public:
  static Result<PackFile> open(const std::filesystem::path& path, ReadOptions options = {});
  static Result<PackFile> from_bytes(ByteBuffer bytes, std::string label = "<memory>",
                                     ReadOptions options = {});

  PackFile(PackFile&&) noexcept;
  PackFile& operator=(PackFile&&) noexcept;
  ~PackFile();

  const std::string& label() const { return label_; }
  u64 file_size() const { return file_size_; }
  bool has_dictionary() const;

  const std::vector<PackItem>& items() const { return items_; }
  const std::vector<PackBlock>& blocks() const { return blocks_; }
  std::vector<PackChunk> chunks(usize block) const;  // in key order
  const PackItem* find_item(std::string_view name) const;
  const PackItem* find_item_hash(Hash name_hash) const;
  const PackBlock* find_block(u16 type) const;

  // The block's loaded bytes (decompressed; checksum checked unless disabled).
  Result<ByteBuffer> read_block(usize block) const;
  // One chunk's bytes.
  Result<ByteBuffer> read_chunk(Hash name_hash, LocatorId locator) const;
  // One chunk's bytes handed to `sink` in pieces of at most `piece` bytes, decompressed through
  // a StreamDecompressor: memory stays at two small buffers however large the block is (what
  // `keel-pack extract` uses). The block's checksum is checked first unless disabled.
  Status extract_chunk(Hash name_hash, LocatorId locator, const ByteSink& sink,
                       usize piece = usize{64} << 10) const;
  // The whole block's loaded bytes handed to `sink` in pieces of at most `piece` bytes (what the
  // merge copies): memory is one piece buffer however large the block is. The stored bytes are
  // hashed as they are read; a checksum mismatch (unless disabled) or a wrong length fails after
  // the last piece, so the caller must discard what it wrote when this fails.
  Status stream_block(usize block, const ByteSink& sink, usize piece = usize{1} << 20) const;
  // Every check: checksums, each block decompresses to its length, dictionary consistent. Block
  // by block through fixed buffers: memory does not grow with the block or file size.
  Status verify() const;

  // The parsed indices (internal: keel/pack/detail/index.h; for the module's tests).
  const PackIndex& index() const { return *index_; }

 private:
  class Source;
  PackFile();
  Status init(ReadOptions options);
  Status read_at(u64 offset, MutableByteSpan out) const;
  Status check_block_checksum(usize block) const;
  Status verify_block(usize block) const;
  // `hasher` (optional) sees every stored byte the decompressor pulls.
  Result<StreamDecompressor> block_stream(usize block, usize buffer_size,
                                          Hasher64* hasher = nullptr) const;

  std::string label_;
  u64 file_size_ = 0;
  std::unique_ptr<Source> source_;  // the file (pread) or the bytes given to from_bytes()
  // The master index, block indices and block table, contiguous: index_'s spans point here (a
  // heap buffer, so its address survives moves).
  ByteBuffer index_bytes_;
  std::unique_ptr<PackIndex> index_;
  ReadOptions options_;
  std::vector<PackItem> items_;
  std::vector<PackBlock> blocks_;
};

}  // namespace keel::pack
