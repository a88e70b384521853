// The remote cache under parallel jobs (-j4): uploads from every thread, then hits on every
// thread, with the same data file as a build without a cache. Also run under ThreadSanitizer.
#include "keel/core/file.h"
#include "keel/pipeline/builder.h"
#include "keel/pipeline/handlers/builtin_handlers.h"
#include "keel/pipeline/remote_cache.h"
#include "keel/pipeline/testing/test_project.h"

#include <gtest/gtest.h>

#include <map>
#include <mutex>

namespace keel::pipeline {
namespace {

namespace fs = std::filesystem;
using testing::TestProject;

// A locked map, as a server would be.
class LockedStore final : public CacheStore {
 public:
  Result<std::optional<ByteBuffer>> get(CacheSpace space, std::string_view key) override {
    std::lock_guard lock(mutex_);
    auto it = entries_.find(fmt::format("{}/{}", to_string(space), key));
    if (it == entries_.end()) return std::optional<ByteBuffer>();
    return std::optional<ByteBuffer>(it->second);
  }
  Status put(CacheSpace space, std::string_view key, ByteSpan bytes) override {
    std::lock_guard lock(mutex_);
    entries_[fmt::format("{}/{}", to_string(space), key)] = to_buffer(bytes);
    return ok();
  }
  std::string where() const override { return "memory"; }

 private:
  std::mutex mutex_;
  std::map<std::string, ByteBuffer> entries_;
};

TEST(RemoteCacheThreads, ParallelUploadsThenParallelHits) {
  constexpr int kAssets = 48;
  TestProject files(fs::path(KEEL_TEST_TMPDIR) / "pipeline" / "remote_threads");
  files.write("project.kproj",
              "Platform(\"PC\");\nIncludePath(\"src\");\nDataFile(\"main.kcmd\");\n");
  std::string commands;
  for (int i = 0; i < kAssets; ++i) {
    files.write(fmt::format("src/a{}.bin", i), fmt::format("asset {} {}", i, std::string(i, 'x')));
    commands += fmt::format("Blob(\"a{0}\", \"a{0}.bin\");\n", i);
  }
  files.write("main.kcmd", commands);
  HandlerRegistry handlers;
  register_builtin_handlers(handlers);
  LockedStore store;

  std::optional<Project> project = files.load();
  ASSERT_TRUE(project);
  RemoteCache writer(store, CacheMode::kReadWrite);
  {
    Builder builder(*project, handlers, {.jobs = 4, .remote_cache = &writer});
    Result<DataFileReport> r = builder.build("PC", "main.kcmd");
    ASSERT_TRUE(r && r->ok);
  }
  EXPECT_EQ(writer.stats().uploads, static_cast<u64>(kAssets));
  const Result<std::string> local = keel::read_file(files.path("build/image/PC/main.kpk"));
  ASSERT_TRUE(local);

  fs::remove_all(files.path("build"));
  project = files.load();
  ASSERT_TRUE(project);
  RemoteCache reader(store, CacheMode::kRead);
  Builder builder(*project, handlers, {.jobs = 4, .remote_cache = &reader});
  Result<DataFileReport> r = builder.build("PC", "main.kcmd");
  ASSERT_TRUE(r && r->ok);
  EXPECT_EQ(builder.outputs_created(), 0u);
  EXPECT_EQ(reader.stats().hits, static_cast<u64>(kAssets));
  const Result<std::string> fetched = keel::read_file(files.path("build/image/PC/main.kpk"));
  ASSERT_TRUE(fetched);
  EXPECT_EQ(*fetched, *local) << "the same data file, byte for byte";
}

}  // namespace
}  // namespace keel::pipeline
