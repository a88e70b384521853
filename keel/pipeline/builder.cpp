#include "keel/pipeline/builder.h"

#include "keel/pipeline/build_lock.h"
#include "keel/pipeline/detail/data_file_build.h"

#include <fmt/format.h>

#include <chrono>
#include <set>

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
    : project_(project),
      handlers_(handlers),
      options_(options),
      observer_(observer),
      memo_(std::make_unique<FileStateMemo>()) {
  if (options_.jobs == 0) options_.jobs = 1;
}

Builder::~Builder() = default;

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += out.empty() ? n : ", " + n;
  return out.empty() ? std::string("none") : out;
}

}  // namespace

Result<std::string> Builder::resolve_platform(std::string_view platform) const {
  if (std::optional<std::string> found = project_.find_platform(platform)) return *found;
  return fail(ErrorCode::kNotFound, "the project has no platform `{}` (it has: {})", platform,
              joined(project_.platforms));
}

Result<std::string> Builder::resolve_data_file(std::string_view command_file) const {
  for (const std::string& f : project_.data_files) {
    if (f == command_file || Project::data_file_name(f) == command_file) return f;
  }
  return fail(ErrorCode::kNotFound, "`{}` is not a data file of the project (it has: {})",
              command_file, joined(project_.data_files));
}

Status Builder::check_project() const {
  if (!project_.intermediate_path.is_absolute() || !project_.image_path.is_absolute()) {
    return fail(ErrorCode::kInvalidArgument,
                "the project has no intermediate or image path: load it with load_project or "
                "parse_project before building");
  }
  return ok();
}

Result<DataFileReport> Builder::build(std::string_view platform, std::string_view command_file) {
  if (Status s = check_project(); !s) return Unexpected(s.error());
  Result<std::string> target = resolve_platform(platform);
  if (!target) return Unexpected(target.error());
  Result<std::string> file = resolve_data_file(command_file);
  if (!file) return Unexpected(file.error());
  DataFileBuild build({project_, handlers_, options_, observer_, outputs_created_, *memo_}, *target,
                      *file);
  return build.run();
}

Result<BuildSummary> Builder::build_all(const std::vector<std::string>& platforms,
                                        const std::vector<std::string>& command_files) {
  // The project and every name are checked before anything is built.
  if (Status s = check_project(); !s) return Unexpected(s.error());
  for (const std::string& platform : platforms) {
    if (Result<std::string> p = resolve_platform(platform); !p) return Unexpected(p.error());
  }
  for (const std::string& file : command_files) {
    if (Result<std::string> f = resolve_data_file(file); !f) return Unexpected(f.error());
  }
  const auto start = std::chrono::steady_clock::now();
  BuildSummary summary;
  for (const std::string& platform : platforms) {
    for (const std::string& file : command_files) {
      Result<DataFileReport> r = build(platform, file);
      if (!r) return Unexpected(r.error());
      summary.built += r->built;
      summary.up_to_date += r->up_to_date;
      summary.no_output += r->no_output;
      summary.failed += r->failed;
      summary.errors += r->errors;
      summary.repacked += r->repacked ? 1 : 0;
      summary.data_files.push_back(std::move(*r));
    }
  }
  summary.seconds = seconds_since(start);
  return summary;
}

Result<CleanReport> clean(const Project& project) {
  if (!project.intermediate_path.is_absolute() || !project.image_path.is_absolute()) {
    // Relative (empty) paths would mean folders under the current directory.
    return fail(ErrorCode::kInvalidArgument,
                "the project has no intermediate or image path: load it with load_project or "
                "parse_project before cleaning");
  }
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
    report.files += remove_stale_temporaries(images, false);
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
