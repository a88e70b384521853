#include "keel/pipeline/single_asset.h"

#include "keel/core/file.h"
#include "keel/pipeline/detail/asset_job.h"
#include "keel/pipeline/detail/build_db.h"
#include "keel/pipeline/detail/command_files.h"

#include <fmt/format.h>

namespace keel::pipeline {

namespace fs = std::filesystem;

namespace {

struct Names {
  std::string platform;
  std::string command_file;
};

Result<Names> resolve(const Project& project, std::string_view platform,
                      std::string_view command_file) {
  std::optional<std::string> p = project.find_platform(platform);
  if (!p) return fail(ErrorCode::kNotFound, "the project has no platform `{}`", platform);
  for (const std::string& f : project.data_files) {
    if (f == command_file || Project::data_file_name(f) == command_file) return Names{*p, f};
  }
  return fail(ErrorCode::kNotFound, "`{}` is not a data file of the project", command_file);
}

Result<CommandFiles> read(const Project& project, const HandlerRegistry& handlers,
                          const Names& names) {
  text::Diagnostics diag;
  CommandFiles files =
      read_command_files(project, names.command_file, names.platform, handlers, diag);
  if (diag.has_errors() || !files.ok) {
    return fail(ErrorCode::kParse, "{}", diag.render(files.documents()));
  }
  return files;
}

}  // namespace

Result<DataFilePlan> plan_data_file(const Project& project, const HandlerRegistry& handlers,
                                    std::string_view platform, std::string_view command_file) {
  Result<Names> names = resolve(project, platform, command_file);
  if (!names) return Unexpected(names.error());
  Result<CommandFiles> files = read(project, handlers, *names);
  if (!files) return Unexpected(files.error());
  DataFilePlan plan{names->platform,
                    names->command_file,
                    project.data_file_path(names->platform, names->command_file),
                    {},
                    0,
                    {}};
  for (const CommandFiles::File& f : files->files) {
    plan.command_files.push_back((project.data_path / f.name).lexically_normal());
  }
  plan.assets = files->assets.size();
  for (const AssetCommand& a : files->assets) {
    const text::Token& cmd = *a.command;
    plan.asset_labels.push_back(fmt::format(
        "{} {}", a.handler->type, cmd.params != nullptr ? cmd.params->text : std::string_view()));
  }
  return plan;
}

Result<OneAssetReport> build_one_asset(const Project& project, const HandlerRegistry& handlers,
                                       const BuildOptions& options, std::string_view platform,
                                       std::string_view command_file, usize index) {
  Result<Names> names = resolve(project, platform, command_file);
  if (!names) return Unexpected(names.error());
  Result<CommandFiles> files = read(project, handlers, *names);
  if (!files) return Unexpected(files.error());
  const usize total = files->assets.size();
  if (index >= total) {
    return fail(ErrorCode::kOutOfRange, "asset {} of {}/{}: it has {} asset commands", index,
                names->platform, names->command_file, total);
  }
  const fs::path dir = project.intermediate_dir(names->platform, names->command_file);
  // The database is only read: an asset up to date is not made again.
  Result<BuildDatabase> loaded = BuildDatabase::load(dir / std::string(kDatabaseName));
  const BuildDatabase db = loaded ? std::move(*loaded) : BuildDatabase();
  std::atomic<usize> created{0};
  JobShared shared{project,
                   db,
                   options,
                   names->platform,
                   Project::data_file_name(names->command_file),
                   dir.string(),
                   project.root.string() + "/",
                   created,
                   {},
                   {},
                   &files->assets,
                   std::vector<std::string>(total),
                   std::vector<std::string>(total),
                   {},
                   {},
                   {},
                   nullptr};
  const AssetCommand& asset = files->assets[index];
  shared.search_dirs.emplace(
      asset.handler, project.include_paths.search_dirs(names->platform, asset.handler->type));
  const std::vector<const text::Document*> documents = files->documents();
  AssetJob job(shared, index, asset, documents);
  JobResult r = job.run();
  OneAssetReport report{r.outcome, std::move(r.messages), {}};
  const IntermediateRecord* record = r.kept != nullptr ? r.kept : r.built ? r.built.get() : nullptr;
  if (record != nullptr) {
    for (const SourceDependency& s : record->sources) {
      const fs::path p(s.path);
      report.sources.push_back(p.is_absolute() ? p : project.root / p);
    }
  }
  return report;
}

Result<std::optional<ByteBuffer>> DirectoryCacheStore::get(CacheSpace space, std::string_view key) {
  if (!is_sha256_hex(key)) return fail(ErrorCode::kInvalidArgument, "bad cache key `{}`", key);
  const fs::path path = root_ / std::string(to_string(space)) / std::string(key);
  std::error_code ec;
  if (!fs::exists(path, ec)) return std::optional<ByteBuffer>();
  Result<std::string> bytes = keel::read_file(path);
  if (!bytes) return Unexpected(bytes.error());
  return std::optional<ByteBuffer>(to_buffer(*bytes));
}

Status DirectoryCacheStore::put(CacheSpace space, std::string_view key, ByteSpan bytes) {
  if (!is_sha256_hex(key)) return fail(ErrorCode::kInvalidArgument, "bad cache key `{}`", key);
  const fs::path folder = root_ / std::string(to_string(space));
  std::error_code ec;
  fs::create_directories(folder, ec);
  if (ec) {
    return fail_at(SourceLocation::text(folder.string(), 0), ErrorCode::kIo,
                   "cannot create folder: {}", ec.message());
  }
  return write_file_atomic(folder / std::string(key), bytes);
}

}  // namespace keel::pipeline
