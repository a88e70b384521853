// keel-build: the data build tool (Golden Rules ch. 5, DataCon on the command line).
//
//   keel-build [-p project.kproj] [--platform P]... [--all | DATAFILE...] [-j N]
//              [--force-rebuild] [--force-repack] [--plugin-path DIR]...
//              [--intermediate-path DIR] [--image-path DIR] [-v] [--no-progress] [--no-wait]
//              [--cache URL | --no-cache] [--cache-mode read|readwrite] [--timings]
//   keel-build clean [-p project.kproj]          delete every intermediate and data file
//   keel-build handlers [-p project.kproj]       list the handlers (built-in and plug-ins)
//   keel-build export-ninja -o build.ninja [--platform P]... [DATAFILE...]
//                                                the build as a Ninja file: one edge per asset
//                                                command, one repack edge per data file
//   keel-build asset PLATFORM DATAFILE INDEX --store DIR [--depfile F] [--stamp F]
//                                                one asset command (what the Ninja edges run)
//
// Without DATAFILE or --all every data file of the project is built; without --platform, every
// platform. One keel-build runs per project at a time (a second waits for the first, or refuses
// with --no-wait); temporaries of a killed build are deleted by the next one and by clean.
// The shared build cache (keel/pipeline/remote_cache.h): --cache, else $KEEL_CACHE_URL, else the
// project's Cache("url"); mode --cache-mode, else $KEEL_CACHE_MODE, else read. Credentials only
// from the environment: $KEEL_CACHE_TOKEN (bearer token) and a netrc file ($KEEL_CACHE_NETRC, else
// ~/.netrc when it exists). The HTTP transport is the module keel-build-http.so (next to
// keel-build, or installed in <libdir>/keel), loaded only when a cache URL is configured.
// --timings prints the time of each phase of the process (stderr) and of each data file's build
// (the log): to see what a no-op build spends its time on.
// Exit status: 0 success, 1 a build failed, 2 bad usage, project or I/O. The logic lives in
// keel/pipeline.
#include "keel/assets/build/asset_handlers.h"
#include "keel/core/file.h"
#include "keel/pipeline/build_lock.h"
#include "keel/pipeline/builder.h"
#include "keel/pipeline/console_progress.h"
#include "keel/pipeline/handlers/builtin_handlers.h"
#include "keel/pipeline/project.h"
#include "keel/pipeline/registry.h"
#include "keel/pipeline/remote_cache.h"
#include "keel/pipeline/single_asset.h"
#include "keel/spatial/build/spatial_handlers.h"
#include "keel/world/build/world_handlers.h"

#include "http_cache_module.h"

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <dlfcn.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace {

namespace fs = std::filesystem;
using namespace keel::pipeline;

// --timings: the time of each phase of the process on stderr (the build's own phases come from
// BuildOptions::timings), to find what a no-op build spends its time on.
class Timings {
 public:
  void enable() { on_ = true; }
  bool on() const { return on_; }
  void mark(const char* phase) {
    if (!on_) return;
    const auto now = std::chrono::steady_clock::now();
    text_ += fmt::format("{}{} {:.2f} ms", text_.empty() ? "" : ", ", phase,
                         std::chrono::duration<double, std::milli>(now - last_).count());
    last_ = now;
  }
  void print() const {
    if (on_) fmt::print(stderr, "keel-build: timings: {}\n", text_);
  }

 private:
  bool on_ = false;
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
  std::string text_;
};

Timings timings;

struct Options {
  std::string project = "project.kproj";
  std::vector<std::string> platforms;
  std::vector<std::string> data_files;
  bool all = false;
  unsigned jobs = 0;
  bool force_rebuild = false;
  bool force_repack = false;
  std::vector<std::string> plugin_paths;
  std::string intermediate_path;
  std::string image_path;
  bool verbose = false;
  bool no_progress = false;
  bool no_wait = false;
  std::string cache_url;
  std::string cache_mode;
  bool no_cache = false;
  std::string cache_dir;  // a DirectoryCacheStore instead of HTTP
  // export-ninja and asset
  std::string output;
  std::string store;
  std::string asset_platform;
  std::string asset_data_file;
  std::size_t asset_index = 0;
  std::string depfile;
  std::string stamp;
  bool timings = false;
};

std::string environment(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr ? std::string(value) : std::string();
}

// The HTTP transport, from keel-build-http.so (http_cache_module.h): next to keel-build (the
// build tree), else in <prefix>/<libdir>/keel (installed). The module stays loaded until exit.
keel::Result<std::unique_ptr<CacheStore>> open_http_store(const HttpStoreOptions& options) {
  std::error_code ec;
  const fs::path exe_dir = fs::read_symlink("/proc/self/exe", ec).parent_path();
  std::vector<fs::path> candidates = {exe_dir / kHttpCacheModuleFile};
#ifdef KEEL_BUILD_HTTP_MODULE_INSTALL_DIR
  candidates.push_back(exe_dir / KEEL_BUILD_HTTP_MODULE_INSTALL_DIR / kHttpCacheModuleFile);
#endif
  std::string tried;
  for (const fs::path& candidate : candidates) {
    if (!fs::exists(candidate, ec)) {
      tried += fmt::format("{}{}", tried.empty() ? "" : ", ", candidate.string());
      continue;
    }
    void* module = ::dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (module == nullptr) {
      return keel::fail(keel::ErrorCode::kIo, "the shared cache's HTTP module {}: {}",
                        candidate.string(), ::dlerror());
    }
    auto open = reinterpret_cast<OpenHttpCacheFn>(::dlsym(module, kHttpCacheModuleSymbol));
    if (open == nullptr) {
      return keel::fail(keel::ErrorCode::kUnsupported, "{} is not keel-build's HTTP module",
                        candidate.string());
    }
    std::unique_ptr<CacheStore> store;
    keel::Error error(keel::ErrorCode::kIo, "");
    if (!open(kHttpCacheModuleVersion, &options, &store, &error)) return keel::Unexpected(error);
    return store;
  }
  return keel::fail(keel::ErrorCode::kNotFound,
                    "the shared cache needs keel-build's HTTP module, not found (looked for {})",
                    tried);
}

// The shared cache the options, environment and project ask for: nullptr for none, false (after
// printing why) for a bad URL or mode.
bool open_cache(const Options& o, const Project& project, std::unique_ptr<CacheStore>& store,
                std::unique_ptr<RemoteCache>& cache) {
  if (o.no_cache) return true;
  if (!o.cache_dir.empty()) {
    const keel::Result<CacheMode> mode =
        parse_cache_mode(o.cache_mode.empty() ? "read" : o.cache_mode);
    if (!mode) return false;
    store = std::make_unique<DirectoryCacheStore>(fs::absolute(o.cache_dir).lexically_normal());
    cache = std::make_unique<RemoteCache>(*store, *mode);
    return true;
  }
  std::string url = o.cache_url;
  if (url.empty()) url = environment("KEEL_CACHE_URL");
  if (url.empty()) url = project.cache_url;
  if (url.empty()) return true;
  std::string mode_text = o.cache_mode;
  if (mode_text.empty()) mode_text = environment("KEEL_CACHE_MODE");
  if (mode_text.empty()) mode_text = "read";
  const keel::Result<CacheMode> mode = parse_cache_mode(mode_text);
  if (!mode) {
    fmt::print(stderr, "keel-build: {}\n", mode.error().message());
    return false;
  }
  HttpStoreOptions http;
  http.url = url;
  http.token = environment("KEEL_CACHE_TOKEN");
  http.netrc_file = environment("KEEL_CACHE_NETRC");
  if (http.netrc_file.empty() && !environment("HOME").empty()) {
    std::error_code ec;
    const fs::path netrc = fs::path(environment("HOME")) / ".netrc";
    if (fs::exists(netrc, ec)) http.netrc_file = netrc.string();
  }
  keel::Result<std::unique_ptr<CacheStore>> opened = open_http_store(http);
  if (!opened) {
    fmt::print(stderr, "keel-build: {}\n", opened.error().message());
    return false;
  }
  store = std::move(*opened);
  cache = std::make_unique<RemoteCache>(*store, *mode);
  return true;
}

std::vector<fs::path> plugin_search_path(const Options& o) {
  std::vector<fs::path> dirs(o.plugin_paths.begin(), o.plugin_paths.end());
  if (const char* env = std::getenv("KEEL_PLUGIN_PATH")) {
    std::string_view rest = env;
    while (!rest.empty()) {
      const auto colon = rest.find(':');
      if (colon != 0) dirs.emplace_back(rest.substr(0, colon));
      if (colon == std::string_view::npos) break;
      rest.remove_prefix(colon + 1);
    }
  }
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) dirs.push_back(exe.parent_path() / "plugins");
#ifdef KEEL_BUILD_PLUGIN_DIR
  dirs.emplace_back(KEEL_BUILD_PLUGIN_DIR);  // the build tree's plug-ins
#endif
  return dirs;
}

// An error's message with its file in front (no second "error:").
std::string message_with_file(const keel::Error& e) {
  const std::string& file = e.where().file;
  return file.empty() ? e.message() : fmt::format("{}: {}", file, e.message());
}

// Loads the project and its plug-ins; prints errors and returns false on failure.
bool load(const Options& o, std::optional<Project>& project, HandlerRegistry& handlers) {
  keel::text::Diagnostics diag;
  project = load_project(o.project, diag);
  if (!project) {
    fmt::print(stderr, "{}", diag.render());
    return false;
  }
  if (!o.intermediate_path.empty()) {
    project->intermediate_path = fs::absolute(o.intermediate_path).lexically_normal();
  }
  if (!o.image_path.empty()) {
    project->image_path = fs::absolute(o.image_path).lexically_normal();
    project->platform_image_paths.clear();
  }
  register_builtin_handlers(handlers);
  keel::assets::register_asset_handlers(handlers);
  keel::spatial::register_spatial_handlers(handlers);
  keel::world::register_world_handlers(handlers);
  const std::vector<fs::path> search = plugin_search_path(o);
  bool ok = true;
  for (const PluginReference& plugin : project->plugins) {
    keel::Result<fs::path> path = find_plugin(plugin.name, project->root, search);
    keel::Status loaded =
        path ? handlers.load_plugin(*path) : keel::Status(keel::Unexpected(path.error()));
    if (!loaded) {
      fmt::print(stderr, "{}\n",
                 keel::Error(loaded.error().code(), message_with_file(loaded.error()), plugin.where)
                     .to_string());
      ok = false;
    }
  }
  for (const keel::Error& e : handlers.take_problems())
    fmt::print(stderr, "warning: {}\n", e.message());
  return ok;
}

// One keel-build per project at a time; then the temporaries a killed build left go. nullopt
// (after printing why) when the lock cannot be had.
std::optional<BuildLock> lock_project(const Options& o, const Project& project) {
  keel::Result<BuildLock> lock = BuildLock::acquire(
      project, o.no_wait ? BuildLock::Wait::kNo : BuildLock::Wait::kYes, [](keel::u32 pid) {
        fmt::print(stderr,
                   "keel-build: another keel-build is running on this project "
                   "(pid {}); waiting for it to finish\n",
                   pid);
      });
  if (!lock) {
    fmt::print(stderr, "keel-build: {}\n", lock.error().to_string());
    return std::nullopt;
  }
  if (lock->stale_build() != 0) {
    const keel::usize removed = remove_stale_temporaries(project);
    if (removed != 0) {
      fmt::print(stderr,
                 "keel-build: removed {} temporary file{} of an interrupted build (pid {})\n",
                 removed, removed == 1 ? "" : "s", lock->stale_build());
    }
  }
  return std::move(*lock);
}

int list_handlers(const Options& o) {
  std::optional<Project> project;
  HandlerRegistry handlers;
  if (!load(o, project, handlers)) return 2;
  fmt::print("{:<14} {:<10} {:>3}  {:<44} {}\n", "type", "platform", "ver", "what", "from");
  for (const HandlerEntry& e : handlers.entries()) {
    fmt::print("{:<14} {:<10} {:>3}  {:<44} {}\n", e.type, e.platform, e.version, e.description,
               e.origin);
  }
  return 0;
}

int clean_project(const Options& o) {
  keel::text::Diagnostics diag;
  std::optional<Project> project;
  HandlerRegistry handlers;
  if (!load(o, project, handlers)) return 2;
  const std::optional<BuildLock> lock = lock_project(o, *project);
  if (!lock) return 2;
  keel::Result<CleanReport> r = clean(*project);
  if (!r) {
    fmt::print(stderr, "keel-build: {}\n", r.error().to_string());
    return 2;
  }
  fmt::print("keel-build: clean: deleted {} file{} ({} intermediate folder{})\n", r->files,
             r->files == 1 ? "" : "s", r->directories, r->directories == 1 ? "" : "s");
  return 0;
}

// Ninja needs `$`, `:`, spaces and newlines escaped in paths.
std::string ninja_path(const fs::path& path) {
  std::string out;
  for (const char c : path.string()) {
    if (c == '$' || c == ':' || c == ' ') out += '$';
    out += c;
  }
  return out;
}

// A variable's value: `$` doubled, line breaks as spaces.
std::string ninja_value(std::string_view text) {
  std::string out;
  for (const char c : text) {
    if (c == '$') out += '$';
    out += c == '\n' || c == '\r' ? ' ' : c;
  }
  return out;
}

std::string shell_quoted(std::string_view text) {
  std::string out = "'";
  for (const char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// The project's build as a Ninja file: per asset command an edge that runs `keel-build asset`
// (its handler; the result goes into a cache store folder), per data file an edge that runs an
// ordinary build of it with that folder as its cache (every asset a hit) and repacks.
int export_ninja(const Options& o) {
  std::optional<Project> project;
  HandlerRegistry handlers;
  if (!load(o, project, handlers)) return 2;
  const std::vector<std::string>& platforms =
      o.platforms.empty() ? project->platforms : o.platforms;
  const std::vector<std::string>& files =
      o.all || o.data_files.empty() ? project->data_files : o.data_files;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  const fs::path ninja_dir = project->intermediate_path / "ninja";
  const fs::path store = o.store.empty() ? ninja_dir / "store" : fs::absolute(o.store);
  std::string common = fmt::format("-p {} --no-progress", shell_quoted(project->file.string()));
  common +=
      fmt::format(" --intermediate-path {}", shell_quoted(project->intermediate_path.string()));
  if (!o.image_path.empty()) {
    common += fmt::format(" --image-path {}", shell_quoted(project->image_path.string()));
  }
  for (const std::string& dir : o.plugin_paths) {
    common += fmt::format(" --plugin-path {}", shell_quoted(fs::absolute(dir).string()));
  }
  std::string out = fmt::format(
      "# Generated by keel-build export-ninja from {} (do not edit; export again).\n"
      "ninja_required_version = 1.10\n"
      "keel_build = {}\nkeel_args = {}\nstore = {}\n\n"
      "rule keel_asset\n"
      "  command = $keel_build $keel_args asset $platform $data_file $index --store $store "
      "--depfile $out.d --stamp $out\n"
      "  depfile = $out.d\n  deps = gcc\n"
      "  description = keel-build asset $platform/$data_file #$index $label\n\n"
      "rule keel_repack\n"
      "  command = $keel_build $keel_args --cache-dir $store --cache-mode read "
      "--platform $platform $data_file\n"
      "  description = keel-build repack $platform/$data_file\n"
      "  pool = console\n\n",
      project->file.string(), shell_quoted(exe.string()), common, shell_quoted(store.string()));
  std::string all;
  for (const std::string& platform : platforms) {
    for (const std::string& file : files) {
      keel::Result<DataFilePlan> plan = plan_data_file(*project, handlers, platform, file);
      if (!plan) {
        fmt::print(stderr, "keel-build: {}\n", plan.error().message());
        return 2;
      }
      std::string inputs = ninja_path(project->file);
      for (const fs::path& f : plan->command_files) inputs += " " + ninja_path(f);
      const std::string name = Project::data_file_name(plan->command_file);
      std::string stamps;
      for (std::size_t i = 0; i < plan->assets; ++i) {
        const fs::path stamp = ninja_dir / plan->platform / name / fmt::format("{}.stamp", i);
        out += fmt::format(
            "build {}: keel_asset {} | {}\n  platform = {}\n  data_file = {}\n  index = {}\n"
            "  label = {}\n",
            ninja_path(stamp), inputs, ninja_path(exe), plan->platform, plan->command_file, i,
            ninja_value(plan->asset_labels[i]));
        stamps += " " + ninja_path(stamp);
      }
      out += fmt::format("build {}: keel_repack{} | {} {}\n  platform = {}\n  data_file = {}\n\n",
                         ninja_path(plan->data_file), stamps, inputs, ninja_path(exe),
                         plan->platform, plan->command_file);
      all += " " + ninja_path(plan->data_file);
    }
  }
  out += fmt::format("default{}\n", all);
  const fs::path target = o.output.empty() ? fs::path("build.ninja") : fs::path(o.output);
  if (keel::Status s = keel::write_file_atomic(target, out); !s) {
    fmt::print(stderr, "keel-build: {}\n", s.error().to_string());
    return 2;
  }
  fmt::print("keel-build: wrote {}\n", target.string());
  return 0;
}

// One asset command (a Ninja edge): its handler, its result into the store folder, a depfile
// naming what it was made from, a stamp.
int build_asset(const Options& o) {
  std::optional<Project> project;
  HandlerRegistry handlers;
  if (!load(o, project, handlers)) return 2;
  if (o.store.empty()) {
    fmt::print(stderr, "keel-build: asset needs --store DIR\n");
    return 2;
  }
  DirectoryCacheStore store(fs::absolute(o.store));
  RemoteCache cache(store, CacheMode::kReadWrite);
  keel::Result<OneAssetReport> r =
      build_one_asset(*project, handlers, {.jobs = 1, .remote_cache = &cache}, o.asset_platform,
                      o.asset_data_file, o.asset_index);
  if (!r) {
    fmt::print(stderr, "keel-build: {}\n", r.error().message());
    return 2;
  }
  if (!r->messages.empty()) fmt::print(stderr, "{}", r->messages);
  if (r->outcome == AssetOutcome::kFailed) return 1;
  if (!o.depfile.empty()) {
    std::string deps = ninja_path(o.stamp.empty() ? fs::path("asset") : fs::path(o.stamp));
    deps += ":";
    for (const fs::path& source : r->sources) {
      deps += " ";
      for (const char c : source.string()) {
        if (c == ' ' || c == '#' || c == '\\') deps += '\\';
        deps += c;
      }
    }
    deps += "\n";
    if (keel::Status s = keel::write_file_atomic(o.depfile, deps); !s) {
      fmt::print(stderr, "keel-build: {}\n", s.error().to_string());
      return 2;
    }
  }
  if (!o.stamp.empty()) {
    std::error_code ec;
    fs::create_directories(fs::path(o.stamp).parent_path(), ec);
    if (keel::Status s = keel::write_file_atomic(o.stamp, std::string(to_string(r->outcome))); !s) {
      fmt::print(stderr, "keel-build: {}\n", s.error().to_string());
      return 2;
    }
  }
  return 0;
}

int build(const Options& o) {
  std::optional<Project> project;
  HandlerRegistry handlers;
  if (!load(o, project, handlers)) return 2;
  timings.mark("project and handlers");
  const std::optional<BuildLock> lock = lock_project(o, *project);
  if (!lock) return 2;
  timings.mark("lock");

  // The builder checks the names (platforms case-insensitively, data files by command file or
  // data file name) before it builds anything.
  const std::vector<std::string>& platforms =
      o.platforms.empty() ? project->platforms : o.platforms;
  const std::vector<std::string>& files =
      o.all || o.data_files.empty() ? project->data_files : o.data_files;

  const unsigned jobs = o.jobs != 0 ? o.jobs : std::max(1u, std::thread::hardware_concurrency());
  const char* term = std::getenv("TERM");
  const bool terminal = !o.no_progress && ::isatty(::fileno(stdout)) != 0 &&
                        (term == nullptr || std::string_view(term) != "dumb");
  ConsoleProgress progress(stdout, {.terminal = terminal, .verbose = o.verbose, .width = 100});
  std::unique_ptr<CacheStore> store;
  std::unique_ptr<RemoteCache> cache;
  if (!open_cache(o, *project, store, cache)) return 2;
  timings.mark("cache");
  Builder builder(*project, handlers,
                  {.jobs = jobs,
                   .force_rebuild = o.force_rebuild,
                   .force_repack = o.force_repack,
                   .remote_cache = cache.get(),
                   .timings = o.timings},
                  &progress);
  const keel::Result<BuildSummary> summary = builder.build_all(platforms, files);
  timings.mark("build");
  if (!summary) {
    fmt::print(stderr, "keel-build: {}\n", summary.error().message());
    return 2;
  }
  if (cache) fmt::print("keel-build: {}\n", cache->summary());
  fmt::print("keel-build: {}\n", summary->to_string());
  return summary->ok() ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Keel data build tool: command files -> intermediates -> data files"};
  Options o;
  auto add_project = [&o](CLI::App* cmd) {
    cmd->add_option("-p,--project", o.project, "the project file")->capture_default_str();
    cmd->add_option("--plugin-path", o.plugin_paths, "a folder to search for plug-ins")
        ->allow_extra_args(false);
  };
  add_project(&app);
  app.add_option("--platform", o.platforms, "target platform (repeatable; default: all)")
      ->allow_extra_args(false);
  app.add_option("DATAFILE", o.data_files, "data files to build (default: all)");
  app.add_flag("--all", o.all, "build every data file of the project");
  app.add_option("-j,--jobs", o.jobs, "handler threads (default: one per core)");
  app.add_flag("--force-rebuild", o.force_rebuild, "every intermediate counts as out of date");
  app.add_flag("--force-repack", o.force_repack, "every data file counts as out of date");
  app.add_option("--intermediate-path", o.intermediate_path, "override the project's");
  app.add_option("--image-path", o.image_path, "override the project's");
  app.add_flag("-v,--verbose", o.verbose, "also list assets that are up to date");
  app.add_flag("--no-progress", o.no_progress, "plain log even on a terminal");
  app.add_option("--cache", o.cache_url,
                 "shared build cache, Bazel remote-cache HTTP protocol (default: "
                 "$KEEL_CACHE_URL, else the project's Cache entry)");
  app.add_option("--cache-mode", o.cache_mode,
                 "read (use hits) or readwrite (also upload what is built); default "
                 "$KEEL_CACHE_MODE, else read")
      ->check(CLI::IsMember({"read", "readwrite"}));
  app.add_flag("--no-cache", o.no_cache, "build without the shared cache");
  app.add_option("--cache-dir", o.cache_dir,
                 "a cache store in a folder instead of HTTP (what export-ninja's repack uses)");
  app.add_flag("--no-wait", o.no_wait,
               "refuse, rather than wait, when another keel-build runs on the project");
  app.add_flag("--timings", o.timings, "print the time each phase took (stderr and the log)");

  CLI::App* clean_cmd = app.add_subcommand("clean", "delete every intermediate and data file");
  CLI::App* handlers_cmd = app.add_subcommand("handlers", "list the handlers and plug-ins");
  CLI::App* export_cmd =
      app.add_subcommand("export-ninja", "write the build as a Ninja file (edges call keel-build)");
  export_cmd->add_option("-o,--output", o.output, "the Ninja file (default build.ninja)");
  export_cmd->add_option("--store", o.store,
                         "folder where asset edges leave their results (default "
                         "<intermediate path>/ninja/store)");
  CLI::App* asset_cmd = app.add_subcommand("asset", "build one asset command (a Ninja edge)");
  asset_cmd->add_option("PLATFORM", o.asset_platform)->required();
  asset_cmd->add_option("DATAFILE_NAME", o.asset_data_file)->required();
  asset_cmd->add_option("INDEX", o.asset_index, "the asset command's index, 0-based")->required();
  asset_cmd->add_option("--store", o.store, "the cache store folder")->required();
  asset_cmd->add_option("--depfile", o.depfile, "write a Makefile-style depfile");
  asset_cmd->add_option("--stamp", o.stamp, "write this file when done");
  clean_cmd->fallthrough();
  handlers_cmd->fallthrough();
  export_cmd->fallthrough();
  asset_cmd->fallthrough();
  app.require_subcommand(0, 1);

  CLI11_PARSE(app, argc, argv);
  if (o.timings) timings.enable();
  timings.mark("command line");
  if (*clean_cmd) return clean_project(o);
  if (*handlers_cmd) return list_handlers(o);
  if (*export_cmd) return export_ninja(o);
  if (*asset_cmd) return build_asset(o);
  const int status = build(o);
  timings.mark("clean-up");
  timings.print();
  return status;
}
