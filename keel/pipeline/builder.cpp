#include "keel/pipeline/builder.h"

#include "keel/pack/merge.h"
#include "keel/pipeline/asset_job.h"
#include "keel/pipeline/command_files.h"
#include "keel/pipeline/names.h"

#include <fmt/format.h>

#include <chrono>
#include <mutex>
#include <set>
#include <thread>
#include <unordered_set>

namespace keel::pipeline {

namespace fs = std::filesystem;

std::string_view to_string(AssetOutcome outcome) {
  switch (outcome) {
    case AssetOutcome::kBuilt: return "built";
    case AssetOutcome::kUpToDate: return "up to date";
    case AssetOutcome::kNoOutput: return "no output";
    case AssetOutcome::kFailed: return "FAILED";
  }
  return "?";
}

std::string BuildSummary::to_string() const {
  const usize assets = built + up_to_date + no_output + failed;
  const usize files = data_files.size();
  if (ok() && nothing_done()) {
    return fmt::format("everything is up to date ({} asset{}, {} data file{}) in {:.2f} s", assets,
                       assets == 1 ? "" : "s", files, files == 1 ? "" : "s", seconds);
  }
  std::string out = fmt::format("{} built, {} up to date, {} failed", built, up_to_date, failed);
  if (no_output != 0) out += fmt::format(", {} without output", no_output);
  out += fmt::format(", {} of {} data file{} repacked", repacked, files, files == 1 ? "" : "s");
  if (errors != 0) out += fmt::format(", {} error{}", errors, errors == 1 ? "" : "s");
  out += fmt::format(" in {:.2f} s", seconds);
  return out;
}

Builder::Builder(const Project& project, const HandlerRegistry& handlers, BuildOptions options,
                 BuildObserver* observer)
    : project_(project), handlers_(handlers), options_(options), observer_(observer) {
  if (options_.jobs == 0) options_.jobs = 1;
}

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Serialises observer calls from the worker threads.
class Notifier {
 public:
  explicit Notifier(BuildObserver* observer) : observer_(observer) {}
  template <typename F>
  void operator()(F&& f) {
    if (observer_ == nullptr) return;
    std::lock_guard lock(mutex_);
    f(*observer_);
  }

 private:
  BuildObserver* observer_;
  std::mutex mutex_;
};

}  // namespace

DataFileReport Builder::build(std::string_view platform, std::string_view command_file) {
  const auto start = std::chrono::steady_clock::now();
  Notifier notify(observer_);
  DataFileReport report;
  report.platform = platform;
  report.data_file = Project::data_file_name(command_file);
  const fs::path data_path = project_.data_file_path(platform, command_file);
  report.path = data_path.string();
  const fs::path dir = project_.intermediate_dir(platform, command_file);
  const fs::path db_path = dir / std::string(kDatabaseName);

  std::string problem;
  const BuildDatabase old_db = BuildDatabase::load(db_path, &problem);
  if (!problem.empty()) {
    notify([&](BuildObserver& o) {
      o.message(LogLevel::kWarning,
                fmt::format("warning: ignoring the build database ({}); rebuilding {}\n", problem,
                            report.data_file));
    });
  }

  text::Diagnostics diag;
  const CommandFiles files = read_command_files(project_, command_file, platform, handlers_, diag);
  const std::vector<const text::Document*> documents = files.documents();
  report.errors += diag.error_count();
  if (!diag.empty()) {
    notify([&](BuildObserver& o) {
      o.message(diag.has_errors() ? LogLevel::kError : LogLevel::kWarning, diag.render(documents));
    });
  }

  const usize total = files.assets.size();
  report.assets = total;
  notify([&](BuildObserver& o) { o.data_file_started(platform, report.data_file, total); });

  JobShared shared{project_,
                   old_db,
                   options_,
                   std::string(platform),
                   report.data_file,
                   dir.string(),
                   project_.root.string() + "/",
                   outputs_created_,
                   {},
                   &files.assets,
                   std::vector<std::string>(total),
                   std::vector<std::string>(total),
                   {},
                   {},
                   {}};
  shared.names.reserve(total);
  shared.outputs.reserve(total);
  for (const AssetCommand& asset : files.assets) {
    if (!shared.search_dirs.contains(asset.handler)) {
      shared.search_dirs.emplace(asset.handler,
                                 project_.include_paths.search_dirs(platform, asset.handler->type));
    }
  }
  std::vector<JobResult> results(total);
  std::atomic<usize> next{0};
  std::atomic<usize> finished{0};
  auto worker = [&] {
    for (usize i = next.fetch_add(1); i < total; i = next.fetch_add(1)) {
      const AssetCommand& asset = files.assets[i];
      const text::Token& cmd = *asset.command;
      const std::string location =
          observer_ != nullptr ? fmt::format("{}:{}", files.files[asset.file].name, cmd.line)
                               : std::string();
      const std::string_view first = cmd.params != nullptr ? cmd.params->text : std::string_view();
      const auto job_start = std::chrono::steady_clock::now();
      notify([&](BuildObserver& o) {
        o.asset_started({platform, report.data_file, asset.handler->type, first, location, i + 1,
                         total, AssetOutcome::kBuilt, 0});
      });
      AssetJob job(shared, i, asset, documents);
      results[i] = job.run();
      const JobResult& r = results[i];
      const usize done = finished.fetch_add(1) + 1;
      notify([&](BuildObserver& o) {
        if (!r.messages.empty()) {
          o.message(r.errors != 0 ? LogLevel::kError : LogLevel::kWarning, r.messages);
        }
        o.asset_finished({platform, report.data_file, asset.handler->type,
                          r.asset_name.empty() ? first : std::string_view(r.asset_name), location,
                          done, total, r.outcome, seconds_since(job_start)});
      });
    }
  };
  const usize threads = std::min<usize>(options_.jobs, total);
  if (threads <= 1) {
    worker();
  } else {
    std::vector<std::jthread> pool;
    pool.reserve(threads);
    for (usize t = 0; t < threads; ++t) pool.emplace_back(worker);
  }

  // Collect.
  usize kept = 0;
  bool rehashed = false;
  for (const JobResult& r : results) {
    report.errors += r.errors;
    switch (r.outcome) {
      case AssetOutcome::kBuilt: ++report.built; break;
      case AssetOutcome::kUpToDate: ++report.up_to_date; break;
      case AssetOutcome::kNoOutput: ++report.no_output; break;
      case AssetOutcome::kFailed: ++report.failed; break;
    }
    kept += r.kept != nullptr ? 1 : 0;
    rehashed = rehashed || r.rehashed;
  }
  const bool errors = report.errors != 0 || report.failed != 0 || !files.ok;
  report.ok = !errors;

  // The common no-op case: every intermediate up to date from trusted file states, none gone,
  // the same pack inputs in the same order, the data file unchanged. Then the database is the
  // old one and nothing is copied or written.
  const PackRecord& old_pack = old_db.pack();
  const auto same_pack_inputs = [&] {
    usize k = 0;
    for (const JobResult& r : results) {
      const IntermediateRecord* rec = r.kept != nullptr ? r.kept : r.built ? &*r.built : nullptr;
      if (rec == nullptr) continue;
      if (k >= old_pack.inputs.size() || old_pack.inputs[k].output != rec->output ||
          old_pack.inputs[k].hash != rec->output_hash) {
        return false;
      }
      ++k;
    }
    return k == old_pack.inputs.size();
  };
  std::optional<FileRecord> data_state;
  bool data_trusted = false;
  if (!errors && !options_.force_repack && !options_.force_rebuild && old_pack.valid &&
      same_pack_inputs()) {
    const std::string p = data_path.string();
    if (const std::optional<FileStamp> stamp = stat_file(p)) {
      const FileRecord* cached = old_db.file(p);
      if (cached != nullptr && can_trust(*cached, *stamp)) {
        data_state = *cached;
        data_trusted = true;
      } else if (Result<FileRecord> hashed = hash_file(p)) {
        data_state = *hashed;
      }
    }
  }
  const bool repack = !errors && (!data_state || data_state->hash != old_pack.data_hash);
  if (!errors && !repack && data_trusted && !rehashed && report.built == 0 &&
      kept == old_db.records().size()) {
    report.seconds = seconds_since(start);
    notify([&](BuildObserver& o) { o.data_file_finished(report); });
    return report;
  }

  // Otherwise a new database: the records of what exists now and the files they were made from.
  BuildDatabase db;
  db.reserve(total, old_db.files().size());
  PackRecord pack;
  pack.inputs.reserve(total);
  std::unordered_set<std::string_view> produced;
  produced.reserve(total);
  for (JobResult& r : results) {
    for (const auto& [key, record] : r.files) db.put_file(key, record);
    const IntermediateRecord* rec = r.kept != nullptr ? r.kept : r.built ? &*r.built : nullptr;
    if (rec == nullptr) continue;
    pack.inputs.push_back({rec->output, rec->output_hash});
    produced.insert(rec->output);
  }
  if (errors) {
    // Keep what the old database knew about assets that were not built this time, so that
    // fixing the error does not rebuild them; the data file stays as it was.
    for (const auto& [output, record] : old_db.records()) {
      if (!produced.contains(output)) db.put(record);
    }
    if (const FileRecord* f = old_db.file(data_path.string())) db.put_file(data_path.string(), *f);
    db.set_pack(old_pack);
  } else {
    // Intermediates of assets that are gone.
    for (const auto& [output, record] : old_db.records()) {
      if (produced.contains(output)) continue;
      std::error_code ec;
      if (fs::remove(dir / output, ec)) ++report.removed;
    }
    if (!repack) {
      db.put_file(data_path.string(), *data_state);
      db.set_pack(old_pack);
    } else {
      notify([&](BuildObserver& o) { o.repacking(report.path, pack.inputs.size()); });
      std::vector<fs::path> inputs;
      inputs.reserve(pack.inputs.size());
      for (const PackInput& in : pack.inputs) inputs.push_back(dir / in.output);
      std::error_code ec;
      fs::create_directories(data_path.parent_path(), ec);
      Status merged = pack::merge_packs(inputs, data_path);
      Result<FileRecord> written = merged ? hash_file(report.path) : Result<FileRecord>();
      if (!merged || !written) {
        const Error& e = !merged ? merged.error() : written.error();
        notify([&](BuildObserver& o) {
          o.message(LogLevel::kError,
                    fmt::format("{}: error: repacking failed: {}\n", report.path, e.to_string()));
        });
        ++report.errors;
        report.ok = false;
        db.set_pack({});  // repack next time
      } else {
        report.repacked = true;
        db.put_file(report.path, *written);
        pack.valid = true;
        pack.data_hash = written->hash;
        db.set_pack(std::move(pack));
      }
    }
  }
  // Records last: `produced` and `pack` point into the results until here.
  for (JobResult& r : results) {
    if (r.kept != nullptr) {
      db.put(*r.kept);
    } else if (r.built) {
      db.put(std::move(*r.built));
    }
  }

  if (db != old_db) {
    if (Status saved = db.save(db_path); !saved) {
      notify([&](BuildObserver& o) {
        o.message(LogLevel::kError, fmt::format("error: cannot save the build database: {}\n",
                                                saved.error().to_string()));
      });
      ++report.errors;
      report.ok = false;
    }
  }
  report.seconds = seconds_since(start);
  notify([&](BuildObserver& o) { o.data_file_finished(report); });
  return report;
}

BuildSummary Builder::build_all(const std::vector<std::string>& platforms,
                                const std::vector<std::string>& command_files) {
  const auto start = std::chrono::steady_clock::now();
  BuildSummary summary;
  for (const std::string& platform : platforms) {
    for (const std::string& file : command_files) {
      DataFileReport r = build(platform, file);
      summary.built += r.built;
      summary.up_to_date += r.up_to_date;
      summary.no_output += r.no_output;
      summary.failed += r.failed;
      summary.errors += r.errors;
      summary.repacked += r.repacked ? 1 : 0;
      summary.data_files.push_back(std::move(r));
    }
  }
  summary.seconds = seconds_since(start);
  return summary;
}

Result<CleanReport> clean(const Project& project) {
  CleanReport report;
  std::error_code ec;
  std::set<std::string> data_names;
  for (const std::string& f : project.data_files) data_names.insert(Project::data_file_name(f));
  for (const std::string& platform : project.platforms) {
    const fs::path objects = project.intermediate_path / platform;
    if (fs::is_directory(objects, ec)) {
      std::vector<fs::path> doomed;
      for (const fs::directory_entry& e : fs::directory_iterator(objects, ec)) {
        if (!e.is_directory(ec)) continue;
        const bool ours = data_names.contains(e.path().filename().string()) ||
                          fs::exists(e.path() / std::string(kDatabaseName), ec);
        if (ours) doomed.push_back(e.path());
      }
      for (const fs::path& d : doomed) {
        for (const fs::directory_entry& e : fs::recursive_directory_iterator(d, ec)) {
          if (e.is_regular_file(ec)) ++report.files;
        }
        fs::remove_all(d, ec);
        if (ec) {
          return fail_at(SourceLocation::text(d.string(), 0), ErrorCode::kIo, "cannot delete: {}",
                         ec.message());
        }
        ++report.directories;
      }
      fs::remove(objects, ec);  // only when empty
      ec.clear();
    }
    const fs::path images = project.image_dir(platform);
    if (fs::is_directory(images, ec)) {
      std::vector<fs::path> doomed;
      for (const fs::directory_entry& e : fs::directory_iterator(images, ec)) {
        if (e.is_regular_file(ec) && e.path().extension() == kDataFileExtension) {
          doomed.push_back(e.path());
        }
      }
      for (const fs::path& f : doomed) {
        if (!fs::remove(f, ec) || ec) {
          return fail_at(SourceLocation::text(f.string(), 0), ErrorCode::kIo, "cannot delete: {}",
                         ec.message());
        }
        ++report.files;
      }
      fs::remove(images, ec);
      ec.clear();
    }
  }
  return report;
}

}  // namespace keel::pipeline
