#include "keel/pack/merge.h"

#include "keel/core/assert.h"
#include "keel/core/file.h"

namespace keel::pack {
namespace {

// Feeds every input into `writer` (which copies the data), block by block, locator ids untouched.
Status feed(std::span<const PackFile* const> inputs, PackWriter& writer) {
  for (const PackFile* input : inputs) {
    KEEL_ASSERT(input != nullptr, "merge: a null PackFile among the inputs");
    if (input == nullptr) return fail(ErrorCode::kInvalidArgument, "merge: a null input");
    for (usize b = 0; b < input->blocks().size(); ++b) {
      const PackBlock& block = input->blocks()[b];
      auto data = input->read_block(b);
      if (!data) return std::unexpected(data.error());
      std::vector<PackWriter::RawChunk> chunks;
      for (const PackChunk& c : input->chunks(b)) {
        chunks.push_back(PackWriter::RawChunk{c.name_hash, c.locator, c.block_offset, c.length});
      }
      writer.append_block(block.type, block.alignment, *data, chunks);
    }
    for (const PackItem& item : input->items()) {
      writer.add_item_hashed(item.name_hash, item.name, item.type_hash, item.primary);
    }
  }
  return ok();
}

}  // namespace

Result<ByteBuffer> merge_to_bytes(std::span<const PackFile* const> inputs, WriterOptions options) {
  PackWriter writer(options);
  if (auto s = feed(inputs, writer); !s) return std::unexpected(s.error());
  return writer.to_bytes();
}

Status merge_packs(std::span<const std::filesystem::path> inputs, const std::filesystem::path& out,
                   WriterOptions options) {
  std::vector<PackFile> files;
  files.reserve(inputs.size());
  for (const std::filesystem::path& path : inputs) {
    auto file = PackFile::open(path);
    if (!file) return std::unexpected(file.error());
    files.push_back(std::move(*file));
  }
  std::vector<const PackFile*> pointers;
  for (const PackFile& f : files) pointers.push_back(&f);
  PackWriter writer(options);
  if (auto s = feed(pointers, writer); !s) return s;
  return writer.write(out);
}

}  // namespace keel::pack
