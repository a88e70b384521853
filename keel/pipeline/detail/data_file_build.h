// Building one data file for one platform (internal to Builder::build), as named phases:
//
//   load_database   the old build database (damaged: a warning, and everything rebuilds), on
//                   a thread of its own while the main thread runs
//   read_commands   the process list of command files -> asset commands (command_files.h)
//   run_jobs        every asset's handler on `jobs` threads (asset_job.h)
//   tally           outcomes and errors into the report
//   is_no_op        everything up to date from trusted states, the same pack inputs, the data
//                   file unchanged: then nothing is written at all
//   new_database    the records and file states of what exists now
//   keep_old        (after errors) what the old database knew about assets not built this time
//   remove_gone     intermediates of assets that no longer exist
//   repack          merge the intermediates into the data file
//   save_database   atomically, when it changed
#pragma once

#include "keel/pipeline/builder.h"
#include "keel/pipeline/detail/asset_job.h"
#include "keel/pipeline/detail/build_db.h"
#include "keel/pipeline/detail/command_files.h"

#include <atomic>
#include <chrono>
#include <filesystem>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace keel::pipeline {

// Serialises observer calls from the worker threads. While only one thread can call (the jobs
// of a -j1 build: 20,000 calls for 10,000 assets), the lock is skipped.
class Notifier {
 public:
  explicit Notifier(BuildObserver* observer) : observer_(observer) {}
  bool active() const { return observer_ != nullptr; }
  // Set (from the one thread that calls now) before and after a single-threaded phase.
  void set_single_threaded(bool single) { single_threaded_ = single; }
  template <typename F>
  void operator()(F&& f) {
    if (observer_ == nullptr) return;
    if (single_threaded_) {
      f(*observer_);
      return;
    }
    std::lock_guard lock(mutex_);
    f(*observer_);
  }

 private:
  BuildObserver* observer_;
  bool single_threaded_ = false;
  std::mutex mutex_;
};

class DataFileBuild {
 public:
  struct Inputs {
    const Project& project;
    const HandlerRegistry& handlers;
    const BuildOptions& options;
    BuildObserver* observer;
    std::atomic<usize>& outputs_created;
    FileStateMemo& memo;  // sources hashed by earlier data files of the run
  };
  // `platform` and `command_file` as the project declares them.
  DataFileBuild(Inputs inputs, std::string_view platform, std::string_view command_file);

  DataFileReport run();

 private:
  void load_database();
  void read_commands();
  void run_jobs();
  void run_job(usize index, std::atomic<usize>& finished);
  void tally();
  bool same_pack_inputs() const;
  bool is_no_op();
  BuildDatabase new_database(PackRecord& pack);
  void keep_old(BuildDatabase& db) const;
  void remove_gone();
  // False when the merge failed on damaged intermediates, which it deleted (with `may_retry`).
  bool repack(BuildDatabase& db, PackRecord pack, bool may_retry);
  // Before any repacking work: false (with a located error at the asset that crosses it, counted
  // as a failed asset) when the intermediates together make a block over the readers' limit.
  bool blocks_fit();
  bool remove_damaged(std::span<const std::filesystem::path> inputs);
  void reset_for_retry();
  void finish_database(BuildDatabase& db);
  void save_database(const BuildDatabase& db);
  void error_message(std::string text);
  DataFileReport finish();
  // BuildOptions::timings: the time since the previous mark, under `phase`.
  void mark(const char* phase);

  Inputs in_;
  std::string platform_;
  std::string command_file_;
  std::chrono::steady_clock::time_point start_;
  Notifier notify_;
  DataFileReport report_;
  std::filesystem::path data_path_;
  std::filesystem::path dir_;
  std::filesystem::path db_path_;

  BuildDatabase old_db_;
  CommandFiles files_;
  std::vector<const text::Document*> documents_;
  std::vector<JobResult> results_;
  usize kept_ = 0;         // results up to date
  bool rehashed_ = false;  // some file had to be hashed again
  bool errors_ = false;    // anything failed: the data file stays as it was
  bool repack_ = false;
  bool data_trusted_ = false;
  std::optional<FileRecord> data_state_;  // the data file's state, when it may stay
  std::chrono::steady_clock::time_point last_mark_;
  std::string timings_;  // "load_database 2.1 ms, ..." (BuildOptions::timings)
};

}  // namespace keel::pipeline
