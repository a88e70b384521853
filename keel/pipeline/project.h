// A build project (Golden Rules ch. 5, "Project"): where the command files, intermediates and data
// files live, the target platforms, the include-path groups and the plug-ins. Written in the
// shared command-file syntax; every relative path is relative to the project file's folder, so
// the project can move.
//
//   Project("sample");
//   DataPath(".");                           // command files (default: the project folder)
//   IntermediatePath("build/obj");           // <obj>/<platform>/<data file>/<type>/<asset>.kpk
//   ImagePath("build/image");                // <image>/<platform>/<data file>.kpk
//   ImagePath("build/handheld", "Handheld"); // a platform's own image path
//   Platform("PC");
//   Platform("Handheld");
//   IncludePath("assets");                   // group (common, common)
//   IncludePath("assets/pc", "PC");          // group (PC, common)
//   IncludePath("assets/small", "Handheld", "Blob");  // group (Handheld, Blob)
//   Plugin("keel_tilemap");                  // a name (searched) or a path to a shared library
//   DataFile("main.kcmd");                   // a command file that makes one data file
#pragma once

#include "keel/core/error.h"
#include "keel/pipeline/include_paths.h"
#include "keel/text/diagnostics.h"

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace keel::pipeline {

inline constexpr std::string_view kDataFileExtension = ".kpk";
inline constexpr std::string_view kIntermediateExtension = ".kpk";
inline constexpr std::string_view kDatabaseName = "build.kdb";

struct PluginReference {
  std::string name;  // as written
  SourceLocation where;
};

struct Project {
  std::filesystem::path file;  // the project file (absolute)
  std::filesystem::path root;  // its folder
  std::string name;
  std::filesystem::path data_path;
  std::filesystem::path intermediate_path;
  std::filesystem::path image_path;
  std::map<std::string, std::filesystem::path> platform_image_paths;  // lower-case platform
  std::vector<std::string> platforms;                                 // in declaration order
  std::vector<std::string> data_files;  // command files relative to data_path
  IncludePaths include_paths;
  std::vector<PluginReference> plugins;
  std::string cache_url;  // Cache("http://..."): the shared build cache (remote_cache.h)

  // The platform as declared (matching case-insensitively), or nullopt.
  std::optional<std::string> find_platform(std::string_view platform) const;
  // "main.kcmd" -> "main": the data file's name (command file stem).
  static std::string data_file_name(std::string_view command_file);
  // <image>/<platform>/<name>.kpk
  std::filesystem::path data_file_path(std::string_view platform,
                                       std::string_view command_file) const;
  // <intermediate>/<platform>/<name>/
  std::filesystem::path intermediate_dir(std::string_view platform,
                                         std::string_view command_file) const;
  std::filesystem::path image_dir(std::string_view platform) const;
};

// Parses a project file. Errors (located) go to `diagnostics`; nullopt when there were any.
std::optional<Project> parse_project(std::string source, const std::filesystem::path& file,
                                     text::Diagnostics& diagnostics);
std::optional<Project> load_project(const std::filesystem::path& file,
                                    text::Diagnostics& diagnostics);

}  // namespace keel::pipeline
