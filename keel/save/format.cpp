#include "keel/save/format.h"

#include "keel/core/hash.h"
#include "keel/pack/compression.h"
#include "keel/save/detail/stream.h"

#include <cstdio>
#include <cstring>
#include <memory>

namespace keel::save {
namespace {

constexpr char kMagic[8] = {'K', 'E', 'E', 'L', 'S', 'A', 'V', 'E'};
constexpr u8 kContainerFormat = 1;
constexpr u32 kMaxClientHeader = 64u << 20;

Unexpected corrupt(u64 at, std::string_view why) {
  return fail_at(SourceLocation::bytes("", at), ErrorCode::kCorrupt,
                 "save file corrupt at byte {}: {}", at, why);
}

// The size encode_client() writes.
usize client_size(const ClientHeader& client) {
  return 4 + client.level_name.size() + 4 * 3 + 4 + client.thumbnail.size() + 4 +
         client.extra.size() + 1;
}

ByteBuffer encode_client(const ClientHeader& client) {
  ByteBuffer out;
  out.reserve(client_size(client));
  detail::Writer w(out);
  w.string(client.level_name);
  w.u32v(client.level_version);
  w.u32v(client.thumbnail_width);
  w.u32v(client.thumbnail_height);
  w.blob(client.thumbnail);
  w.blob(client.extra);
  w.value<u8>(client.progress ? 1 : 0);
  return out;
}

Result<ClientHeader> decode_client(ByteSpan bytes) {
  detail::Reader r(bytes);
  ClientHeader c;
  u8 progress = 0;
  if (!r.string(c.level_name) || !r.value(c.level_version) || !r.value(c.thumbnail_width) ||
      !r.value(c.thumbnail_height) || !r.blob(c.thumbnail) || !r.blob(c.extra) ||
      !r.value(progress) || progress > 1 || r.remaining() != 0) {
    return corrupt(kFixedHeaderSize + r.pos(), "client header is malformed");
  }
  c.progress = progress != 0;
  return c;
}

u64 header_checksum(ByteSpan fixed40, ByteSpan client) {
  return hash64(client.data(), client.size(), hash64(fixed40.data(), fixed40.size()));
}

u64 chunk_count(u64 stored) { return (stored + kChecksumChunk - 1) / kChecksumChunk; }

pack::Compression codec(Compression c) {
  return c == Compression::kZstd ? pack::Compression::kZstd : pack::Compression::kNone;
}

std::string layout_name(u8 endian, u8 pointer_bytes) {
  return fmt::format("{}-endian, {}-bit pointers",
                     endian == kLittleEndian ? "little"
                     : endian == kBigEndian  ? "big"
                                             : "unknown",
                     pointer_bytes * 8);
}

}  // namespace

Result<ByteBuffer> encode_file(const FileHeader& header, ByteSpan body, int level) {
  ByteBuffer out;
  if (auto st = encode_file_into(header, body, level, out); !st) return Unexpected(st.error());
  return out;
}

namespace {

// The fixed header and the client header into `out` (emptied first).
Status write_headers(const FileHeader& header, u64 body_size, u64 stored_size, ByteBuffer& out) {
  const ByteBuffer client = encode_client(header.client);
  if (client.size() > kMaxClientHeader) {
    return fail(ErrorCode::kInvalidArgument, "client header of {} bytes is too large",
                client.size());
  }
  out.clear();
  out.reserve(kFixedHeaderSize + client.size());
  detail::Writer w(out);
  w.bytes(kMagic, sizeof kMagic);
  w.value<u8>(kLittleEndian);
  w.value<u8>(sizeof(void*));
  w.value<u8>(static_cast<u8>(header.compression));
  w.value<u8>(kContainerFormat);
  w.u32v(static_cast<u32>(client.size()));
  w.u64v(header.version);
  w.u64v(body_size);
  w.u64v(stored_size);
  const u64 check = header_checksum(ByteSpan(out.data(), 40), client);
  w.u64v(check);
  w.bytes(client.data(), client.size());
  return {};
}

}  // namespace

Result<usize> uncompressed_prefix_size(const FileHeader& header, u64 body_size) {
  const usize client = client_size(header.client);
  if (client > kMaxClientHeader) {
    return fail(ErrorCode::kInvalidArgument, "client header of {} bytes is too large", client);
  }
  return kFixedHeaderSize + client + static_cast<usize>(chunk_count(body_size)) * 8;
}

Status encode_file_in_place(const FileHeader& header, ByteBuffer& buffer, usize body_at) {
  if (header.compression != Compression::kNone || body_at > buffer.size()) {
    return fail(ErrorCode::kInvalidArgument, "encode_file_in_place: not an uncompressed body");
  }
  const u64 size = buffer.size() - body_at;
  ByteBuffer prefix;
  if (auto st = write_headers(header, size, size, prefix); !st) return st;
  const u64 chunks = chunk_count(size);
  if (prefix.size() + chunks * 8 != body_at) {
    return fail(ErrorCode::kInvalidArgument, "encode_file_in_place: room for {} bytes, not {}",
                body_at, prefix.size() + chunks * 8);
  }
  std::memcpy(buffer.data(), prefix.data(), prefix.size());
  for (u64 i = 0; i < chunks; ++i) {
    const usize at = body_at + static_cast<usize>(i * kChecksumChunk);
    const usize n = std::min<usize>(kChecksumChunk, buffer.size() - at);
    const u64 sum = hash64(buffer.data() + at, n, i);
    std::memcpy(buffer.data() + prefix.size() + static_cast<usize>(i) * 8, &sum, 8);
  }
  return {};
}

Status encode_file_into(const FileHeader& header, ByteSpan body, int level, ByteBuffer& out) {
  ByteBuffer stored_holder;
  ByteSpan stored = body;
  if (header.compression == Compression::kZstd) {
    auto packed = pack::compress(pack::Compression::kZstd, body, level);
    if (!packed) return Unexpected(packed.error());
    stored_holder = std::move(*packed);
    stored = stored_holder;
  }
  const u64 chunks = chunk_count(stored.size());
  if (auto st = write_headers(header, body.size(), stored.size(), out); !st) return st;
  out.reserve(out.size() + chunks * 8 + stored.size());
  detail::Writer w(out);
  // One pass over the stored bytes: each 64 KiB chunk is copied, then hashed from the copy while
  // it is in cache, its checksum written into the table before the data.
  const usize table_at = out.size();
  out.resize(table_at + static_cast<usize>(chunks) * 8);
  for (u64 i = 0; i < chunks; ++i) {
    const usize at = static_cast<usize>(i * kChecksumChunk);
    const usize n = std::min<usize>(kChecksumChunk, stored.size() - at);
    const usize to = out.size();
    w.bytes(stored.data() + at, n);
    const u64 sum = hash64(out.data() + to, n, i);
    std::memcpy(out.data() + table_at + static_cast<usize>(i) * 8, &sum, 8);
  }
  return {};
}

Result<FileHeader> decode_header(ByteSpan prefix, u64 file_size) {
  if (prefix.size() < kFixedHeaderSize) {
    return corrupt(prefix.size(), "file too short for a save header");
  }
  if (std::memcmp(prefix.data(), kMagic, sizeof kMagic) != 0) {
    return fail_at(SourceLocation::bytes("", 0), ErrorCode::kCorrupt,
                   "not a save file (bad magic)");
  }
  detail::Reader r(prefix);
  r.skip(8);
  FileHeader h;
  u8 compression = 0;
  u8 container = 0;
  u32 client_size = 0;
  u64 check = 0;
  r.value(h.endian);
  r.value(h.pointer_bytes);
  r.value(compression);
  r.value(container);
  r.value(client_size);
  r.value(h.version);
  r.value(h.body_size);
  r.value(h.stored_size);
  r.value(check);
  if (client_size > kMaxClientHeader || kFixedHeaderSize + client_size > file_size) {
    return corrupt(12, "client header size is out of range");
  }
  if (prefix.size() < kFixedHeaderSize + client_size) {
    return corrupt(prefix.size(), "file ends inside the client header");
  }
  const ByteSpan client = prefix.subspan(kFixedHeaderSize, client_size);
  if (header_checksum(prefix.first(40), client) != check) {
    return corrupt(0, "header checksum mismatch (bytes 0.." +
                          std::to_string(kFixedHeaderSize + client_size - 1) + ")");
  }
  if (h.endian != kLittleEndian || h.pointer_bytes != sizeof(void*)) {
    return fail(ErrorCode::kUnsupported,
                "save file written on a machine with {}; this build reads saves with {}",
                layout_name(h.endian, h.pointer_bytes), layout_name(kLittleEndian, sizeof(void*)));
  }
  if (container != kContainerFormat) {
    return fail(ErrorCode::kUnsupported, "save container format {} (this build reads {})",
                container, kContainerFormat);
  }
  if (compression > static_cast<u8>(Compression::kZstd)) {
    return corrupt(10, "unknown compression");
  }
  h.compression = static_cast<Compression>(compression);
  auto parsed = decode_client(client);
  if (!parsed) return Unexpected(parsed.error());
  h.client = std::move(*parsed);
  return h;
}

namespace {

// decode_file and decode_file_view: verifies `file` and finds its body. An uncompressed body is
// copied into `storage` (64 KiB at a time, right after its checksum read that chunk: one pass
// over the file's bytes from memory instead of two) unless `view`, when `body` is the file's own
// bytes; a compressed body is decoded into `storage` (replaced, its capacity reused).
Result<FileHeader> decode_into(ByteSpan file, const LoadLimits& limits, bool view,
                               ByteBuffer& storage, ByteSpan& body) {
  if (file.size() > limits.max_file_bytes) {
    return fail(ErrorCode::kOutOfRange, "save file of {} bytes exceeds the limit", file.size());
  }
  auto header = decode_header(file, file.size());
  if (!header) return Unexpected(header.error());
  const FileHeader& h = *header;
  u32 client_size = 0;
  std::memcpy(&client_size, file.data() + 12, 4);
  const u64 table_at = kFixedHeaderSize + client_size;
  const u64 chunks = chunk_count(h.stored_size);
  const u64 avail = file.size() - table_at;
  if (h.stored_size > avail || chunks * 8 != avail - h.stored_size) {
    return corrupt(file.size(), file.size() < table_at + chunks * 8 + h.stored_size
                                    ? "file is truncated"
                                    : "file has bytes after its end");
  }
  const u64 data_at = table_at + chunks * 8;
  const bool plain = h.compression == Compression::kNone && h.body_size == h.stored_size &&
                     h.body_size <= limits.max_body_bytes;
  const bool copy = plain && !view;
  storage.clear();
  if (copy) storage.reserve(static_cast<usize>(h.stored_size));
  for (u64 i = 0; i < chunks; ++i) {
    const u64 at = data_at + i * kChecksumChunk;
    const u64 n = std::min<u64>(kChecksumChunk, h.stored_size - i * kChecksumChunk);
    u64 want = 0;
    std::memcpy(&want, file.data() + table_at + i * 8, 8);
    if (hash64(file.data() + at, n, i) != want) {
      return corrupt(at, fmt::format("checksum mismatch in bytes {}..{}", at, at + n - 1));
    }
    if (copy) {
      storage.insert(storage.end(), file.begin() + static_cast<std::ptrdiff_t>(at),
                     file.begin() + static_cast<std::ptrdiff_t>(at + n));
    }
  }
  const ByteSpan stored = file.subspan(data_at, h.stored_size);
  if (plain) {
    body = view ? stored : ByteSpan(storage);
    return header;
  }
  if (h.body_size > limits.max_body_bytes) {
    return fail(ErrorCode::kOutOfRange, "save body of {} bytes exceeds the limit", h.body_size);
  }
  if (h.compression == Compression::kNone) return corrupt(24, "stored body size mismatch");
  if (h.body_size > pack::max_expansion(codec(h.compression), h.stored_size)) {
    return corrupt(24, "body size is implausible for its compressed size");
  }
  storage.resize(h.body_size);
  auto st = pack::decompress(codec(h.compression), stored, storage);
  if (!st) return corrupt(data_at, "compressed body does not decode: " + st.error().message());
  body = ByteSpan(storage);
  return header;
}

}  // namespace

Result<DecodedFile> decode_file(ByteSpan file, const LoadLimits& limits) {
  DecodedFile out;
  ByteSpan body;
  auto header = decode_into(file, limits, false, out.body, body);
  if (!header) return Unexpected(header.error());
  out.header = std::move(*header);
  return out;
}

Result<FileHeader> decode_file_into(ByteSpan file, ByteBuffer& storage, ByteSpan& body, bool view,
                                    const LoadLimits& limits) {
  return decode_into(file, limits, view, storage, body);
}

Result<FileHeader> read_header(const std::filesystem::path& path) {
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!f) return fail(ErrorCode::kIo, "cannot open '{}'", path.string());
  std::error_code ec;
  const u64 size = std::filesystem::file_size(path, ec);
  if (ec) return fail(ErrorCode::kIo, "cannot stat '{}'", path.string());
  ByteBuffer prefix(kFixedHeaderSize);
  const usize got = std::fread(prefix.data(), 1, prefix.size(), f.get());
  prefix.resize(got);
  if (got == kFixedHeaderSize) {
    u32 client_size = 0;
    std::memcpy(&client_size, prefix.data() + 12, 4);
    if (client_size <= kMaxClientHeader && kFixedHeaderSize + client_size <= size) {
      prefix.resize(kFixedHeaderSize + client_size);
      const usize more = std::fread(prefix.data() + kFixedHeaderSize, 1, client_size, f.get());
      prefix.resize(kFixedHeaderSize + more);
    }
  }
  auto h = decode_header(prefix, size);
  if (!h) {
    Error e = h.error();
    SourceLocation where = e.where();
    where.file = path.string();
    return Unexpected(Error(e.code(), e.message(), where));
  }
  return h;
}

}  // namespace keel::save
