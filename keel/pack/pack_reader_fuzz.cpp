// Fuzz target for every pack reader: PackFile (open, list, read every chunk, verify) and Loader
// (load with setup functions, names requested). Arbitrary bytes must produce an error or a
// consistent pack, never a crash, and never an allocation beyond the limits below. Checksums are
// switched off for the deep pass, otherwise nearly every mutation would stop at the checksum.
#include "keel/pack/loader.h"
#include "keel/pack/pack_file.h"
#include "keel/pack/testing/samples.h"

#include <cstddef>
#include <cstdint>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace keel;
  using namespace keel::pack;
  const ReadOptions limits{.verify_checksums = false,
                           .max_block_length = u64{1} << 20,
                           .max_total_length = u64{4} << 20};

  auto file =
      PackFile::from_bytes(to_buffer(as_bytes(std::span<const u8>(data, size))), "fuzz", limits);
  if (file) {
    for (const PackItem& item : file->items()) {
      if (!item.primary.is_null()) (void)file->read_chunk(item.name_hash, item.primary);
    }
    for (usize b = 0; b < file->blocks().size(); ++b) {
      for (const PackChunk& chunk : file->chunks(b)) {
        auto bytes = file->read_chunk(chunk.name_hash, chunk.locator);
        if (bytes && bytes->size() != chunk.length) __builtin_trap();
      }
    }
    (void)file->verify();
  }

  static const Loader loader = [] {
    Loader l;
    l.register_type(type_hash("Texture"), testing::setup_texture);
    l.register_type(type_hash("Blob"),
                    [](SetupContext& ctx) -> Result<void*> { return ctx.primary().data(); });
    return l;
  }();
  const ByteSpan bytes = as_bytes(std::span<const u8>(data, size));
  auto pack = loader.load_bytes(bytes, LoadOptions{.load_names = true, .read = limits});
  if (pack) {
    for (const LoadedPack::Asset& asset : pack->assets()) {
      if (pack->find_hash(asset.name_hash) != asset.asset) __builtin_trap();
    }
  }
  // The checked path as a game runs it.
  (void)loader.load_bytes(bytes, LoadOptions{.read = ReadOptions{.max_block_length = 1u << 20}});
  return 0;
}
