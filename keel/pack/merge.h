// The repack step: many intermediate pack files into one. Blocks of the same type are
// concatenated (each input's block starts at an offset aligned to its block alignment), so chunk
// bytes, including locator ids embedded in them, are copied unchanged and only block offsets
// move; the blocks are copied in pieces when the output is written (memory: one piece buffer).
// Master entries and block-index entries are merged and re-sorted; two inputs that define
// the same asset (same name hash) or the same (name hash, locator id) key are an error.
#pragma once

#include "keel/core/bytes.h"
#include "keel/core/error.h"
#include "keel/pack/pack_file.h"
#include "keel/pack/writer.h"

#include <filesystem>
#include <span>
#include <vector>

namespace keel::pack {

Status merge_packs(std::span<const std::filesystem::path> inputs, const std::filesystem::path& out,
                   WriterOptions options = {});

// Same, from files already opened, into bytes.
Result<ByteBuffer> merge_to_bytes(std::span<const PackFile* const> inputs,
                                  WriterOptions options = {});

}  // namespace keel::pack
