#include "keel/pipeline/detail/build_db.h"

#include "keel/core/file.h"
#include "keel/core/hash.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace keel::pipeline {
namespace {

// On disk, little-endian:
//   header  "KBDB" | u32 version | u64 payload length | u64 hash64(payload) | u64 reserved (0)
//   payload files, records, pack (see write_payload)
constexpr u8 kMagic[4] = {'K', 'B', 'D', 'B'};
constexpr usize kHeaderSize = 32;
// Smallest encodings, used to reject counts that cannot fit in the remaining bytes.
constexpr usize kMinFile = 8 * 6;
constexpr usize kMinRecord = 4 * 4 + 8 * 3 + 4;
constexpr usize kMinSource = 4 + 8;
constexpr usize kMinInput = 4 + 8;

class Writer {
 public:
  void u8v(u8 v) { out_.push_back(std::byte{v}); }
  void u32v(u32 v) {
    for (int i = 0; i < 4; ++i) u8v(static_cast<u8>(v >> (8 * i)));
  }
  void u64v(u64 v) {
    for (int i = 0; i < 8; ++i) u8v(static_cast<u8>(v >> (8 * i)));
  }
  void s64v(s64 v) { u64v(static_cast<u64>(v)); }
  void str(std::string_view s) {
    u32v(static_cast<u32>(s.size()));
    const ByteSpan bytes = as_bytes(s);
    out_.insert(out_.end(), bytes.begin(), bytes.end());
  }
  ByteBuffer& bytes() { return out_; }

 private:
  ByteBuffer out_;
};

class Reader {
 public:
  Reader(std::span<const u8> bytes, usize base) : bytes_(bytes), base_(base) {}

  bool u8v(u8& v) {
    if (!need(1)) return false;
    v = bytes_[pos_++];
    return true;
  }
  bool u32v(u32& v) {
    if (!need(4)) return false;
    v = 0;
    for (int i = 0; i < 4; ++i) v |= static_cast<u32>(bytes_[pos_ + i]) << (8 * i);
    pos_ += 4;
    return true;
  }
  bool u64v(u64& v) {
    if (!need(8)) return false;
    v = 0;
    for (int i = 0; i < 8; ++i) v |= static_cast<u64>(bytes_[pos_ + i]) << (8 * i);
    pos_ += 8;
    return true;
  }
  bool s64v(s64& v) {
    u64 u = 0;
    if (!u64v(u)) return false;
    v = static_cast<s64>(u);
    return true;
  }
  bool str(std::string& s) {
    u32 n = 0;
    if (!u32v(n) || !need(n)) return false;
    s.assign(reinterpret_cast<const char*>(bytes_.data() + pos_), n);
    pos_ += n;
    return true;
  }
  // A count of entries that take at least `min_size` bytes each.
  bool count(u32& n, usize min_size) {
    if (!u32v(n)) return false;
    if (static_cast<u64>(n) * min_size > bytes_.size() - pos_) {
      problem_ = "entry count larger than the data";
      return false;
    }
    return true;
  }
  bool done() const { return pos_ == bytes_.size(); }
  usize offset() const { return base_ + pos_; }
  const char* problem() const { return problem_; }

 private:
  bool need(usize n) {
    if (bytes_.size() - pos_ < n) {
      problem_ = "truncated";
      return false;
    }
    return true;
  }
  std::span<const u8> bytes_;
  usize base_;
  usize pos_ = 0;
  const char* problem_ = "truncated";
};

Unexpected corrupt(usize offset, std::string_view what) {
  return fail_at(SourceLocation::bytes("build database", offset), ErrorCode::kCorrupt, "{}", what);
}

}  // namespace

ByteBuffer BuildDatabase::to_bytes() const {
  Writer p;
  p.u32v(static_cast<u32>(files_.size()));
  for (const auto& [key, f] : files_.entries()) {
    p.u64v(key);
    p.u64v(f.stamp.size);
    p.s64v(f.stamp.mtime_ns);
    p.u64v(f.stamp.inode);
    p.u64v(f.hash);
    p.s64v(f.hashed_at_ns);
  }
  p.u32v(static_cast<u32>(records_.size()));
  for (const IntermediateRecord& r : records_) {
    p.str(r.output);
    p.str(r.asset_name);
    p.str(r.asset_type);
    p.str(r.platform);
    p.u64v(r.handler_key);
    p.u64v(r.command_hash);
    p.u64v(r.output_hash);
    p.u32v(static_cast<u32>(r.sources.size()));
    for (const SourceDependency& s : r.sources) {
      p.str(s.path);
      p.u64v(s.hash);
    }
  }
  p.u8v(pack_.valid ? 1 : 0);
  p.u64v(pack_.data_hash);
  p.u32v(static_cast<u32>(pack_.inputs.size()));
  for (const PackInput& in : pack_.inputs) {
    p.str(in.output);
    p.u64v(in.hash);
  }

  const ByteBuffer& payload = p.bytes();
  Writer h;
  for (u8 c : kMagic) h.u8v(c);
  h.u32v(kVersion);
  h.u64v(payload.size());
  h.u64v(hash64(payload.data(), payload.size()));
  h.u64v(0);
  ByteBuffer out = std::move(h.bytes());
  out.insert(out.end(), payload.begin(), payload.end());
  return out;
}

Result<BuildDatabase> BuildDatabase::from_bytes(ByteSpan data) {
  const std::span<const u8> bytes = as_u8(data);
  if (bytes.size() < kHeaderSize) return corrupt(0, "shorter than its header");
  if (std::memcmp(bytes.data(), kMagic, 4) != 0) return corrupt(0, "not a build database");
  Reader h(bytes.subspan(4, kHeaderSize - 4), 4);
  u32 version = 0;
  u64 length = 0;
  u64 checksum = 0;
  u64 reserved = 0;
  h.u32v(version);
  h.u64v(length);
  h.u64v(checksum);
  h.u64v(reserved);
  if (version != kVersion) {
    return fail_at(SourceLocation::bytes("build database", 4), ErrorCode::kUnsupported,
                   "version {} (this build reads version {})", version, kVersion);
  }
  if (length != bytes.size() - kHeaderSize) return corrupt(8, "length does not match the file");
  if (reserved != 0) return corrupt(24, "reserved header field is not zero");
  const std::span<const u8> payload = bytes.subspan(kHeaderSize);
  if (hash64(payload.data(), payload.size()) != checksum) return corrupt(16, "checksum mismatch");

  BuildDatabase db;
  Reader r(payload, kHeaderSize);
  auto bad = [&r]() { return corrupt(r.offset(), r.problem()); };
  u32 n = 0;
  if (!r.count(n, kMinFile)) return bad();
  std::vector<FileCache::Entry> files(n);
  for (auto& [key, f] : files) {
    if (!r.u64v(key) || !r.u64v(f.stamp.size) || !r.s64v(f.stamp.mtime_ns) ||
        !r.u64v(f.stamp.inode) || !r.u64v(f.hash) || !r.s64v(f.hashed_at_ns)) {
      return bad();
    }
  }
  db.files_.assign(std::move(files));
  if (!r.count(n, kMinRecord)) return bad();
  db.records_.reserve(n);
  db.index_.reserve(n);
  for (u32 i = 0; i < n; ++i) {
    IntermediateRecord rec;
    u32 sources = 0;
    if (!r.str(rec.output) || !r.str(rec.asset_name) || !r.str(rec.asset_type) ||
        !r.str(rec.platform) || !r.u64v(rec.handler_key) || !r.u64v(rec.command_hash) ||
        !r.u64v(rec.output_hash) || !r.count(sources, kMinSource)) {
      return bad();
    }
    rec.sources.resize(sources);
    for (SourceDependency& s : rec.sources) {
      if (!r.str(s.path) || !r.u64v(s.hash)) return bad();
    }
    db.put(std::move(rec));
  }
  u8 valid = 0;
  if (!r.u8v(valid) || !r.u64v(db.pack_.data_hash) || !r.count(n, kMinInput)) return bad();
  if (valid > 1) return corrupt(r.offset(), "bad flag");
  db.pack_.valid = valid == 1;
  db.pack_.inputs.resize(n);
  for (PackInput& in : db.pack_.inputs) {
    if (!r.str(in.output) || !r.u64v(in.hash)) return bad();
  }
  if (!r.done()) return corrupt(r.offset(), "trailing bytes");
  return db;
}

Result<BuildDatabase> BuildDatabase::load(const std::filesystem::path& path) {
  // Mapped rather than read: the page cache's pages are used in place (a read copied the file
  // into fresh memory, one page fault per 4 KiB). The database is only ever replaced by a
  // rename, never rewritten in place, so the mapping does not change under the reader.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0 && errno == ENOENT) return BuildDatabase();
  struct stat st {};
  void* mapped = MAP_FAILED;
  usize size = 0;
  if (fd >= 0) {
    if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
      size = static_cast<usize>(st.st_size);
      mapped = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
    }
    ::close(fd);
  }
  Result<BuildDatabase> db;
  if (mapped != MAP_FAILED) {
    db = from_bytes(ByteSpan(static_cast<const std::byte*>(mapped), size));
    ::munmap(mapped, size);
  } else {  // not a regular file, empty, or not mappable: read it (and say why it fails)
    Result<std::string> bytes = read_file(path);
    if (!bytes) return Unexpected(bytes.error());
    db = from_bytes(as_bytes(*bytes));
  }
  if (!db) {
    // The reader names the file "build database"; the error names the real one.
    SourceLocation where = db.error().where();
    where.file = path.string();
    return Unexpected(Error(db.error().code(), db.error().message(), std::move(where)));
  }
  return db;
}

Status BuildDatabase::save(const std::filesystem::path& path) const {
  std::error_code ec;
  std::filesystem::create_directories(path.parent_path(), ec);
  return write_file_atomic(path, as_chars(to_bytes()));
}

void BuildDatabase::reserve(usize records, usize files) {
  records_.reserve(records);
  index_.reserve(records);
  files_.reserve(files);
}

const IntermediateRecord* BuildDatabase::find(std::string_view output, Cursor& cursor) const {
  const usize end = std::min(records_.size(), cursor.next + kWindow);
  for (usize i = cursor.next; i < end; ++i) {
    if (records_[i].output == output) {
      cursor.next = i + 1;
      return &records_[i];
    }
  }
  const IntermediateRecord* found = find(output);
  if (found != nullptr) cursor.next = static_cast<usize>(found - records_.data()) + 1;
  return found;
}

const IntermediateRecord* BuildDatabase::find(std::string_view output) const {
  if (const u32* i = index_.find(hash64(output)); i != nullptr && records_[*i].output == output) {
    return &records_[*i];
  }
  // A hash collision (never seen in practice): the other record is found by a linear search.
  if (index_.find(hash64(output)) == nullptr) return nullptr;
  for (const IntermediateRecord& r : records_) {
    if (r.output == output) return &r;
  }
  return nullptr;
}

void BuildDatabase::put(IntermediateRecord record) {
  const u64 key = hash64(record.output);
  if (const u32* i = index_.find(key)) {
    if (records_[*i].output == record.output) {
      records_[*i] = std::move(record);
      return;
    }
    for (IntermediateRecord& r : records_) {  // a collision: replace by output, or append
      if (r.output == record.output) {
        r = std::move(record);
        return;
      }
    }
    records_.push_back(std::move(record));
    return;
  }
  index_.insert_or_assign(key, static_cast<u32>(records_.size()));
  records_.push_back(std::move(record));
}

bool operator==(const BuildDatabase& a, const BuildDatabase& b) {
  if (a.records_.size() != b.records_.size() || !(a.files_ == b.files_) || a.pack_ != b.pack_) {
    return false;
  }
  for (const IntermediateRecord& r : a.records_) {
    const IntermediateRecord* other = b.find(r.output);
    if (other == nullptr || *other != r) return false;
  }
  return true;
}

u64 BuildDatabase::file_key(std::string_view path) { return hash64(path); }

const FileRecord* BuildDatabase::file(u64 key) const { return files_.find(key); }

}  // namespace keel::pipeline
