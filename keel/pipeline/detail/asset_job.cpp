#include "keel/pipeline/detail/asset_job.h"

#include "keel/core/file.h"
#include "keel/pack/writer.h"
#include "keel/pipeline/detail/include_search.h"
#include "keel/pipeline/detail/names.h"
#include "keel/pipeline/remote_cache.h"
#include "keel/text/document.h"
#include "keel/text/signature.h"

#include <fmt/format.h>

#include <fcntl.h>
#include <unistd.h>

#include <bit>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <exception>
#include <optional>
#include <utility>

namespace keel::pipeline {

namespace fs = std::filesystem;

namespace {

// An intermediate written in place of the old one: unlink, create, write. No fsync and no
// rename over the old file (ext4 flushes data on a replacing rename): an intermediate can always
// be made again, and a torn one has the wrong content hash, so the next build remakes it. The
// pack writer streams into it (PackOutput); a failure deletes the file.
class IntermediateFile final : public pack::PackOutput {
 public:
  ~IntermediateFile() {
    if (fd_ >= 0) {
      ::close(fd_);
      ::unlink(path_.c_str());
    }
  }

  Status open(const std::string& file) {
    path_ = file;
    const fs::path path(file);
    std::error_code ec;
    fs::create_directories(path.parent_path(), ec);
    if (ec) {
      return fail_at(SourceLocation::text(path.parent_path().string(), 0), ErrorCode::kIo,
                     "cannot create folder: {}", ec.message());
    }
    ::unlink(file.c_str());
    fd_ = ::open(file.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd_ < 0) return io_error("cannot create file", errno);
    return ok();
  }

  Status append(ByteSpan bytes) override { return write_all(bytes, std::nullopt); }
  Status truncate(u64 size) override {
    if (::ftruncate(fd_, static_cast<off_t>(size)) != 0 ||
        ::lseek(fd_, static_cast<off_t>(size), SEEK_SET) < 0) {
      return io_error("cannot write file", errno);
    }
    return ok();
  }
  Status write_at(u64 offset, ByteSpan bytes) override { return write_all(bytes, offset); }

  // Closes the file; keeps it only when everything went well.
  Status finish() {
    const int fd = std::exchange(fd_, -1);
    if (::close(fd) != 0) {
      const int error = errno;
      ::unlink(path_.c_str());
      return io_error("cannot write file", error);
    }
    return ok();
  }

 private:
  Status io_error(std::string_view what, int error) const {
    return fail_at(SourceLocation::text(path_, 0), ErrorCode::kIo, "{}: {}", what,
                   std::strerror(error));
  }
  Status write_all(ByteSpan bytes, std::optional<u64> offset) {
    const std::byte* p = bytes.data();
    usize left = bytes.size();
    while (left > 0) {
      const ssize_t n =
          offset ? ::pwrite(fd_, p, left, static_cast<off_t>(*offset)) : ::write(fd_, p, left);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return io_error("cannot write file", n < 0 ? errno : ENOSPC);  // 0: disk full
      p += n;
      left -= static_cast<usize>(n);
      if (offset) *offset += static_cast<u64>(n);
    }
    return ok();
  }

  std::string path_;
  int fd_ = -1;
};

// Writes a whole intermediate held in memory (a download from the shared cache).
Status write_intermediate(const std::string& file, ByteSpan bytes) {
  IntermediateFile out;
  Status s = out.open(file);
  if (s) s = out.append(bytes);
  if (s) s = out.finish();
  return s;
}

// An error as part of another message: its file (if any) and message, without a second
// "error:".
std::string describe(const Error& e) {
  return e.where().file.empty() ? e.message() : fmt::format("{}: {}", e.where().file, e.message());
}

}  // namespace

// The OutputFile a handler writes: a pack writer, uncompressed (the repack compresses).
class AssetJob::Output final : public OutputFile {
 public:
  explicit Output(AssetJob& job)
      : job_(job),
        writer_({.compression = pack::Compression::kNone, .level = 0, .write_dictionary = true}) {}
  ~Output() override = default;

  u32 add_chunk(std::string_view name, u16 block_type, ByteSpan data, u32 alignment) override {
    if (closed_) {
      job_.output_error("add_chunk on an output file that is already closed");
      return 0;
    }
    if (alignment == 0 || !std::has_single_bit(alignment) || alignment > pack::kMaxAlignment) {
      job_.output_error(fmt::format("chunk alignment {} is not a power of two up to {}", alignment,
                                    pack::kMaxAlignment));
      return 0;
    }
    return writer_.add_chunk(name, block_type, data, alignment).value;
  }

  u32 add_file_chunk(std::string_view name, u16 block_type, std::string_view path,
                     u32 alignment) override {
    if (closed_) {
      job_.output_error("add_file_chunk on an output file that is already closed");
      return 0;
    }
    if (alignment == 0 || !std::has_single_bit(alignment) || alignment > pack::kMaxAlignment) {
      job_.output_error(fmt::format("chunk alignment {} is not a power of two up to {}", alignment,
                                    pack::kMaxAlignment));
      return 0;
    }
    return writer_.add_file_chunk(name, block_type, fs::path(path), alignment).value;
  }

  void add_item(std::string_view name, std::string_view type, u32 primary_chunk) override {
    if (closed_) {
      job_.output_error("add_item on an output file that is already closed");
      return;
    }
    writer_.add_item(name, pack::type_hash(type), pack::LocatorId{primary_chunk});
  }

  bool close() override {
    if (closed_) {
      job_.output_error("close on an output file that is already closed");
      return false;
    }
    closed_ = true;
    // Stamped before writing, as if read back then (the racy-file rule re-hashes it if needed).
    const s64 now = wall_clock_ns();
    // In memory (the usual case), the pack is made before the old intermediate is replaced, so a
    // writer error leaves it in place.
    std::optional<ByteBuffer> bytes;
    std::optional<u64> hash;
    if (!writer_.has_streamed_data()) {
      Result<ByteBuffer> made = writer_.to_bytes();
      if (!made) {
        job_.output_error(made.error().message());
        return false;
      }
      hash = content_hash(*made);
      bytes = std::move(*made);
    }
    IntermediateFile file;
    Status s = file.open(job_.output_path());
    if (s) {
      // Streamed chunks (add_file_chunk) go to the file in pieces; the content hash is then
      // taken by reading the file back in pieces, never holding it whole.
      s = bytes ? file.append(*bytes) : writer_.write_to(file);
    }
    if (s) s = file.finish();
    if (!s) {
      job_.output_error(describe(s.error()));
      return false;
    }
    if (!hash) {
      const Result<FileRecord> read_back = hash_file(job_.output_path());
      if (!read_back) {
        job_.output_error(describe(read_back.error()));
        return false;
      }
      hash = read_back->hash;
    }
    const std::optional<FileStamp> stamp = stat_file(job_.output_path());
    if (!stamp) {
      job_.output_error("the intermediate vanished after writing");
      return false;
    }
    job_.output_written(FileRecord{*stamp, *hash, now});
    // Intermediates with streamed chunks (large sources) are not uploaded: the cache client sends
    // bytes held in memory, which the streamed path exists to avoid.
    const RemoteCache* cache = job_.shared_.options.remote_cache;
    if (bytes && cache != nullptr && cache->can_write()) job_.built_bytes_ = std::move(*bytes);
    return true;
  }

  bool closed() const { return closed_; }

 private:
  AssetJob& job_;
  pack::PackWriter writer_;
  bool closed_ = false;
};

AssetJob::AssetJob(JobShared& shared, usize index, const AssetCommand& asset,
                   const std::vector<const text::Document*>& documents)
    : shared_(shared), index_(index), asset_(asset), documents_(documents) {}

AssetJob::~AssetJob() = default;

bool AssetJob::check(const text::Token& cmd, std::initializer_list<text::ParamKinds> params,
                     const text::CommandRules& rules) {
  return text::check_command(cmd, diag_, params, rules);
}

u64 AssetJob::command_hash() {
  if (!command_hash_) command_hash_ = text::hash_tree(*asset_.command);
  return *command_hash_;
}

Result<FileRecord> AssetJob::file_state(const std::string& path, const FileStamp& stamp,
                                        std::string* content) {
  const u64 key = BuildDatabase::file_key(path);
  // One cursor per thread: a no-op build looks the file states up in the order they were
  // stored (file_cache.h). Only a hint, so one left over from another build is harmless.
  thread_local FileCache::Cursor cursor;
  const FileRecord* cached = shared_.old_db.file(key, cursor);
  if (cached != nullptr && can_trust(*cached, stamp)) {
    result_.files.emplace_back(key, *cached);
    return *cached;
  }
  // A source another data file of this run hashed (intermediates are never shared).
  if (content != nullptr && shared_.memo != nullptr) {
    if (std::optional<FileRecord> known = shared_.memo->find(key, stamp)) {
      result_.files.emplace_back(key, *known);
      result_.rehashed = true;  // not what the old database says: it is saved again
      return *known;
    }
  }
  Result<FileRecord> hashed;
  if (content != nullptr) {
    Result<HashedFile> file = read_and_hash_file(path);
    if (!file) return Unexpected(file.error());
    *content = std::move(file->content);
    hashed = file->record;
  } else {
    hashed = hash_file(path);
    if (!hashed) return hashed;
  }
  result_.files.emplace_back(key, *hashed);
  result_.rehashed = true;
  if (content != nullptr && shared_.memo != nullptr) shared_.memo->put(key, *hashed);
  return hashed;
}

Result<std::string> AssetJob::find_source(std::string_view name) {
  std::optional<SourceHit> hit =
      find_source_in(shared_.search_dirs.at(asset_.handler), name, &shared_.folders);
  if (!hit) {
    const std::string why = why_not_found(shared_.search_dirs.at(asset_.handler), name);
    if (!why.empty()) {
      return fail(ErrorCode::kNotFound, "source `{}` cannot be used: {}", name, why);
    }
    return fail(ErrorCode::kNotFound, "source `{}` not found in the include paths of ({}, {})",
                name, shared_.platform, asset_.handler->type);
  }
  std::string content;
  Result<FileRecord> state = file_state(hit->path, hit->stamp, &content);
  if (!state) {
    diag_.error(asset_.command->location(),
                fmt::format("cannot read source `{}`: {}", name, state.error().to_string()));
    return Unexpected(state.error());
  }
  const FileRecord record = *state;
  if (!content.empty()) contents_.insert_or_assign(hit->path, std::move(content));
  // Relative to the project when inside it, so the project can move.
  const std::string_view root = shared_.project_root;
  sources_.push_back(
      {hit->path.starts_with(root) ? hit->path.substr(root.size()) : hit->path, record.hash});
  return std::move(hit->path);
}

Result<std::string> AssetJob::read_file(std::string_view path) {
  if (auto it = contents_.find(path); it != contents_.end()) {
    // Handed over, not copied: a second read of the same file goes to the disk.
    std::string content = std::move(it->second);
    contents_.erase(it);
    return content;
  }
  Result<std::string> bytes = keel::read_file(fs::path(path));
  if (!bytes) {
    diag_.error(asset_.command->location(),
                fmt::format("cannot read `{}`: {}", path, bytes.error().to_string()));
  }
  return bytes;
}

bool AssetJob::set_output(std::string_view asset_name) {
  const text::Token& cmd = *asset_.command;
  if (!output_rel_.empty()) {
    diag_.error(cmd, "the handler declared a second output (`{}` after `{}`)", asset_name,
                asset_name_);
    return false;
  }
  if (asset_name.empty()) {
    diag_.error(cmd, "an asset needs a non-empty name");
    return false;
  }
  std::string& name = shared_.declared_names[index_];
  std::string& rel = shared_.declared_outputs[index_];
  rel = asset_.handler->type;
  rel += '/';
  rel += file_name_for(asset_name);
  rel += kIntermediateExtension;
  const Hash hash = pack::name_hash(asset_name);
  const u64 rel_hash = hash64(rel);
  {
    std::lock_guard lock(shared_.claims_mutex);
    name = asset_name;
    auto [name_index, name_new] = shared_.names.insert(hash, static_cast<u32>(index_));
    if (!name_new) {
      const text::Token& other = *(*shared_.assets)[*name_index].command;
      const std::string& other_name = shared_.declared_names[*name_index];
      if (other_name == asset_name) {
        diag_.error(cmd, "asset `{}` is also made by the command at {}:{}:{}", asset_name,
                    other.file, other.line, other.column);
      } else {
        diag_.error(cmd, "asset names `{}` and `{}` ({}:{}) have the same hash {:08x}", asset_name,
                    other_name, other.file, other.line, hash);
      }
      return false;
    }
    // Same 64-bit hash and same path: the same intermediate (a collision of different paths
    // is no conflict).
    auto [output_index, output_new] = shared_.outputs.insert(rel_hash, static_cast<u32>(index_));
    if (!output_new && shared_.declared_outputs[*output_index] == rel) {
      diag_.error(cmd, "asset `{}` would overwrite the intermediate {} of another command",
                  asset_name, rel);
      return false;
    }
  }
  asset_name_ = name;
  output_rel_ = rel;
  output_path_ = shared_.dir;
  output_path_ += '/';
  output_path_ += output_rel_;
  return true;
}

bool AssetJob::up_to_date() { return local_up_to_date() || fetch_from_remote(); }

std::string AssetJob::remote_key() {
  ActionInput in{asset_.handler->type, asset_.handler->key, shared_.platform,
                 asset_name_,          command_hash(),      {}};
  in.sources.reserve(sources_.size());
  for (const SourceDependency& s : sources_) in.sources.push_back({s.path, s.hash});
  return action_key(in);
}

bool AssetJob::fetch_from_remote() {
  RemoteCache* cache = shared_.options.remote_cache;
  if (cache == nullptr || output_rel_.empty() || shared_.options.force_rebuild) return false;
  std::string warning;
  std::optional<ByteBuffer> bytes = cache->fetch(remote_key(), warning);
  if (!warning.empty()) log(log::Level::kWarn, warning);
  if (!bytes) return false;
  const s64 now = wall_clock_ns();
  if (Status s = write_intermediate(output_path_, *bytes); !s) {
    log(log::Level::kWarn,
        fmt::format("remote cache: cannot install the download: {}", s.error().to_string()));
    return false;
  }
  const std::optional<FileStamp> stamp = stat_file(output_path_);
  if (!stamp) return false;
  output_written(FileRecord{*stamp, content_hash(*bytes), now});
  fetched_ = true;
  is_up_to_date_ = true;
  return true;
}

void AssetJob::upload_to_remote(u64 build_ns) {
  RemoteCache* cache = shared_.options.remote_cache;
  if (cache == nullptr || built_bytes_.empty()) return;
  std::string warning;
  cache->store(remote_key(), built_bytes_, build_ns, warning);
  if (!warning.empty()) log(log::Level::kWarn, warning);
  built_bytes_ = ByteBuffer();
}

bool AssetJob::local_up_to_date() {
  checked_up_to_date_ = true;
  is_up_to_date_ = false;
  if (output_rel_.empty()) {
    diag_.error(*asset_.command, "up_to_date() before set_output(): the handler has no output");
    return false;
  }
  if (shared_.options.force_rebuild) return false;
  thread_local BuildDatabase::Cursor cursor;  // records are stored in job order (build_db.h)
  const IntermediateRecord* old = shared_.old_db.find(output_rel_, cursor);
  if (old == nullptr || old->handler_key != asset_.handler->key ||
      old->platform != shared_.platform || old->asset_name != asset_name_ ||
      old->command_hash != command_hash() || old->sources != sources_) {
    return false;
  }
  const std::string& path = output_path_;
  const std::optional<FileStamp> stamp = shared_.folders.stat(path);
  if (!stamp) return false;
  Result<FileRecord> state = file_state(path, *stamp, nullptr);
  if (!state || state->hash != old->output_hash) return false;
  kept_ = old;
  is_up_to_date_ = true;
  return true;
}

OutputFile* AssetJob::create_output() {
  if (output_rel_.empty()) {
    diag_.error(*asset_.command, "create_output() before set_output(): the handler has no output");
    return nullptr;
  }
  if (output_) {
    diag_.error(*asset_.command, "the handler created its output twice");
    return nullptr;
  }
  is_up_to_date_ = false;
  fetched_ = false;
  shared_.outputs_created.fetch_add(1);
  output_ = std::make_unique<Output>(*this);
  return output_.get();
}

void AssetJob::log(log::Level level, std::string_view message) {
  const text::Token& cmd = *asset_.command;
  const std::string_view label = level >= log::Level::kError  ? "error"
                                 : level == log::Level::kWarn ? "warning"
                                                              : "note";
  log_ += fmt::format("{}:{}:{}: {}: {}\n", cmd.file, cmd.line, cmd.column, label, message);
  if (level >= log::Level::kError) ++result_.errors;
}

void AssetJob::error(const text::Token& at, std::string_view message) {
  diag_.error(at, std::string(message));
}

void AssetJob::report(const text::Diagnostics& diagnostics, const text::Document* source) {
  for (const text::Diagnostic& d : diagnostics.items()) diag_.add(d.severity, d.error);
  if (source != nullptr && !diagnostics.empty()) {
    diag_.keep_source(source->filename(), std::string(source->source()));
  }
}

void AssetJob::output_written(const FileRecord& record) {
  written_ = record;
  result_.files.emplace_back(BuildDatabase::file_key(output_path_), record);
}

void AssetJob::output_error(std::string_view message) {
  diag_.error(*asset_.command, fmt::format("writing `{}`: {}", asset_name_, message));
}

JobResult AssetJob::run() {
  const text::Token& cmd = *asset_.command;
  bool ok = false;
  const auto start = std::chrono::steady_clock::now();
  try {
    ok = asset_.handler->fn(*this);
  } catch (const std::exception& e) {
    diag_.error(cmd, fmt::format("the `{}` handler threw: {}", asset_.handler->type, e.what()));
  } catch (...) {
    diag_.error(cmd, fmt::format("the `{}` handler threw", asset_.handler->type));
  }
  if (ok && diag_.has_errors()) ok = false;
  if (ok && !output_rel_.empty()) {
    if (output_) {
      if (!output_->closed()) {
        diag_.error(cmd, "the handler did not close its output file");
        ok = false;
      } else if (!written_) {
        ok = false;  // the write failed and was reported
      }
    } else if (!is_up_to_date_) {
      diag_.error(cmd, "the handler declared `{}` but neither wrote it nor found it up to date",
                  asset_name_);
      ok = false;
    }
  }
  if (ok && result_.errors != 0) ok = false;  // errors logged through log(kError)
  if (ok && output_ && written_) {
    upload_to_remote(static_cast<u64>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                          std::chrono::steady_clock::now() - start)
                                          .count()));
  }

  result_.asset_name = std::string(asset_name_);
  if (!ok) {
    result_.outcome = AssetOutcome::kFailed;
    if (result_.errors == 0 && diag_.error_count() == 0) {
      diag_.error(cmd, fmt::format("the `{}` handler failed", asset_.handler->type));
    }
  } else if (output_rel_.empty()) {
    result_.outcome = AssetOutcome::kNoOutput;
  } else if (output_ || fetched_) {
    result_.outcome = AssetOutcome::kBuilt;
    result_.built = std::make_unique<IntermediateRecord>(IntermediateRecord{
        std::string(output_rel_), std::string(asset_name_), asset_.handler->type, shared_.platform,
        asset_.handler->key, command_hash(), written_->hash, std::move(sources_)});
  } else {
    result_.outcome = AssetOutcome::kUpToDate;
    result_.kept = kept_;
  }
  result_.errors += diag_.error_count();
  if (!diag_.empty()) result_.messages = diag_.render(documents_);
  result_.messages += log_;
  return std::move(result_);
}

}  // namespace keel::pipeline
