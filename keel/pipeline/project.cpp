#include "keel/pipeline/project.h"

#include "keel/core/file.h"
#include "keel/pipeline/detail/names.h"
#include "keel/pipeline/handler.h"
#include "keel/text/document.h"
#include "keel/text/signature.h"

namespace keel::pipeline {
namespace {

namespace fs = std::filesystem;
using text::kName;
using text::kString;

struct PendingInclude {
  const text::Token* at;
  std::string platform;
  std::string type;
  fs::path dir;
};

fs::path resolve(const fs::path& root, std::string_view path) {
  fs::path p(path);
  return (p.is_absolute() ? p : root / p).lexically_normal();
}

// False (with an error naming both) when `file` is listed already or makes the same data file
// (<name>.kpk: the command file's stem) as another: one pack would silently replace the other.
bool add_data_file(std::vector<const text::Token*>& accepted, const text::Token& file,
                   text::Diagnostics& diag) {
  const fs::path path = fs::path(file.text).lexically_normal();
  const std::string name = Project::data_file_name(file.text);
  if (name.empty() || path.filename().empty()) {
    diag.error(file, "`DataFile` \"{}\" names no file", file.text);
    return false;
  }
  for (const text::Token* other : accepted) {
    const fs::path other_path = fs::path(other->text).lexically_normal();
    if (other_path == path) {
      diag.error(file, "`DataFile` \"{}\" is listed twice (first at {}:{})", file.text, other->file,
                 other->line);
      return false;
    }
    if (equal_names(Project::data_file_name(other->text), name)) {
      diag.error(file,
                 "data files \"{}\" and \"{}\" (at {}:{}) would both be written to {}{}; "
                 "rename one of the command files",
                 file.text, other->text, other->file, other->line, name, kDataFileExtension);
      return false;
    }
  }
  accepted.push_back(&file);
  return true;
}

}  // namespace

std::optional<std::string> Project::find_platform(std::string_view platform) const {
  for (const std::string& p : platforms) {
    if (equal_names(p, platform)) return p;
  }
  return std::nullopt;
}

std::string Project::data_file_name(std::string_view command_file) {
  return fs::path(command_file).stem().string();
}

fs::path Project::image_dir(std::string_view platform) const {
  auto it = platform_image_paths.find(to_lower(platform));
  const fs::path& base = it == platform_image_paths.end() ? image_path : it->second;
  return base / std::string(platform);
}

fs::path Project::data_file_path(std::string_view platform, std::string_view command_file) const {
  return image_dir(platform) / (data_file_name(command_file) + std::string(kDataFileExtension));
}

fs::path Project::intermediate_dir(std::string_view platform, std::string_view command_file) const {
  return intermediate_path / std::string(platform) / data_file_name(command_file);
}

std::optional<Project> parse_project(std::string source, const fs::path& file,
                                     text::Diagnostics& diag) {
  const usize errors_before = diag.error_count();
  std::unique_ptr<text::Document> doc = text::parse(std::move(source), file.string(), diag);
  if (!doc) return std::nullopt;

  Project project;
  project.file = fs::absolute(file).lexically_normal();
  project.root = project.file.parent_path();
  project.data_path = project.root;
  project.intermediate_path = project.root / "build" / "obj";
  project.image_path = project.root / "build" / "image";
  std::vector<PendingInclude> includes;
  std::vector<std::pair<const text::Token*, std::string>> image_overrides;
  std::vector<const text::Token*> data_files;  // DataFile parameters accepted so far

  for (const text::Token& cmd : text::chain(doc->first())) {
    if (cmd.is("Project")) {
      if (text::check_command(cmd, diag, {kString | kName})) project.name = cmd.param(0)->text;
    } else if (cmd.is("DataPath")) {
      if (text::check_command(cmd, diag, {kString})) {
        project.data_path = resolve(project.root, cmd.param(0)->text);
      }
    } else if (cmd.is("IntermediatePath")) {
      if (text::check_command(cmd, diag, {kString})) {
        project.intermediate_path = resolve(project.root, cmd.param(0)->text);
      }
    } else if (cmd.is("ImagePath")) {
      if (!text::check_command(cmd, diag, {kString, kString | kName}, {.min_params = 1})) continue;
      const fs::path dir = resolve(project.root, cmd.param(0)->text);
      if (cmd.param_count() == 1) {
        project.image_path = dir;
      } else {
        image_overrides.emplace_back(cmd.param(1), dir.string());
      }
    } else if (cmd.is("Platform")) {
      if (!text::check_command(cmd, diag, {kString | kName}, {.min_params = 1, .variadic = true})) {
        continue;
      }
      for (const text::Token& p : text::chain(cmd.params)) {
        if (!is_identifier(p.text)) {
          diag.error(p, "a platform name is letters, digits and '_', got \"{}\"", p.text);
        } else if (equal_names(p.text, kCommon)) {
          diag.error(p, "\"{}\" is the name of the common platform, not a target", p.text);
        } else if (project.find_platform(p.text)) {
          diag.error(p, "platform `{}` is declared twice", p.text);
        } else {
          project.platforms.emplace_back(p.text);
        }
      }
    } else if (cmd.is("IncludePath")) {
      if (!text::check_command(cmd, diag, {kString, kString | kName, kString | kName},
                               {.min_params = 1})) {
        continue;
      }
      PendingInclude inc{&cmd, std::string(kCommon), std::string(kCommon),
                         resolve(project.root, cmd.param(0)->text)};
      if (const text::Token* p = cmd.param(1)) inc.platform = p->text;
      if (const text::Token* t = cmd.param(2)) inc.type = t->text;
      includes.push_back(std::move(inc));
    } else if (cmd.is("Plugin")) {
      if (text::check_command(cmd, diag, {kString})) {
        project.plugins.push_back({std::string(cmd.param(0)->text), cmd.location()});
      }
    } else if (cmd.is("Cache")) {
      if (text::check_command(cmd, diag, {kString})) project.cache_url = cmd.param(0)->text;
    } else if (cmd.is("DataFile")) {
      if (!text::check_command(cmd, diag, {kString}, {.min_params = 1, .variadic = true})) {
        continue;
      }
      for (const text::Token& p : text::chain(cmd.params)) {
        if (add_data_file(data_files, p, diag)) project.data_files.emplace_back(p.text);
      }
    } else {
      diag.error(cmd,
                 "unknown project command `{}` (Project, DataPath, IntermediatePath, ImagePath, "
                 "Platform, IncludePath, Plugin, DataFile, Cache)",
                 cmd.text);
    }
  }

  for (const auto& [at, dir] : image_overrides) {
    if (auto p = project.find_platform(at->text)) {
      project.platform_image_paths[to_lower(*p)] = dir;
    } else {
      diag.error(*at, "ImagePath for platform `{}`, which the project does not declare", at->text);
    }
  }
  for (PendingInclude& inc : includes) {
    if (!equal_names(inc.platform, kCommon) && !project.find_platform(inc.platform)) {
      diag.error(*inc.at->param(1),
                 "IncludePath for platform `{}`, which the project does not "
                 "declare",
                 inc.platform);
      continue;
    }
    project.include_paths.add(inc.platform, inc.type, inc.dir.string());
  }
  if (project.platforms.empty()) {
    diag.error(SourceLocation::text(project.file.string(), 1, 1),
               "the project declares no platform (e.g. Platform(\"PC\");)");
  }
  if (project.data_files.empty()) {
    diag.error(SourceLocation::text(project.file.string(), 1, 1),
               "the project names no data file (e.g. DataFile(\"main.kcmd\");)");
  }
  if (diag.error_count() != errors_before) {
    diag.keep_source(doc->filename(), std::string(doc->source()));
    return std::nullopt;
  }
  return project;
}

std::optional<Project> load_project(const fs::path& file, text::Diagnostics& diag) {
  Result<std::string> source = read_file(file);
  if (!source) {
    diag.error(SourceLocation::text(file.string(), 0),
               fmt::format("cannot read the project file: {}", source.error().message()));
    return std::nullopt;
  }
  return parse_project(std::move(*source), file, diag);
}

}  // namespace keel::pipeline
