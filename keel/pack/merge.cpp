#include "keel/pack/merge.h"

#include "keel/core/assert.h"
#include "keel/core/file.h"

namespace keel::pack {
namespace {

// Feeds every input into `writer`, block by block, locator ids untouched. The blocks are not read
// here: the writer streams each through PackFile::stream_block when it writes the file, so a
// merge holds one piece buffer, not whole blocks. The inputs must outlive the writer's write.
Status feed(std::span<const PackFile* const> inputs, PackWriter& writer) {
  for (const PackFile* input : inputs) {
    KEEL_ASSERT(input != nullptr, "merge: a null PackFile among the inputs");
    if (input == nullptr) return fail(ErrorCode::kInvalidArgument, "merge: a null input");
    for (usize b = 0; b < input->blocks().size(); ++b) {
      const PackBlock& block = input->blocks()[b];
      std::vector<PackWriter::RawChunk> chunks;
      for (const PackChunk& c : input->chunks(b)) {
        chunks.push_back(PackWriter::RawChunk{c.name_hash, c.locator, c.block_offset, c.length});
      }
      auto produce = [input, b](const ByteSink& sink) {
        return input->stream_block(b, sink, kStreamPiece);
      };
      writer.append_streamed_block(block.type, block.alignment,
                                   StreamedBytes{block.length, std::move(produce)}, chunks);
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
