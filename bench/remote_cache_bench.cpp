// keel-build's shared cache (issue 16) on a project of about 10,000 assets of the sample's handler
// mix (fonts, textures, meshes, sounds, BSP trees, scripts, FSMs, entity definitions, particles,
// blobs: data/*.kcmd), as whole keel-build processes (-j2, platform PC):
//
//   BM_FullLocalBuild   no cache, nothing built yet: every handler runs
//   BM_WarmCacheBuild   no local intermediates, a warm cache on a loopback nginx (WebDAV PUT,
//                       the server the tests use): every asset is a download, verified by SHA-256
//   BM_LocalNoOp        everything up to date locally
//   BM_LocalRepack      everything up to date locally, every data file repacked (--force-repack):
//                       the part of both builds that the cache does not change
//
// Every build gets a fresh local tree (`t<pid>_<n>/obj`, `.../image`, passed with
// --intermediate-path/--image-path) in a work folder flagged FS_TOPDIR_FL (`chattr +T`), and old
// trees are deleted only at the end. Why: this machine's ext4 has no journal, and there the inode
// allocator skips every inode freed in the last 60-300 s (`recently_deleted`), scanning from the
// start of the block group on each file created. /tmp's block groups are churned by other programs
// (and by this benchmark's own clean-up of ~60,000 files in the previous run), so 10,000 files
// created there took 2-8 s where the same creates in a fresh group took 0.15-0.2 s (measured
// 2026-11-27 with empty files, right after deleting 30,000). With FS_TOPDIR_FL the Orlov allocator
// places each new tree (a unique name per run and build) in a little-used block group, as on a
// developer's disk that did not just delete thousands of files (and as on any ext4 with a
// journal, which never does this scan). Both builds create the same files, so nothing is skipped;
// KEEL_BENCH_PLAIN_TREES=1 leaves the work folder unflagged (the trees then land among recently
// deleted inodes: for diagnosis). The clean-up deletes the trees on one thread each: with online
// discard (this machine's mount) every unlink waits for its discard, minutes on one thread.
// KEEL_BENCH_KEEL_BUILD runs another keel-build (an older one, to compare in one setting).
// The project: the sample's command files copied, and N data files `dNNN.kcmd` that each
// `AddFile("main.kcmd")` (so each holds every sample asset again), N chosen to reach 10,000
// assets. The assets of different data files have the same keys, so the cache holds one entry
// per sample asset: what this measures is the per-asset cost of a hit (one GET, two for the few
// intermediates over the inline limit; a SHA-256, a write), not the server's storage. Skipped
// without nginx.
#include "bench_support.h"

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <fcntl.h>
#include <linux/fs.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace {

namespace fs = std::filesystem;

constexpr int kTargetAssets = 10'000;

void write(const fs::path& path, std::string_view text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out) std::abort();
}

std::string keel_build_exe() {
  const char* other = std::getenv("KEEL_BENCH_KEEL_BUILD");
  return other != nullptr && *other != 0 ? std::string(other) : std::string(KEEL_BUILD_EXE);
}

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

int free_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t n = sizeof a;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&a), n) != 0 ||
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &n) != 0) {
    std::abort();
  }
  const int port = ntohs(a.sin_port);
  ::close(fd);
  return port;
}

bool connectable(int port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<uint16_t>(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  const bool ok = ::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
  ::close(fd);
  return ok;
}

// The last "keel-build: 123 built, ..." line -> 123 (0 when absent).
long built_count(const std::string& out) {
  long count = 0;
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) {
    if (!line.starts_with("keel-build: ")) continue;
    char* end = nullptr;
    const long n = std::strtol(line.c_str() + 12, &end, 10);
    if (end != line.c_str() + 12 && std::string_view(end).starts_with(" built, ")) count = n;
  }
  return count;
}

struct Setup {
  fs::path base;
  fs::path project;
  std::string url;
  pid_t nginx = -1;
  long assets = 0;
  bool ok = false;
  std::string why;

  Setup() {
    base = fs::temp_directory_path() / fmt::format("keel_remote_cache_bench_{}", ::getpid());
    fs::remove_all(base);
    fs::create_directories(base / "cmd");
    fs::create_directories(base / "root");
    fs::create_directories(base / "logs");
    fs::create_directories(base / "tmp");
    spread_trees();
    if (!start_nginx()) return;
    for (const auto& e : fs::directory_iterator(fs::path(KEEL_SAMPLE_DIR))) {
      if (e.path().extension() == ".kcmd")
        fs::copy_file(e.path(), base / "cmd" / e.path().filename());
    }
    // One data file first, to count the sample's assets; then enough copies for 10,000.
    generate(1);
    fresh_tree();
    if (!build("count", {"--no-cache"})) return;
    const long per_copy = built_count(slurp(base / "out.count"));
    if (per_copy <= 0) {
      why = "could not count the sample's assets";
      return;
    }
    generate(static_cast<int>((kTargetAssets + per_copy - 1) / per_copy));
    fresh_tree();
    // Warm the cache and the local tree.
    if (!build("warm", {"--cache", url, "--cache-mode", "readwrite"})) return;
    assets = built_count(slurp(base / "out.warm"));
    ok = assets > 0;
  }
  ~Setup() {
    if (nginx > 0) {
      ::kill(nginx, SIGTERM);
      waitpid(nginx, nullptr, 0);
    }
    // The trees are deleted in parallel: with online discard (this machine's mount), every
    // unlink of a file with data waits for its discard, so one thread took minutes.
    std::vector<std::jthread> removers;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(base, ec)) {
      removers.emplace_back([path = e.path()] {
        std::error_code ignored;
        fs::remove_all(path, ignored);
      });
    }
    removers.clear();
    fs::remove_all(base, ec);
  }

  bool start_nginx() {
    const char* candidates[] = {"/usr/sbin/nginx", "/usr/bin/nginx"};
    std::string exe;
    for (const char* c : candidates) {
      if (::access(c, X_OK) == 0) exe = c;
    }
    if (exe.empty()) {
      why = "nginx is not installed";
      return false;
    }
    const int port = free_port();
    url = fmt::format("http://127.0.0.1:{}/keel", port);
    const std::string b = base.string();
    write(base / "nginx.conf",
          fmt::format("{}worker_processes 1;\ndaemon off;\npid {b}/nginx.pid;\n"
                      "error_log {b}/logs/error.log;\nevents {{ worker_connections 256; }}\n"
                      "http {{\n  access_log off;\n  client_body_temp_path {b}/tmp/body;\n"
                      "  proxy_temp_path {b}/tmp/proxy;\n  fastcgi_temp_path {b}/tmp/fcgi;\n"
                      "  uwsgi_temp_path {b}/tmp/uwsgi;\n  scgi_temp_path {b}/tmp/scgi;\n"
                      "  client_max_body_size 0;\n  server {{\n"
                      "    listen 127.0.0.1:{port};\n    root {b}/root;\n"
                      "    location /keel/ {{ dav_methods PUT; create_full_put_path on; }}\n"
                      "  }}\n}}\n",
                      ::getuid() == 0 ? "user root root;\n" : "", fmt::arg("b", b),
                      fmt::arg("port", port)));
    nginx = keel::bench::spawn_program({exe, "-p", b, "-c", b + "/nginx.conf"},
                                       (base / "logs" / "nginx.out").string(), true);
    for (int i = 0; i < 200 && nginx > 0; ++i) {
      if (connectable(port)) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(25));
    }
    why = "nginx did not start";
    return false;
  }

  void generate(int copies) {
    std::string files;
    for (int i = 0; i < copies; ++i) {
      write(base / "cmd" / fmt::format("d{:03}.kcmd", i), "AddFile(\"main.kcmd\");\n");
      files += fmt::format("{}\"d{:03}.kcmd\"", i == 0 ? "" : ", ", i);
    }
    const std::string sample = KEEL_SAMPLE_DIR;
    write(base / "bench.kproj",
          fmt::format("Project(\"cache-bench\");\nDataPath(\"cmd\");\nIntermediatePath(\"obj\");\n"
                      "ImagePath(\"image\");\nPlatform(\"PC\");\nIncludePath(\"{}/assets\");\n"
                      "IncludePath(\"/usr/share/fonts/truetype/dejavu\", \"common\", \"Font\");\n"
                      "Plugin(\"keel_tilemap\");\nDataFile({});\n",
                      sample, files));
    project = base / "bench.kproj";
  }

  bool build(const std::string& name, std::vector<std::string> extra) {
    std::vector<std::string> args = {keel_build_exe(),         "-p",
                                     project.string(),         "-j2",
                                     "--no-progress",          "--intermediate-path",
                                     (tree / "obj").string(),  "--image-path",
                                     (tree / "image").string()};
    args.insert(args.end(), extra.begin(), extra.end());
    if (keel::bench::run_program(args, (base / ("out." + name)).string(), true) != 0) {
      why = fmt::format("keel-build failed: {}", slurp(base / ("out." + name)));
      return false;
    }
    return true;
  }

  // FS_TOPDIR_FL on the work folder (see the top of the file); a file system without it ignores
  // the request, which only matters for the timings.
  void spread_trees() {
    if (const char* plain = std::getenv("KEEL_BENCH_PLAIN_TREES");
        plain != nullptr && *plain == '1')
      return;
    const int fd = ::open(base.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return;
    int flags = 0;
    if (::ioctl(fd, FS_IOC_GETFLAGS, &flags) == 0) {
      flags |= FS_TOPDIR_FL;
      ::ioctl(fd, FS_IOC_SETFLAGS, &flags);
    }
    ::close(fd);
  }

  // A new, empty local tree for the next build: no local intermediates and no data files, as in a
  // fresh checkout. The name is unique per run, since the allocator's choice of block group for a
  // top-level folder starts from a hash of its name.
  void fresh_tree() {
    tree = base / fmt::format("t{}_{}", ::getpid(), trees++);
    fs::create_directories(tree);
  }
  fs::path tree;
  int trees = 0;
};

Setup& setup() {
  static Setup s;
  return s;
}

bool ready(benchmark::State& state) {
  if (setup().ok) return true;
  state.SkipWithError(setup().why.c_str());
  return false;
}

void BM_FullLocalBuild(benchmark::State& state) {
  if (!ready(state)) return;
  Setup& s = setup();
  for (auto _ : state) {
    state.PauseTiming();
    s.fresh_tree();
    state.ResumeTiming();
    if (!s.build("full", {"--no-cache"}) || built_count(slurp(s.base / "out.full")) != s.assets) {
      state.SkipWithError("the full build did not build everything");
      break;
    }
  }
  state.SetItemsProcessed(state.iterations() * s.assets);
}
BENCHMARK(BM_FullLocalBuild)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(1);

void BM_WarmCacheBuild(benchmark::State& state) {
  if (!ready(state)) return;
  Setup& s = setup();
  for (auto _ : state) {
    state.PauseTiming();
    s.fresh_tree();
    state.ResumeTiming();
    if (!s.build("hits", {"--cache", s.url, "--cache-mode", "read"})) {
      state.SkipWithError(s.why.c_str());
      break;
    }
  }
  const std::string out = slurp(s.base / "out.hits");
  if (out.find(fmt::format(": {} hits, 0 misses", s.assets)) == std::string::npos) {
    state.SkipWithError(("not every asset was a hit: " + out).c_str());
  }
  state.SetItemsProcessed(state.iterations() * s.assets);
}
BENCHMARK(BM_WarmCacheBuild)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);

void BM_LocalNoOp(benchmark::State& state) {
  if (!ready(state)) return;
  Setup& s = setup();
  s.build("noop-warmup", {"--no-cache"});
  for (auto _ : state) {
    if (!s.build("noop", {"--no-cache"})) {
      state.SkipWithError(s.why.c_str());
      break;
    }
  }
  if (slurp(s.base / "out.noop").find("everything is up to date") == std::string::npos) {
    state.SkipWithError("the no-op build did work");
  }
  state.SetItemsProcessed(state.iterations() * s.assets);
}
BENCHMARK(BM_LocalNoOp)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);

void BM_LocalRepack(benchmark::State& state) {
  if (!ready(state)) return;
  Setup& s = setup();
  for (auto _ : state) {
    if (!s.build("repack", {"--no-cache", "--force-repack"})) {
      state.SkipWithError(s.why.c_str());
      break;
    }
  }
  if (built_count(slurp(s.base / "out.repack")) != 0) {
    state.SkipWithError("the repack-only build built assets");
  }
  state.SetItemsProcessed(state.iterations() * s.assets);
}
BENCHMARK(BM_LocalRepack)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(1);

}  // namespace

KEEL_BENCH_RATIO("10,000 sample-mix assets: warm remote cache / full local build (goal <= 0.2)",
                 "BM_WarmCacheBuild/iterations:3/real_time",
                 "BM_FullLocalBuild/iterations:1/real_time");
KEEL_BENCH_RATIO("10,000 sample-mix assets: local repack of every data file / full local build",
                 "BM_LocalRepack/iterations:1/real_time",
                 "BM_FullLocalBuild/iterations:1/real_time");
KEEL_BENCH_RATIO("10,000 sample-mix assets: warm remote cache / local no-op",
                 "BM_WarmCacheBuild/iterations:3/real_time", "BM_LocalNoOp/iterations:3/real_time");

int main(int argc, char** argv) {
  const int rc = keel::bench::run_main(argc, argv);
  const double warm = keel::bench::measured_ns("BM_WarmCacheBuild/iterations:3/real_time");
  if (warm > 0 && setup().assets > 0) {
    std::printf("warm cache: %ld assets, %.1f us per hit (whole keel-build process, -j2)\n",
                setup().assets, warm / 1000.0 / static_cast<double>(setup().assets));
  }
  return rc;
}
