// One asset at a time, for build systems that schedule Keel's work themselves (keel-build
// export-ninja): the plan of a data file (its command files and asset commands) and the build of
// one asset command. A one-asset build reads the data file's build database but never writes it
// (several run at once); what it makes reaches the data-file build through a cache store
// (remote_cache.h), usually a DirectoryCacheStore: the later ordinary build of the data file finds
// every intermediate there, runs no handler, and repacks.
#pragma once

#include "keel/core/error.h"
#include "keel/pipeline/builder.h"
#include "keel/pipeline/remote_cache.h"

#include <filesystem>
#include <mutex>
#include <string>
#include <vector>

namespace keel::pipeline {

struct DataFilePlan {
  std::string platform;                              // as the project declares it
  std::string command_file;                          // as the project lists it
  std::filesystem::path data_file;                   // <image>/<platform>/<name>.kpk
  std::vector<std::filesystem::path> command_files;  // absolute, in process order
  usize assets = 0;                                  // asset commands, in order
  std::vector<std::string> asset_labels;             // "Blob splash", for descriptions
};

// kNotFound for a platform or data file the project does not declare; kParse when a command
// file does not read (the diagnostics rendered into the message).
Result<DataFilePlan> plan_data_file(const Project& project, const HandlerRegistry& handlers,
                                    std::string_view platform, std::string_view command_file);

struct OneAssetReport {
  AssetOutcome outcome = AssetOutcome::kFailed;
  std::string messages;                        // rendered diagnostics and log lines
  std::vector<std::filesystem::path> sources;  // absolute: what the asset was made from
};

// Runs the handler of asset command `index` (0-based, process order) of a data file; with
// options.remote_cache set, a hit is installed and a build is uploaded as in a data-file build.
Result<OneAssetReport> build_one_asset(const Project& project, const HandlerRegistry& handlers,
                                       const BuildOptions& options, std::string_view platform,
                                       std::string_view command_file, usize index);

// A CacheStore in a folder (<root>/ac/<key>, <root>/cas/<key>, written atomically): the
// hand-over between one-asset builds and the data-file build, or a cache on a shared file system.
class DirectoryCacheStore final : public CacheStore {
 public:
  explicit DirectoryCacheStore(std::filesystem::path root) : root_(std::move(root)) {}
  Result<std::optional<ByteBuffer>> get(CacheSpace space, std::string_view key) override;
  Status put(CacheSpace space, std::string_view key, ByteSpan bytes) override;
  std::string where() const override { return root_.string(); }

 private:
  std::filesystem::path root_;
};

}  // namespace keel::pipeline
