// One handler call (internal to the builder): the BuildContext a handler sees, the intermediate
// it writes, and what the builder keeps afterwards (outcome, record, observed files, messages).
#pragma once

#include "keel/core/hash.h"
#include "keel/core/prehashed_map.h"
#include "keel/pipeline/builder.h"
#include "keel/pipeline/detail/build_db.h"
#include "keel/pipeline/detail/command_files.h"
#include "keel/pipeline/detail/file_state.h"
#include "keel/pipeline/handler.h"
#include "keel/text/diagnostics.h"

#include <atomic>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace keel::pipeline {

// Shared by the jobs of one data file.
struct JobShared {
  const Project& project;
  const BuildDatabase& old_db;
  const BuildOptions& options;
  std::string platform;
  std::string data_file;     // name
  std::string dir;           // the data file's intermediate folder
  std::string project_root;  // with a trailing '/'
  std::atomic<usize>& outputs_created;
  // Include-path search order per handler, filled before the jobs run (read-only after).
  std::unordered_map<const HandlerEntry*, std::vector<std::string>> search_dirs;
  // Open include and intermediate folders: sources and intermediates are stat-ed through them.
  DirectoryHandles folders;

  // Two commands may not produce the same asset name (name hash) or intermediate. A job writes
  // its own slot of the declared_* vectors (sized to the asset count) and claims under the mutex.
  const std::vector<AssetCommand>* assets = nullptr;
  std::vector<std::string> declared_names;
  std::vector<std::string> declared_outputs;
  std::mutex claims_mutex;
  PrehashedMap<Hash, u32> names;   // name hash -> asset index
  PrehashedMap<u64, u32> outputs;  // hash64(declared_outputs[i]) -> i
  // Sources hashed by earlier data files of the same run (null: none kept).
  FileStateMemo* memo = nullptr;
};

struct JobResult {
  AssetOutcome outcome = AssetOutcome::kFailed;
  std::string asset_name;  // as declared (empty without output)
  // kBuilt: the new record (a pointer: the results of a no-op build are 10,000 of these).
  std::unique_ptr<IntermediateRecord> built;
  const IntermediateRecord* kept = nullptr;       // kUpToDate: the old database's record
  std::vector<std::pair<u64, FileRecord>> files;  // file states it relied on (by file key)
  bool rehashed = false;                          // some file had to be read and hashed again
  usize errors = 0;
  std::string messages;  // rendered diagnostics and log lines
};

class AssetJob final : public BuildContext {
 public:
  AssetJob(JobShared& shared, usize index, const AssetCommand& asset,
           const std::vector<const text::Document*>& documents);
  ~AssetJob() override;

  JobResult run();

  // BuildContext
  const text::Token& command() const override { return *asset_.command; }
  std::string_view platform() const override { return shared_.platform; }
  std::string_view asset_type() const override { return asset_.handler->type; }
  bool check(const text::Token& cmd, std::initializer_list<text::ParamKinds> params,
             const text::CommandRules& rules) override;
  Result<std::string> find_source(std::string_view name) override;
  Result<std::string> read_file(std::string_view path) override;
  bool set_output(std::string_view asset_name) override;
  bool up_to_date() override;
  OutputFile* create_output() override;
  void log(log::Level level, std::string_view message) override;
  void error(const text::Token& at, std::string_view message) override;
  void report(const text::Diagnostics& diagnostics, const text::Document* source) override;

  // For the intermediate writer.
  void output_written(const FileRecord& record);
  void output_error(std::string_view message);
  const std::string& output_path() const { return output_path_; }

 private:
  class Output;
  // The file's state: the cached one when it can be trusted, else hashed now. When it was read,
  // its bytes are moved into `*content` (if not null) for a read_file that follows. Records the
  // state among the files this job relied on.
  Result<FileRecord> file_state(const std::string& path, const FileStamp& stamp,
                                std::string* content);
  u64 command_hash();
  bool local_up_to_date();
  // Remote cache (BuildOptions::remote_cache): the asset's key, a verified download installed
  // as the intermediate, and the upload of what the handler built.
  std::string remote_key();
  bool fetch_from_remote();
  void upload_to_remote(u64 build_ns);

  JobShared& shared_;
  usize index_;
  const AssetCommand& asset_;
  const std::vector<const text::Document*>& documents_;
  text::Diagnostics diag_;
  std::string log_;
  JobResult result_;

  std::vector<SourceDependency> sources_;
  std::map<std::string, std::string, std::less<>> contents_;  // files read while hashing
  std::string_view asset_name_;  // shared_.declared_names[index_] once claimed
  std::string_view output_rel_;  // shared_.declared_outputs[index_] once claimed
  std::string output_path_;
  std::optional<u64> command_hash_;
  const IntermediateRecord* kept_ = nullptr;  // the old record, once up_to_date() said so
  bool checked_up_to_date_ = false;
  bool is_up_to_date_ = false;
  std::unique_ptr<Output> output_;
  bool output_closed_ = false;
  std::optional<FileRecord> written_;
  bool fetched_ = false;    // the intermediate came from the remote cache
  ByteBuffer built_bytes_;  // what the handler wrote, kept for the upload (read-write cache)
};

}  // namespace keel::pipeline
