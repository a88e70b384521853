#include "keel/pipeline/detail/data_file_build.h"

#include "keel/pack/merge.h"
#include "keel/pack/pack_file.h"

#include <fmt/format.h>

#include <charconv>
#include <thread>
#include <unordered_set>

namespace keel::pipeline {

namespace fs = std::filesystem;

namespace {

double seconds_since_start(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The record a job leaves for the new database: the one kept or the one built, or none.
const IntermediateRecord* record_of(const JobResult& r) {
  return r.kept != nullptr ? r.kept : r.built ? r.built.get() : nullptr;
}

// The intermediates this build produced (views into the results).
std::unordered_set<std::string_view> produced_outputs(const std::vector<JobResult>& results) {
  std::unordered_set<std::string_view> produced;
  produced.reserve(results.size());
  for (const JobResult& r : results) {
    if (const IntermediateRecord* rec = record_of(r)) produced.insert(rec->output);
  }
  return produced;
}

}  // namespace

DataFileBuild::DataFileBuild(Inputs inputs, std::string_view platform,
                             std::string_view command_file)
    : in_(inputs),
      platform_(platform),
      command_file_(command_file),
      start_(std::chrono::steady_clock::now()),
      notify_(inputs.observer) {
  report_.platform = platform_;
  report_.data_file = Project::data_file_name(command_file_);
  data_path_ = in_.project.data_file_path(platform_, command_file_);
  report_.path = data_path_.string();
  dir_ = in_.project.intermediate_dir(platform_, command_file_);
  db_path_ = dir_ / std::string(kDatabaseName);
}

DataFileReport DataFileBuild::run() {
  last_mark_ = start_;
  {
    // The database is read on a second thread while the command files are parsed: the two
    // take about the same time and share nothing (the Notifier serialises their messages).
    std::jthread loader([this] { load_database(); });
    read_commands();
  }
  mark("load_database | read_commands");
  for (bool may_retry = true;; may_retry = false) {
    run_jobs();
    mark("run_jobs");
    tally();
    const bool no_op = is_no_op();
    mark("is_no_op");
    if (no_op) return finish();
    PackRecord pack;
    BuildDatabase db = new_database(pack);
    if (errors_) {
      keep_old(db);
    } else {
      remove_gone();
      if (!repack(db, std::move(pack), may_retry)) {
        reset_for_retry();  // damaged intermediates were deleted: the jobs make them again
        continue;
      }
    }
    finish_database(db);
    return finish();
  }
}

void DataFileBuild::reset_for_retry() {
  DataFileReport fresh;
  fresh.platform = std::move(report_.platform);
  fresh.data_file = std::move(report_.data_file);
  fresh.path = std::move(report_.path);
  fresh.assets = report_.assets;
  fresh.removed = report_.removed;
  report_ = std::move(fresh);
  results_.clear();
  kept_ = 0;
  rehashed_ = false;
  errors_ = false;
  repack_ = false;
  data_trusted_ = false;
  data_state_.reset();
}

// Intermediates that do not open or verify (damaged on disk while their size, mtime and inode
// stayed the same, so the database still trusts them) are deleted; true when there was one.
bool DataFileBuild::remove_damaged(std::span<const fs::path> inputs) {
  bool removed = false;
  for (const fs::path& input : inputs) {
    Result<pack::PackFile> file = pack::PackFile::open(input);
    const Status verified = file ? file->verify() : Status(Unexpected(file.error()));
    if (verified) continue;
    std::error_code ec;
    fs::remove(input, ec);
    removed = true;
    notify_([&](BuildObserver& o) {
      o.message(log::Level::kWarn,
                fmt::format("{}: warning: damaged intermediate ({}); building it again\n",
                            input.string(), verified.error().message()));
    });
  }
  return removed;
}

void DataFileBuild::finish_database(BuildDatabase& db) {
  // Records last: `pack` pointed into the results until here.
  for (JobResult& r : results_) {
    if (r.kept != nullptr) {
      db.put(*r.kept);
    } else if (r.built) {
      db.put(std::move(*r.built));
    }
  }
  save_database(db);
}

void DataFileBuild::load_database() {
  Result<BuildDatabase> db = BuildDatabase::load(db_path_);
  if (db) {
    old_db_ = std::move(*db);
    return;
  }
  notify_([&](BuildObserver& o) {
    o.message(log::Level::kWarn,
              fmt::format("warning: ignoring the build database ({}); rebuilding {}\n",
                          db.error().to_string(), report_.data_file));
  });
}

void DataFileBuild::read_commands() {
  text::Diagnostics diag;
  files_ = read_command_files(in_.project, command_file_, platform_, in_.handlers, diag);
  documents_ = files_.documents();
  report_.errors += diag.error_count();
  if (!diag.empty()) {
    notify_([&](BuildObserver& o) {
      o.message(diag.has_errors() ? log::Level::kError : log::Level::kWarn,
                diag.render(documents_));
    });
  }
  report_.assets = files_.assets.size();
  notify_(
      [&](BuildObserver& o) { o.data_file_started(platform_, report_.data_file, report_.assets); });
}

void DataFileBuild::run_jobs() {
  const usize total = files_.assets.size();
  JobShared shared{in_.project,
                   old_db_,
                   in_.options,
                   platform_,
                   report_.data_file,
                   dir_.string(),
                   in_.project.root.string() + "/",
                   in_.outputs_created,
                   {},
                   {},
                   &files_.assets,
                   std::vector<std::string>(total),
                   std::vector<std::string>(total),
                   {},
                   {},
                   {},
                   &in_.memo};
  shared.names.reserve(total);
  shared.outputs.reserve(total);
  for (const AssetCommand& asset : files_.assets) {
    if (!shared.search_dirs.contains(asset.handler)) {
      shared.search_dirs.emplace(
          asset.handler, in_.project.include_paths.search_dirs(platform_, asset.handler->type));
    }
  }
  results_.clear();
  results_.resize(total);
  std::atomic<usize> next{0};
  std::atomic<usize> finished{0};
  auto worker = [&] {
    std::string location;  // "main.kcmd:12", one buffer per worker (no format call per asset)
    for (usize i = next.fetch_add(1); i < total; i = next.fetch_add(1)) {
      AssetJob job(shared, i, files_.assets[i], documents_);
      const auto job_start = std::chrono::steady_clock::now();
      const AssetCommand& asset = files_.assets[i];
      const text::Token& cmd = *asset.command;
      location.clear();
      if (notify_.active()) {
        location += files_.files[asset.file].name;
        char line[24];
        line[0] = ':';
        const auto end = std::to_chars(line + 1, line + sizeof line, cmd.line).ptr;
        location.append(line, end);
      }
      const std::string_view first = cmd.params != nullptr ? cmd.params->text : std::string_view();
      notify_([&](BuildObserver& o) {
        o.asset_started({platform_, report_.data_file, asset.handler->type, first, location, i + 1,
                         total, AssetOutcome::kBuilt, 0});
      });
      results_[i] = job.run();
      const JobResult& r = results_[i];
      const usize done = finished.fetch_add(1) + 1;
      notify_([&](BuildObserver& o) {
        if (!r.messages.empty()) {
          o.message(r.errors != 0 ? log::Level::kError : log::Level::kWarn, r.messages);
        }
        o.asset_finished({platform_, report_.data_file, asset.handler->type,
                          r.asset_name.empty() ? first : std::string_view(r.asset_name), location,
                          done, total, r.outcome, seconds_since_start(job_start)});
      });
    }
  };
  const usize threads = std::min<usize>(in_.options.jobs, total);
  if (threads <= 1) {
    notify_.set_single_threaded(true);
    struct Restore {
      Notifier& n;
      ~Restore() { n.set_single_threaded(false); }
    } restore{notify_};
    worker();
  } else {
    std::vector<std::jthread> pool;
    pool.reserve(threads);
    for (usize t = 0; t < threads; ++t) pool.emplace_back(worker);
  }
}

void DataFileBuild::tally() {
  for (const JobResult& r : results_) {
    report_.errors += r.errors;
    switch (r.outcome) {
      case AssetOutcome::kBuilt: ++report_.built; break;
      case AssetOutcome::kUpToDate: ++report_.up_to_date; break;
      case AssetOutcome::kNoOutput: ++report_.no_output; break;
      case AssetOutcome::kFailed: ++report_.failed; break;
    }
    kept_ += r.kept != nullptr ? 1 : 0;
    rehashed_ = rehashed_ || r.rehashed;
  }
  errors_ = report_.errors != 0 || report_.failed != 0 || !files_.ok;
  report_.ok = !errors_;
}

bool DataFileBuild::same_pack_inputs() const {
  const PackRecord& old_pack = old_db_.pack();
  usize k = 0;
  for (const JobResult& r : results_) {
    const IntermediateRecord* rec = record_of(r);
    if (rec == nullptr) continue;
    if (k >= old_pack.inputs.size() || old_pack.inputs[k].output != rec->output ||
        old_pack.inputs[k].hash != rec->output_hash) {
      return false;
    }
    ++k;
  }
  return k == old_pack.inputs.size();
}

// Decides the repack; true in the common no-op case, when the database is the old one and
// nothing is copied or written.
bool DataFileBuild::is_no_op() {
  const PackRecord& old_pack = old_db_.pack();
  if (!errors_ && !in_.options.force_repack && !in_.options.force_rebuild && old_pack.valid &&
      same_pack_inputs()) {
    const std::string p = data_path_.string();
    if (const std::optional<FileStamp> stamp = stat_file(p)) {
      // The data file's state is stored after the jobs' (new_database, then repack).
      const usize states = old_db_.files().size();
      FileCache::Cursor last{states > FileCache::kWindow ? states - FileCache::kWindow : 0};
      const FileRecord* cached = old_db_.file(BuildDatabase::file_key(p), last);
      if (cached != nullptr && can_trust(*cached, *stamp)) {
        data_state_ = *cached;
        data_trusted_ = true;
      } else if (Result<FileRecord> hashed = hash_file(p)) {
        data_state_ = *hashed;
      }
    }
  }
  repack_ = !errors_ && (!data_state_ || data_state_->hash != old_pack.data_hash);
  return !errors_ && !repack_ && data_trusted_ && !rehashed_ && report_.built == 0 &&
         kept_ == old_db_.records().size();
}

// The file states every job relied on, and the pack inputs in asset order (pointing into the
// results until the records are moved into the database).
BuildDatabase DataFileBuild::new_database(PackRecord& pack) {
  BuildDatabase db;
  db.reserve(results_.size(), old_db_.files().size());
  pack.inputs.reserve(results_.size());
  for (JobResult& r : results_) {
    for (const auto& [key, record] : r.files) db.put_file(key, record);
    if (const IntermediateRecord* rec = record_of(r)) {
      pack.inputs.push_back({rec->output, rec->output_hash});
    }
  }
  return db;
}

// After errors: the data file stays as it was, and the records of assets that were not built
// this time stay too, so that fixing the error does not rebuild them.
void DataFileBuild::keep_old(BuildDatabase& db) const {
  const std::unordered_set<std::string_view> produced = produced_outputs(results_);
  for (const IntermediateRecord& record : old_db_.records()) {
    if (!produced.contains(record.output)) db.put(record);
  }
  if (const FileRecord* f = old_db_.file(data_path_.string())) db.put_file(data_path_.string(), *f);
  db.set_pack(old_db_.pack());
}

void DataFileBuild::remove_gone() {
  const std::unordered_set<std::string_view> produced = produced_outputs(results_);
  for (const IntermediateRecord& record : old_db_.records()) {
    if (produced.contains(record.output)) continue;
    std::error_code ec;
    if (fs::remove(dir_ / record.output, ec)) ++report_.removed;
  }
}

bool DataFileBuild::repack(BuildDatabase& db, PackRecord pack, bool may_retry) {
  if (!repack_) {
    db.put_file(data_path_.string(), *data_state_);
    db.set_pack(old_db_.pack());
    return true;
  }
  if (!blocks_fit()) {
    db.set_pack({});  // repack next time (the check is cheap: no copy is made)
    return true;
  }
  notify_([&](BuildObserver& o) { o.repacking(report_.path, pack.inputs.size()); });
  std::vector<fs::path> inputs;
  inputs.reserve(pack.inputs.size());
  for (const PackInput& in : pack.inputs) inputs.push_back(dir_ / in.output);
  std::error_code ec;
  fs::create_directories(data_path_.parent_path(), ec);
  const Status merged = pack::merge_packs(inputs, data_path_);
  const Result<FileRecord> written = merged ? hash_file(report_.path) : Result<FileRecord>();
  if (!merged && may_retry && remove_damaged(inputs)) return false;
  if (!merged || !written) {
    const Error& e = !merged ? merged.error() : written.error();
    error_message(fmt::format("{}: error: repacking failed: {}\n", report_.path, e.to_string()));
    db.set_pack({});  // repack next time
    return true;
  }
  report_.repacked = true;
  db.put_file(report_.path, *written);
  pack.valid = true;
  pack.data_hash = written->hash;
  db.set_pack(std::move(pack));
  return true;
}

bool DataFileBuild::blocks_fit() {
  const u64 limit = std::min(in_.options.max_block_length, pack::ReadOptions{}.max_block_length);
  // Intermediates are stored raw: a block's length is at most its file's size, and merging adds
  // at most one alignment of padding per input. Only when that bound is over the limit are the
  // inputs' block tables read to find the exact total and the asset that crosses it.
  u64 bound = 0;
  for (const JobResult& r : results_) {
    if (const IntermediateRecord* rec = record_of(r)) {
      std::error_code ec;
      const u64 size = fs::file_size(dir_ / rec->output, ec);
      bound += (ec ? 0 : size) + pack::kMaxAlignment;
    }
  }
  if (bound <= limit) return true;
  std::unordered_map<u16, u64> totals;
  for (usize i = 0; i < results_.size(); ++i) {
    const IntermediateRecord* rec = record_of(results_[i]);
    if (rec == nullptr) continue;
    Result<pack::PackFile> file = pack::PackFile::open(dir_ / rec->output);
    if (!file) continue;  // the repack reports (and rebuilds) a damaged intermediate
    for (const pack::PackBlock& block : file->blocks()) {
      u64& total = totals[block.type];
      total = ((total + block.alignment - 1) & ~(u64{block.alignment} - 1)) + block.length;
      if (total <= limit) continue;
      text::Diagnostics diag;
      diag.error(
          *files_.assets[i].command,
          fmt::format("asset `{}` makes block {} of data file {}/{} {} bytes; a block may "
                      "hold at most {} bytes (the readers' limit): move assets to another "
                      "data file or another BlockType",
                      rec->asset_name, block.type, platform_, report_.data_file, total, limit));
      notify_([&](BuildObserver& o) { o.message(log::Level::kError, diag.render(documents_)); });
      ++report_.errors;
      ++report_.failed;
      report_.ok = false;
      return false;
    }
  }
  return true;
}

void DataFileBuild::save_database(const BuildDatabase& db) {
  if (db == old_db_) return;
  if (Status saved = db.save(db_path_); !saved) {
    error_message(
        fmt::format("error: cannot save the build database: {}\n", saved.error().to_string()));
  }
}

void DataFileBuild::error_message(std::string text) {
  notify_([&](BuildObserver& o) { o.message(log::Level::kError, text); });
  ++report_.errors;
  report_.ok = false;
}

void DataFileBuild::mark(const char* phase) {
  if (!in_.options.timings) return;
  const auto now = std::chrono::steady_clock::now();
  timings_ += fmt::format("{}{} {:.2f} ms", timings_.empty() ? "" : ", ", phase,
                          std::chrono::duration<double, std::milli>(now - last_mark_).count());
  last_mark_ = now;
}

DataFileReport DataFileBuild::finish() {
  report_.seconds = seconds_since_start(start_);
  if (in_.options.timings) {
    mark("rest");
    notify_([&](BuildObserver& o) {
      o.message(log::Level::kInfo,
                fmt::format("timings {}/{}: {}\n", platform_, report_.data_file, timings_));
    });
  }
  notify_([&](BuildObserver& o) { o.data_file_finished(report_); });
  return std::move(report_);
}

}  // namespace keel::pipeline
