// Loader: loads a pack file into memory and sets its assets up (Golden Rules ch. 5.5).
//
//   Loader loader;
//   loader.set_block_allocator(kVideoBlock, &video_memory);
//   loader.register_type(type_hash("Texture"), setup_texture, teardown_texture);
//   Result<LoadedPack> pack = loader.load("level1.kpk");
//   auto* face = pack->find_as<Texture>("face");
//
// Steps: read the header and the master index; read all block indices in one read into
// short-lived memory; for each block allocate block_length bytes with block_alignment from the
// block type's allocator and stream the stored bytes into it (checksummed and decompressed piece by
// piece as they are read); read the names dictionary only when asked; run each asset's setup
// function, chosen by its type hash, whose returned pointer replaces the primary chunk in the
// resident master index (long-lived memory); free the block indices and any block type marked
// release_after_setup. Any failure undoes everything (teardowns run, memory freed).
//
// A Loader is configured first and then used; load() is const and may run on several threads at
// once. Copies share the type registry. Packs hold the registry they were set up with.
#pragma once

#include "keel/core/bytes.h"
#include "keel/core/error.h"
#include "keel/pack/allocator.h"
#include "keel/pack/format.h"
#include "keel/pack/setup.h"

#include <atomic>
#include <cstddef>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace keel::pack {

struct LoadOptions {
  bool load_names = false;  // read the names dictionary (else it is skipped)
  ReadOptions read = {};    // checksums and size limits
  // Checked between blocks and between setups; when set the load stops with kRefused.
  const std::atomic<bool>* cancel = nullptr;
  // An asset of a type without a registered setup is an error (kNotFound) unless this is set:
  // then it stays raw, its `asset` pointing at its primary chunk's bytes (tools and programs
  // that use only some of a data file's types).
  bool raw_unregistered = false;
};

struct TypeHandler {
  SetupFn setup;
  TeardownFn teardown;  // may be empty
};

class LoadedPack {
 public:
  struct Asset {  // resident master-index entry: 16 bytes
    Hash name_hash = 0;
    Hash type_hash = 0;
    void* asset = nullptr;  // what the setup function returned
  };

  LoadedPack() = default;
  LoadedPack(LoadedPack&& other) noexcept;
  LoadedPack& operator=(LoadedPack&& other) noexcept;
  ~LoadedPack();

  usize size() const { return asset_count_; }
  std::span<const Asset> assets() const { return {assets_, asset_count_}; }
  void* find(std::string_view name) const { return find_hash(name_hash(name)); }
  void* find_hash(Hash name_hash) const;
  template <typename T>
  T* find_as(std::string_view name) const {
    return static_cast<T*>(find(name));
  }
  const Asset* find_entry(Hash name_hash) const;
  // Names from the dictionary, in asset order (empty unless LoadOptions::load_names).
  const std::vector<std::string>& names() const { return names_; }
  std::span<const LoadedBlock> blocks() const { return blocks_; }  // blocks still resident
  u64 resident_bytes() const;

  void reset();  // teardowns in reverse order, then memory released

 private:
  friend class Loader;
  using Registry = std::unordered_map<Hash, TypeHandler>;

  std::shared_ptr<const Registry> registry_;
  Allocator* long_lived_ = nullptr;
  Asset* assets_ = nullptr;
  usize asset_count_ = 0;
  usize set_up_count_ = 0;  // assets whose setup ran (teardown these)
  std::vector<LoadedBlock> blocks_;
  std::vector<std::string> names_;
};

class Loader {
 public:
  Loader();

  void set_long_lived_allocator(Allocator* allocator);   // resident master index
  void set_short_lived_allocator(Allocator* allocator);  // indices, staging buffers
  // Block data of this type; release_after_setup frees it once every setup has run.
  void set_block_allocator(u16 block_type, Allocator* allocator, bool release_after_setup = false);
  // The setup (and teardown) for assets of this type hash. Registering again replaces it.
  void register_type(Hash type_hash, SetupFn setup, TeardownFn teardown = {});
  bool has_type(Hash type_hash) const;

  Result<LoadedPack> load(const std::filesystem::path& path, const LoadOptions& options = {}) const;
  // From bytes already in memory (same checks; used by the fuzz target and tests).
  Result<LoadedPack> load_bytes(ByteSpan bytes, const LoadOptions& options = {},
                                std::string label = "<memory>") const;

  class Source;  // where load() reads from (a file or memory); defined in loader.cpp

 private:
  struct BlockConfig {
    Allocator* allocator = nullptr;
    bool release_after_setup = false;
  };
  Result<LoadedPack> load_from(Source& source, const LoadOptions& options) const;

  Allocator* long_lived_;
  Allocator* short_lived_;
  std::unordered_map<u16, BlockConfig> block_configs_;
  std::shared_ptr<LoadedPack::Registry> registry_;
};

}  // namespace keel::pack
