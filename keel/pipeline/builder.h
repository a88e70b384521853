// The build tool's core (the book's DataCon without the dialog): builds data files of a project
// for a platform, incrementally and in parallel.
//
//   HandlerRegistry handlers;
//   register_builtin_handlers(handlers);
//   Builder builder(project, handlers, {.jobs = 4});
//   Result<DataFileReport> r = builder.build("PC", "main.kcmd");   // -> <image>/PC/main.kpk
//
// One data file: read the command files (command_files.h); run every asset's handler on a pool of
// `jobs` threads, each deciding through its BuildContext whether its intermediate is up to date
// (build_db.h says what that means); then repack the data file when its list of intermediates or
// any of them changed, when it is missing or was modified, or with force_repack. Intermediates of
// assets that no longer exist are deleted. When any error occurred the data file is left as it
// was (and will be repacked by the next successful build). The build database is written
// atomically at the end.
//
// Errors: a project that was not loaded, or a platform or data file it does not declare, is an
// error Result (nothing is built); what goes wrong while building (unknown asset types, handler
// errors, a failed repack) is counted and reported in the DataFileReport and through the observer.
#pragma once

#include "keel/core/error.h"
#include "keel/core/types.h"
#include "keel/pipeline/observer.h"
#include "keel/pipeline/project.h"
#include "keel/pipeline/registry.h"

#include <atomic>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace keel::pipeline {

class RemoteCache;    // remote_cache.h
class FileStateMemo;  // detail/file_state.h

struct BuildOptions {
  u32 jobs = 1;                // handler threads
  bool force_rebuild = false;  // every intermediate counts as out of date
  bool force_repack = false;   // every data file counts as out of date
  // A data file's block may hold at most this many bytes (the readers' limit, 1 GiB): assets
  // that together make a larger block fail before the repack copies anything.
  u64 max_block_length = u64{1} << 30;
  // A shared cache of intermediates (remote_cache.h), asked when an intermediate is not up to
  // date locally (not with force_rebuild) and, in read-write mode, given what was built.
  RemoteCache* remote_cache = nullptr;
  // After each data file, a message (log::Level::kInfo) with the time of each phase (load the
  // database, read the command files, run the jobs, decide), e.g. for `keel-build --timings`.
  bool timings = false;
};

struct BuildSummary {
  std::vector<DataFileReport> data_files;
  usize built = 0;
  usize up_to_date = 0;
  usize no_output = 0;
  usize failed = 0;
  usize repacked = 0;
  usize errors = 0;
  double seconds = 0;
  bool ok() const { return failed == 0 && errors == 0; }
  bool nothing_done() const { return built == 0 && repacked == 0; }
  // "3 built, 9 up to date, 0 failed, 1 data file repacked in 0.42 s", or "everything is up to
  // date (12 assets, 1 data file) in 0.01 s"
  std::string to_string() const;
};

class Builder {
 public:
  Builder(const Project& project, const HandlerRegistry& handlers, BuildOptions options = {},
          BuildObserver* observer = nullptr);
  ~Builder();

  // Builds one data file (its command file as named in the project, or the data file's name) for
  // one platform (matched case-insensitively). kNotFound when the project declares neither.
  Result<DataFileReport> build(std::string_view platform, std::string_view command_file);
  // Every (platform, data file) pair, platforms outermost; every name is checked first.
  Result<BuildSummary> build_all(const std::vector<std::string>& platforms,
                                 const std::vector<std::string>& command_files);

  // How many intermediates handlers have started writing (create_output calls) so far.
  usize outputs_created() const { return outputs_created_.load(); }

 private:
  Status check_project() const;
  Result<std::string> resolve_platform(std::string_view platform) const;
  Result<std::string> resolve_data_file(std::string_view command_file) const;

  const Project& project_;
  const HandlerRegistry& handlers_;
  BuildOptions options_;
  BuildObserver* observer_;
  std::atomic<usize> outputs_created_{0};
  // Sources hashed so far, shared by the data files this Builder builds.
  std::unique_ptr<FileStateMemo> memo_;
};

struct CleanReport {
  usize files = 0;        // intermediates, databases and data files deleted
  usize directories = 0;  // data-file intermediate folders deleted
};

// Deletes every intermediate, build database and data file of the project, for every platform
// and every data file (also those no longer listed in the project): each folder under
// <intermediate>/<platform>/ that holds a build database or is named after a data file, and
// every *.kpk in each platform's image folder, and temporaries of atomic writes that dead processes
// left there (build_lock.h). kInvalidArgument for a project that was not loaded
// (no absolute intermediate and image paths), which would otherwise mean the current folder.
Result<CleanReport> clean(const Project& project);

}  // namespace keel::pipeline
