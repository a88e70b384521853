#include "keel/pack/loader.h"

#include "keel/core/assert.h"
#include "keel/pack/compression.h"
#include "keel/pack/detail/file_io.h"
#include "keel/pack/detail/index.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

namespace keel::pack {

using detail::io_error;

// Where the loader reads from: a file (pread) or bytes in memory.
class Loader::Source {
 public:
  virtual ~Source() = default;
  virtual u64 size() const = 0;
  virtual Status read_at(u64 offset, MutableByteSpan out) = 0;
  const std::string& label() const { return label_; }

 protected:
  std::string label_;
};

namespace {

constexpr usize kSlice = 256 * 1024;  // read, checksum and decompress in pieces this big

class FileSource final : public Loader::Source {
 public:
  static Result<std::unique_ptr<FileSource>> open(const std::filesystem::path& path) {
    auto source = std::unique_ptr<FileSource>(new FileSource(path.string()));
    source->fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (source->fd_ < 0) return io_error(path.string(), "cannot open for reading");
    struct stat st {};
    if (::fstat(source->fd_, &st) != 0) return io_error(path.string(), "cannot stat");
    source->size_ = static_cast<u64>(st.st_size);
    return source;
  }
  ~FileSource() override {
    if (fd_ >= 0) ::close(fd_);
  }
  u64 size() const override { return size_; }
  Status read_at(u64 offset, MutableByteSpan out) override {
    return detail::pread_exact(fd_, offset, out, label_);
  }

 private:
  explicit FileSource(std::string label) { label_ = std::move(label); }
  int fd_ = -1;
  u64 size_ = 0;
};

class MemorySource final : public Loader::Source {
 public:
  MemorySource(ByteSpan bytes, std::string label) : bytes_(bytes) { label_ = std::move(label); }
  u64 size() const override { return bytes_.size(); }
  Status read_at(u64 offset, MutableByteSpan out) override {
    KEEL_ASSERT(offset <= bytes_.size() && out.size() <= bytes_.size() - offset);
    if (!out.empty()) std::memcpy(out.data(), bytes_.data() + offset, out.size());
    return ok();
  }

 private:
  ByteSpan bytes_;
};

// Memory from an allocator, returned when the holder dies.
class Scratch {
 public:
  Scratch() = default;
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  ~Scratch() { release(); }
  Status allocate(Allocator* allocator, usize size, usize alignment = 16) {
    release();
    if (size == 0) return ok();
    data_ = static_cast<std::byte*>(allocator->allocate(size, alignment));
    if (data_ == nullptr) {
      return fail(ErrorCode::kOutOfMemory, "out of memory: {} bytes of scratch", size);
    }
    allocator_ = allocator;
    size_ = size;
    alignment_ = alignment;
    return ok();
  }
  void release() {
    if (data_ != nullptr) allocator_->deallocate(data_, size_, alignment_);
    data_ = nullptr;
    size_ = 0;
  }
  MutableByteSpan bytes() const { return {data_, size_}; }
  std::span<const u8> as_u8() const { return keel::as_u8(ByteSpan(data_, size_)); }

 private:
  Allocator* allocator_ = nullptr;
  std::byte* data_ = nullptr;
  usize size_ = 0;
  usize alignment_ = 16;
};

bool cancelled(const LoadOptions& options) {
  return options.cancel != nullptr && options.cancel->load(std::memory_order_acquire);
}

Unexpected cancel_error(const std::string& label) {
  return Unexpected(
      Error(ErrorCode::kRefused, "load cancelled", SourceLocation{label, 0, 0, 0, false}));
}

}  // namespace

// ---- LoadedPack -------------------------------------------------------------------------------

LoadedPack::LoadedPack(LoadedPack&& other) noexcept { *this = std::move(other); }

LoadedPack& LoadedPack::operator=(LoadedPack&& other) noexcept {
  if (this != &other) {
    reset();
    registry_ = std::move(other.registry_);
    long_lived_ = std::exchange(other.long_lived_, nullptr);
    assets_ = std::exchange(other.assets_, nullptr);
    asset_count_ = std::exchange(other.asset_count_, 0);
    set_up_count_ = std::exchange(other.set_up_count_, 0);
    blocks_ = std::move(other.blocks_);
    other.blocks_.clear();
    names_ = std::move(other.names_);
    other.names_.clear();
  }
  return *this;
}

LoadedPack::~LoadedPack() { reset(); }

void LoadedPack::reset() {
  for (usize i = set_up_count_; i-- > 0;) {
    auto it = registry_->find(assets_[i].type_hash);
    if (it != registry_->end() && it->second.teardown) it->second.teardown(assets_[i].asset);
  }
  set_up_count_ = 0;
  for (const LoadedBlock& block : blocks_) {
    if (block.data != nullptr)
      block.allocator->deallocate(block.data, block.length, block.alignment);
  }
  blocks_.clear();
  if (assets_ != nullptr) {
    long_lived_->deallocate(assets_, asset_count_ * sizeof(Asset), alignof(Asset));
  }
  assets_ = nullptr;
  asset_count_ = 0;
  names_.clear();
  registry_.reset();
}

const LoadedPack::Asset* LoadedPack::find_entry(Hash hash) const {
  const Asset* begin = assets_;
  const Asset* end = begin + asset_count_;
  const Asset* it =
      std::lower_bound(begin, end, hash, [](const Asset& a, Hash h) { return a.name_hash < h; });
  return it != end && it->name_hash == hash ? it : nullptr;
}

void* LoadedPack::find_hash(Hash hash) const {
  const Asset* entry = find_entry(hash);
  return entry ? entry->asset : nullptr;
}

u64 LoadedPack::resident_bytes() const {
  u64 total = 0;
  for (const LoadedBlock& block : blocks_) total += block.length;
  return total;
}

// ---- Loader -----------------------------------------------------------------------------------

Loader::Loader()
    : long_lived_(&default_allocator()),
      short_lived_(&default_allocator()),
      registry_(std::make_shared<LoadedPack::Registry>()) {}

void Loader::set_long_lived_allocator(Allocator* allocator) {
  KEEL_ASSERT(allocator != nullptr, "set_long_lived_allocator(nullptr): the allocator is kept");
  if (allocator != nullptr) long_lived_ = allocator;
}

void Loader::set_short_lived_allocator(Allocator* allocator) {
  KEEL_ASSERT(allocator != nullptr, "set_short_lived_allocator(nullptr): the allocator is kept");
  if (allocator != nullptr) short_lived_ = allocator;
}

void Loader::set_block_allocator(u16 block_type, Allocator* allocator, bool release_after_setup) {
  KEEL_ASSERT(allocator != nullptr, "set_block_allocator({}, nullptr): nothing changes",
              block_type);
  if (allocator == nullptr) return;
  block_configs_[block_type] = BlockConfig{allocator, release_after_setup};
}

void Loader::register_type(Hash type, SetupFn setup, TeardownFn teardown) {
  KEEL_ASSERT(setup != nullptr, "register_type(0x{:08X}) without a setup function", type);
  if (setup == nullptr) return;  // the type stays unknown: loading it fails with a message
  // Copy on write: packs already loaded (and copies of this loader) keep the registry they had.
  auto next = std::make_shared<LoadedPack::Registry>(*registry_);
  (*next)[type] = TypeHandler{std::move(setup), std::move(teardown)};
  registry_ = std::move(next);
}

bool Loader::has_type(Hash type) const { return registry_->contains(type); }

Result<LoadedPack> Loader::load(const std::filesystem::path& path,
                                const LoadOptions& options) const {
  auto source = FileSource::open(path);
  if (!source) return std::unexpected(source.error());
  return load_from(**source, options);
}

Result<LoadedPack> Loader::load_bytes(ByteSpan bytes, const LoadOptions& options,
                                      std::string label) const {
  MemorySource source(bytes, std::move(label));
  return load_from(source, options);
}

Result<LoadedPack> Loader::load_from(Source& source, const LoadOptions& options) const {
  const std::string& label = source.label();
  const u64 file_size = source.size();

  // 1. Header and master-index header (fixed sizes).
  std::array<std::byte, kFileHeaderSize + kMasterIndexHeaderSize> head{};
  const usize head_size = static_cast<usize>(std::min<u64>(file_size, head.size()));
  if (auto s = source.read_at(0, std::span(head).first(head_size)); !s) {
    return std::unexpected(s.error());
  }
  const std::span<const u8> head_u8 = as_u8(ByteSpan(head).first(head_size));
  auto header = PackIndex::parse_header(head_u8, file_size, label);
  if (!header) return std::unexpected(header.error());
  auto master =
      PackIndex::parse_master_header(head_u8.subspan(kFileHeaderSize), *header, file_size, label);
  if (!master) return std::unexpected(master.error());
  // Every length below is now known to lie inside the file.

  // 2. Master index and all block indices from the short-lived allocator, one read each.
  Scratch master_bytes;
  Scratch block_index_bytes;
  Scratch table_bytes;
  if (auto s = master_bytes.allocate(short_lived_, master->index_length); !s) {
    return std::unexpected(s.error());
  }
  if (auto s = block_index_bytes.allocate(short_lived_, master->total_block_index_length); !s) {
    return std::unexpected(s.error());
  }
  if (auto s = table_bytes.allocate(short_lived_, master->num_blocks * kBlockStorageSize); !s) {
    return std::unexpected(s.error());
  }
  const u64 block_index_at = kFileHeaderSize + master->index_length;
  const u64 table_at = kFileHeaderSize + u64{header->book_length};
  if (auto s = source.read_at(kFileHeaderSize, master_bytes.bytes()); !s) {
    return std::unexpected(s.error());
  }
  if (auto s = source.read_at(block_index_at, block_index_bytes.bytes()); !s) {
    return std::unexpected(s.error());
  }
  if (auto s = source.read_at(table_at, table_bytes.bytes()); !s) {
    return std::unexpected(s.error());
  }
  auto index = PackIndex::parse(*header, master_bytes.as_u8(), block_index_bytes.as_u8(),
                                table_bytes.as_u8(), file_size, options.read, label);
  if (!index) return std::unexpected(index.error());

  LoadedPack pack;  // from here on, pack's destructor undoes a failed load
  pack.registry_ = registry_;
  pack.long_lived_ = long_lived_;

  // 3. The resident master index (long-lived): name, type and, after setup, the asset pointer.
  if (index->item_count() != 0) {
    const usize bytes = index->item_count() * sizeof(LoadedPack::Asset);
    pack.assets_ =
        static_cast<LoadedPack::Asset*>(long_lived_->allocate(bytes, alignof(LoadedPack::Asset)));
    if (pack.assets_ == nullptr) {
      return fail(ErrorCode::kOutOfMemory, "{}: out of memory for the master index", label);
    }
    pack.asset_count_ = index->item_count();
    for (usize i = 0; i < index->item_count(); ++i) {
      const MasterIndexEntry e = index->item(i);
      pack.assets_[i] = LoadedPack::Asset{e.name_hash, e.type_hash, nullptr};
    }
  }

  // 4. Blocks: allocate, then read in slices; each slice is checksummed while it is in cache and
  //    decompressed straight into the block's memory.
  u32 largest_stored = 0;
  for (const BlockView& view : index->blocks()) {
    if (view.storage.compression != Compression::kNone) {
      largest_stored = std::max(largest_stored, view.storage.stored_length);
    }
  }
  Scratch slice;
  if (auto s = slice.allocate(short_lived_, std::min<usize>(kSlice, largest_stored)); !s) {
    return std::unexpected(s.error());
  }
  BlockDecoder decoder;
  pack.blocks_.reserve(index->blocks().size());
  for (const BlockView& view : index->blocks()) {
    if (cancelled(options)) return cancel_error(label);
    const u16 type = static_cast<u16>(view.header.block_type);
    auto config_it = block_configs_.find(type);
    const BlockConfig config = config_it != block_configs_.end()
                                   ? config_it->second
                                   : BlockConfig{&default_allocator(), false};
    LoadedBlock block{type,
                      nullptr,
                      view.header.block_length,
                      view.header.block_alignment,
                      config.allocator,
                      config.release_after_setup};
    if (block.length != 0) {
      block.data =
          static_cast<std::byte*>(config.allocator->allocate(block.length, block.alignment));
      if (block.data == nullptr) {
        return fail_at(SourceLocation::bytes(label, view.stored_offset), ErrorCode::kOutOfMemory,
                       "out of memory for block type {} ({} bytes)", type, block.length);
      }
    }
    pack.blocks_.push_back(block);

    // Memory the CPU cannot address is filled through a short-lived staging copy.
    Scratch staging;
    MutableByteSpan target(block.data, block.length);
    if (!config.allocator->cpu_addressable()) {
      if (auto s = staging.allocate(short_lived_, block.length, block.alignment); !s) {
        return std::unexpected(s.error());
      }
      target = staging.bytes();
    }

    const Compression method = view.storage.compression;
    const u32 stored = view.storage.stored_length;
    Hasher64 hasher;
    if (auto s = decoder.begin(method, target); !s) return std::unexpected(s.error());
    for (u32 done = 0; done < stored;) {
      const usize n = std::min<usize>(kSlice, stored - done);
      MutableByteSpan piece =
          method == Compression::kNone ? target.subspan(done, n) : slice.bytes().first(n);
      if (auto s = source.read_at(view.stored_offset + done, piece); !s) {
        return std::unexpected(s.error());
      }
      if (options.read.verify_checksums) hasher.update(piece.data(), piece.size());
      if (method != Compression::kNone) {
        if (auto s = decoder.push(piece); !s) {
          return fail_at(SourceLocation::bytes(label, view.stored_offset), s.error().code(),
                         "block type {}: {}", type, s.error().message());
        }
      }
      done += static_cast<u32>(n);
    }
    if (options.read.verify_checksums && hasher.digest() != view.storage.checksum) {
      return fail_at(SourceLocation::bytes(label, view.stored_offset), ErrorCode::kCorrupt,
                     "block type {} checksum mismatch", type);
    }
    if (method != Compression::kNone) {
      if (auto s = decoder.finish(); !s) {
        return fail_at(SourceLocation::bytes(label, view.stored_offset), s.error().code(),
                       "block type {}: {}", type, s.error().message());
      }
    }
    if (!config.allocator->cpu_addressable()) config.allocator->upload(block.data, target);
  }
  slice.release();

  // 5. The names dictionary, only when asked for.
  if (options.load_names && master->dictionary_length != 0) {
    Scratch dictionary;
    if (auto s = dictionary.allocate(short_lived_, master->dictionary_length); !s) {
      return std::unexpected(s.error());
    }
    if (auto s = source.read_at(index->dictionary_offset(), dictionary.bytes()); !s) {
      return std::unexpected(s.error());
    }
    auto names = index->parse_dictionary(dictionary.as_u8(), label);
    if (!names) return std::unexpected(names.error());
    pack.names_ = std::move(*names);
  }

  // 6. Setup, chosen by type hash; the returned pointer replaces the primary chunk.
  for (usize i = 0; i < pack.asset_count_; ++i) {
    if (cancelled(options)) return cancel_error(label);
    LoadedPack::Asset& asset = pack.assets_[i];
    auto handler = registry_->find(asset.type_hash);
    const std::string_view name = pack.names_.empty() ? std::string_view() : pack.names_[i];
    const std::string shown =
        name.empty() ? fmt::format("0x{:08X}", asset.name_hash) : fmt::format("'{}'", name);
    if (handler == registry_->end() && !options.raw_unregistered) {
      return fail_at(SourceLocation{label, 0, 0, 0, false}, ErrorCode::kNotFound,
                     "asset {}: no setup function for type 0x{:08X}", shown, asset.type_hash);
    }
    SetupContext context(asset.name_hash, asset.type_hash, name, index->item(i).primary_chunk,
                         *index, pack.blocks_);
    if (auto s = context.resolve_primary(); !s) return std::unexpected(s.error());
    if (handler == registry_->end()) {  // raw_unregistered: the primary chunk's bytes
      asset.asset = const_cast<std::byte*>(context.primary().data());
      pack.set_up_count_ = i + 1;
      continue;
    }
    auto result = handler->second.setup(context);
    if (!result) {
      return fail_at(SourceLocation{label, 0, 0, 0, false}, result.error().code(),
                     "asset {}: setup failed: {}", shown, result.error().message());
    }
    asset.asset = *result;
    pack.set_up_count_ = i + 1;
  }

  // 7. Block indices are released when their scratch dies; blocks marked release_after_setup go
  //    now, since their contents have been turned into runtime objects.
  std::erase_if(pack.blocks_, [](const LoadedBlock& block) {
    if (!block.release_after_setup) return false;
    if (block.data != nullptr)
      block.allocator->deallocate(block.data, block.length, block.alignment);
    return true;
  });
  return pack;
}

}  // namespace keel::pack
