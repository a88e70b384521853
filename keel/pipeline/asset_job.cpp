#include "keel/pipeline/asset_job.h"

#include "keel/core/file.h"
#include "keel/pack/writer.h"
#include "keel/pipeline/names.h"
#include "keel/text/document.h"
#include "keel/text/signature.h"

#include <fmt/format.h>

#include <unistd.h>
#include <bit>
#include <cstdio>
#include <exception>

namespace keel::pipeline {

namespace fs = std::filesystem;

namespace {

// Writes an intermediate: a temporary file renamed into place. No fsync: an intermediate can
// always be made again, and a torn one has the wrong content hash, so it is rebuilt.
Status write_intermediate(const fs::path& path, std::span<const std::byte> bytes) {
  std::error_code ec;
  fs::create_directories(path.parent_path(), ec);
  if (ec) {
    return fail_at(SourceLocation::text(path.parent_path().string(), 0), ErrorCode::kIo,
                   "cannot create folder: {}", ec.message());
  }
  fs::path temp = path;
  temp += fmt::format(".tmp{}", ::getpid());
  std::FILE* f = std::fopen(temp.c_str(), "wb");
  if (f == nullptr) {
    return fail_at(SourceLocation::text(temp.string(), 0), ErrorCode::kIo, "cannot create file");
  }
  const bool written =
      bytes.empty() || std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
  const bool closed = std::fclose(f) == 0;
  if (!written || !closed || std::rename(temp.c_str(), path.c_str()) != 0) {
    std::remove(temp.c_str());
    return fail_at(SourceLocation::text(path.string(), 0), ErrorCode::kIo, "cannot write file");
  }
  return ok();
}

}  // namespace

// The OutputFile a handler writes: a pack writer, uncompressed (the repack compresses).
class AssetJob::Output final : public OutputFile {
 public:
  explicit Output(AssetJob& job)
      : job_(job),
        writer_({.compression = pack::Compression::kNone, .level = 0, .write_dictionary = true}) {}
  ~Output() override = default;

  u32 add_chunk(std::string_view name, u16 block_type, std::span<const std::byte> data,
                u32 alignment) override {
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
    Result<std::vector<std::byte>> bytes = writer_.to_bytes();
    if (!bytes) {
      job_.output_error(bytes.error().message());
      return false;
    }
    // Hash what is written; stamp it after writing, as if it had been read back.
    const s64 now = wall_clock_ns();
    if (Status s = write_intermediate(job_.output_path(), *bytes); !s) {
      job_.output_error(s.error().to_string());
      return false;
    }
    const std::optional<FileStamp> stamp = stat_file(job_.output_path().string());
    if (!stamp) {
      job_.output_error("the intermediate vanished after writing");
      return false;
    }
    job_.output_written(FileRecord{
        *stamp,
        content_hash(std::string_view(reinterpret_cast<const char*>(bytes->data()), bytes->size())),
        now});
    return true;
  }

  bool closed() const { return closed_; }

 private:
  AssetJob& job_;
  pack::PackWriter writer_;
  bool closed_ = false;
};

AssetJob::AssetJob(JobShared& shared, const AssetCommand& asset,
                   const std::vector<const text::Document*>& documents)
    : shared_(shared), asset_(asset), documents_(documents) {}

AssetJob::~AssetJob() = default;

bool AssetJob::check(const text::Token& cmd, std::initializer_list<text::ParamKinds> params,
                     const text::CommandRules& rules) {
  return text::check_command(cmd, diag_, params, rules);
}

const FileRecord* AssetJob::trusted(const std::string& path, const FileStamp& stamp) const {
  const FileRecord* cached = shared_.old_db.file(path);
  return cached != nullptr && can_trust(*cached, stamp) ? cached : nullptr;
}

std::string AssetJob::find_source(std::string_view name) {
  std::optional<IncludePaths::Hit> hit =
      shared_.project.include_paths.find(name, shared_.platform, asset_.handler->type);
  if (!hit) return {};
  FileRecord record;
  if (const FileRecord* cached = trusted(hit->path, hit->stamp)) {
    record = *cached;
  } else {
    std::string content;
    Result<FileRecord> hashed = hash_file(hit->path, &content);
    if (!hashed) {
      diag_.error(asset_.command->location(),
                  fmt::format("cannot read source `{}`: {}", name, hashed.error().to_string()));
      return {};
    }
    record = *hashed;
    contents_.insert_or_assign(hit->path, std::move(content));
  }
  result_.files.emplace_back(hit->path, record);
  sources_.push_back({relative_to(shared_.project.root, hit->path), record.hash});
  return std::move(hit->path);
}

bool AssetJob::read_file(std::string_view path, std::string& out) {
  if (auto it = contents_.find(path); it != contents_.end()) {
    out = it->second;
    return true;
  }
  Result<std::string> bytes = keel::read_file(fs::path(path));
  if (!bytes) {
    diag_.error(asset_.command->location(),
                fmt::format("cannot read `{}`: {}", path, bytes.error().to_string()));
    return false;
  }
  out = std::move(*bytes);
  return true;
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
  std::string rel = fmt::format("{}/{}{}", asset_.handler->type, file_name_for(asset_name),
                                kIntermediateExtension);
  const Hash hash = pack::name_hash(asset_name);
  {
    std::lock_guard lock(shared_.claims_mutex);
    auto [name_it, name_new] = shared_.names.try_emplace(hash, std::string(asset_name), &cmd);
    if (!name_new) {
      const text::Token& other = *name_it->second.second;
      if (name_it->second.first == asset_name) {
        diag_.error(cmd, "asset `{}` is also made by the command at {}:{}:{}", asset_name,
                    other.file, other.line, other.column);
      } else {
        diag_.error(cmd, "asset names `{}` and `{}` ({}:{}) have the same hash {:08x}", asset_name,
                    name_it->second.first, other.file, other.line, hash);
      }
      return false;
    }
    if (!shared_.outputs.try_emplace(rel, &cmd).second) {
      diag_.error(cmd, "asset `{}` would overwrite the intermediate {} of another command",
                  asset_name, rel);
      return false;
    }
  }
  asset_name_ = asset_name;
  output_rel_ = std::move(rel);
  output_path_ = shared_.dir / output_rel_;
  return true;
}

bool AssetJob::up_to_date() {
  checked_up_to_date_ = true;
  is_up_to_date_ = false;
  if (output_rel_.empty()) {
    diag_.error(*asset_.command, "up_to_date() before set_output(): the handler has no output");
    return false;
  }
  if (shared_.options.force_rebuild) return false;
  const IntermediateRecord* old = shared_.old_db.find(output_rel_);
  if (old == nullptr || old->handler_key != asset_.handler->key() ||
      old->platform != shared_.platform || old->asset_name != asset_name_ ||
      old->command_hash != text::hash_tree(*asset_.command) || old->sources != sources_) {
    return false;
  }
  const std::string path = output_path_.string();
  const std::optional<FileStamp> stamp = stat_file(path);
  if (!stamp) return false;
  FileRecord record;
  if (const FileRecord* cached = trusted(path, *stamp)) {
    record = *cached;
  } else {
    Result<FileRecord> hashed = hash_file(path);
    if (!hashed) return false;
    record = *hashed;
  }
  if (record.hash != old->output_hash) return false;
  result_.files.emplace_back(path, record);
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
  shared_.outputs_created.fetch_add(1);
  output_ = std::make_unique<Output>(*this);
  return output_.get();
}

void AssetJob::log(LogLevel level, std::string_view message) {
  const text::Token& cmd = *asset_.command;
  const std::string_view label = level == LogLevel::kError     ? "error"
                                 : level == LogLevel::kWarning ? "warning"
                                                               : "note";
  log_ += fmt::format("{}:{}:{}: {}: {}\n", cmd.file, cmd.line, cmd.column, label, message);
  if (level == LogLevel::kError) ++result_.errors;
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
  result_.files.emplace_back(output_path_.string(), record);
}

void AssetJob::output_error(std::string_view message) {
  diag_.error(*asset_.command, fmt::format("writing `{}`: {}", asset_name_, message));
}

JobResult AssetJob::run() {
  const text::Token& cmd = *asset_.command;
  bool ok = false;
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

  result_.asset_name = asset_name_;
  if (!ok) {
    result_.outcome = AssetOutcome::kFailed;
    if (result_.errors == 0 && diag_.error_count() == 0) {
      diag_.error(cmd, fmt::format("the `{}` handler failed", asset_.handler->type));
    }
  } else if (output_rel_.empty()) {
    result_.outcome = AssetOutcome::kNoOutput;
  } else if (output_) {
    result_.outcome = AssetOutcome::kBuilt;
    result_.record = IntermediateRecord{
        output_rel_,           asset_name_,          asset_.handler->type, shared_.platform,
        asset_.handler->key(), text::hash_tree(cmd), written_->hash,       std::move(sources_)};
  } else {
    result_.outcome = AssetOutcome::kUpToDate;
    result_.record = *shared_.old_db.find(output_rel_);
  }
  result_.errors += diag_.error_count();
  if (!diag_.empty()) result_.messages = diag_.render(documents_);
  result_.messages += log_;
  return std::move(result_);
}

}  // namespace keel::pipeline
