// One handler call (internal to the builder): the BuildContext a handler sees, the intermediate
// it writes, and what the builder keeps afterwards (outcome, record, observed files, messages).
#pragma once

#include "keel/core/hash.h"
#include "keel/pipeline/build_db.h"
#include "keel/pipeline/builder.h"
#include "keel/pipeline/command_files.h"
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
  std::string data_file;      // name
  std::filesystem::path dir;  // the data file's intermediate folder
  std::atomic<usize>& outputs_created;

  std::mutex claims_mutex;  // two commands may not produce the same output or asset name
  std::unordered_map<std::string, const text::Token*> outputs;
  std::unordered_map<Hash, std::pair<std::string, const text::Token*>> names;
};

struct JobResult {
  AssetOutcome outcome = AssetOutcome::kFailed;
  std::string asset_name;                                 // as declared (empty without output)
  std::optional<IntermediateRecord> record;               // built or up to date
  std::vector<std::pair<std::string, FileRecord>> files;  // files hashed or trusted
  usize errors = 0;
  std::string messages;  // rendered diagnostics and log lines
};

class AssetJob final : public BuildContext {
 public:
  AssetJob(JobShared& shared, const AssetCommand& asset,
           const std::vector<const text::Document*>& documents);
  ~AssetJob() override;

  JobResult run();

  // BuildContext
  const text::Token& command() const override { return *asset_.command; }
  std::string_view platform() const override { return shared_.platform; }
  std::string_view asset_type() const override { return asset_.handler->type; }
  bool check(const text::Token& cmd, std::initializer_list<text::ParamKinds> params,
             const text::CommandRules& rules) override;
  std::string find_source(std::string_view name) override;
  bool read_file(std::string_view path, std::string& out) override;
  bool set_output(std::string_view asset_name) override;
  bool up_to_date() override;
  OutputFile* create_output() override;
  void log(LogLevel level, std::string_view message) override;
  void error(const text::Token& at, std::string_view message) override;
  void report(const text::Diagnostics& diagnostics, const text::Document* source) override;

  // For the intermediate writer.
  void output_written(const FileRecord& record);
  void output_error(std::string_view message);
  const std::filesystem::path& output_path() const { return output_path_; }

 private:
  class Output;
  const FileRecord* trusted(const std::string& path, const FileStamp& stamp) const;

  JobShared& shared_;
  const AssetCommand& asset_;
  const std::vector<const text::Document*>& documents_;
  text::Diagnostics diag_;
  std::string log_;
  JobResult result_;

  std::vector<SourceDependency> sources_;
  std::map<std::string, std::string, std::less<>> contents_;  // files read while hashing
  std::string asset_name_;
  std::string output_rel_;
  std::filesystem::path output_path_;
  bool checked_up_to_date_ = false;
  bool is_up_to_date_ = false;
  std::unique_ptr<Output> output_;
  bool output_closed_ = false;
  std::optional<FileRecord> written_;
};

}  // namespace keel::pipeline
