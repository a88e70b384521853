// The save file container: a fixed little-endian header stating the writer's layout, the
// client header (level, level version, thumbnail, extra bytes; readable alone), a table of
// checksums, one per 64 KiB of stored body, and the body (the object stream, zstd-compressed
// unless stored). Every decoder treats its input as hostile: damage is an error naming the byte
// where it was found ("save file corrupt at byte N"), never a crash, and allocations are bounded.
#pragma once

#include "keel/core/bytes.h"
#include "keel/core/error.h"
#include "keel/core/types.h"

#include <filesystem>
#include <string>

namespace keel::save {

inline constexpr usize kFixedHeaderSize = 48;
inline constexpr usize kChecksumChunk = 64 * 1024;
inline constexpr u8 kLittleEndian = 1;
inline constexpr u8 kBigEndian = 2;

enum class Compression : u8 { kNone = 0, kZstd = 1 };

// The game's header (the book's SAVEGAMEHEADER), stored uncompressed near the start.
struct ClientHeader {
  std::string level_name;
  u32 level_version = 0;
  u32 thumbnail_width = 0;
  u32 thumbnail_height = 0;
  ByteBuffer thumbnail;   // any pixel format the game likes
  ByteBuffer extra;       // a summary of the game state, free form
  bool progress = false;  // a progress save (position + achievements) rather than a full save
};

struct FileHeader {
  u8 endian = kLittleEndian;
  u8 pointer_bytes = sizeof(void*);
  Compression compression = Compression::kZstd;
  u64 version = 0;      // the SaveSystem's version
  u64 body_size = 0;    // uncompressed object stream
  u64 stored_size = 0;  // as stored
  ClientHeader client;
};

struct LoadLimits {
  u64 max_body_bytes = u64{512} << 20;  // refuse bodies that would decompress to more
  u64 max_file_bytes = u64{512} << 20;
};

// Whole file in, header + body (verified, decompressed) out.
struct DecodedFile {
  FileHeader header;
  ByteBuffer body;
};

Result<ByteBuffer> encode_file(const FileHeader& header, ByteSpan body, int level = 0);
// The same into `out` (replaced; its capacity is reused: a session keeps its file buffer).
Status encode_file_into(const FileHeader& header, ByteSpan body, int level, ByteBuffer& out);
// An uncompressed file written around its body in place: the bytes before the body (fixed
// header, client header, checksum table) for a body of `body_size` bytes.
Result<usize> uncompressed_prefix_size(const FileHeader& header, u64 body_size);
// `buffer` holds room for exactly that prefix, then the body: the prefix is written into the
// room and the checksums are computed over the body where it lies (no copy). `header` must say
// Compression::kNone.
Status encode_file_in_place(const FileHeader& header, ByteBuffer& buffer, usize body_at);
Result<DecodedFile> decode_file(ByteSpan file, const LoadLimits& limits = {});
// The same into `storage` (replaced, its capacity reused), `body` viewing it; with `view`, an
// uncompressed body is not copied: `body` is then a view of `file`'s own bytes (valid while they
// are). A compressed body is always decoded into `storage`.
Result<FileHeader> decode_file_into(ByteSpan file, ByteBuffer& storage, ByteSpan& body, bool view,
                                    const LoadLimits& limits = {});
// Parses and verifies only the header (needs the first bytes of the file, at least
// kFixedHeaderSize plus the client header). Refuses another machine's layout.
Result<FileHeader> decode_header(ByteSpan prefix, u64 file_size);
// Header-only read of a file: reads only the header's bytes.
Result<FileHeader> read_header(const std::filesystem::path& path);

}  // namespace keel::save
