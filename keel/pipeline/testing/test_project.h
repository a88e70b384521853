// A throw-away project folder for tests and benchmarks: write files, load the project, build.
#pragma once

#include "keel/core/file.h"
#include "keel/pipeline/builder.h"
#include "keel/pipeline/handlers/builtin_handlers.h"
#include "keel/pipeline/project.h"
#include "keel/pipeline/registry.h"

#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace keel::pipeline::testing {

// Records everything a build reports, for assertions.
class RecordingObserver final : public BuildObserver {
 public:
  void asset_finished(const AssetEvent& e) override {
    finished.push_back(fmt::format("{} {} {}", e.type, e.name, to_string(e.outcome)));
  }
  void message(log::Level, std::string_view text) override { messages += text; }
  void repacking(std::string_view path, usize) override { repacks.emplace_back(path); }
  std::vector<std::string> finished;
  std::string messages;
  std::vector<std::string> repacks;
};

class TestProject {
 public:
  explicit TestProject(std::filesystem::path dir) : dir_(std::move(dir)) {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
    std::filesystem::create_directories(dir_);
  }

  const std::filesystem::path& dir() const { return dir_; }
  std::filesystem::path path(std::string_view rel) const { return dir_ / std::string(rel); }

  void write(std::string_view rel, std::string_view content) const {
    const std::filesystem::path p = path(rel);
    std::filesystem::create_directories(p.parent_path());
    std::FILE* f = std::fopen(p.c_str(), "wb");
    if (f == nullptr) return;
    std::fwrite(content.data(), 1, content.size(), f);
    std::fclose(f);
  }
  std::string read(std::string_view rel) const {
    Result<std::string> r = read_file(path(rel));
    return r ? *r : std::string();
  }
  bool exists(std::string_view rel) const { return std::filesystem::exists(path(rel)); }

  // Loads project.kproj (or `file`); on errors returns nullopt and keeps them in `errors`.
  std::optional<Project> load(std::string_view file = "project.kproj") {
    text::Diagnostics diag;
    std::optional<Project> p = load_project(path(file), diag);
    errors = diag.render();
    return p;
  }

  std::string errors;

 private:
  std::filesystem::path dir_;
};

// A registry with the built-in handlers.
inline void add_builtins(HandlerRegistry& registry) { register_builtin_handlers(registry); }

}  // namespace keel::pipeline::testing
