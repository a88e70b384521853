// Two threads saving one file at once (issue 17): each save uses its own temporary, so the target
// is always one complete version and no temporary is left behind.
#include "keel/core/file.h"

#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <string>
#include <thread>

namespace keel {
namespace {

namespace fs = std::filesystem;

TEST(FileThreads, TwoThreadsSavingOneFileAlwaysLeaveOneCompleteVersion) {
  const fs::path dir = fs::path(KEEL_TEST_TMPDIR) / "file_thread_test";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path target = dir / "save.dat";
  // Different lengths and contents, so a mix of the two or a cut copy is recognisable.
  const std::string a = std::string(40000, 'a') + "|end of version a";
  const std::string b = std::string(25000, 'b') + "|end of version b, longer tail";
  ASSERT_TRUE(write_file_atomic(target, std::string_view(a)));

  std::atomic<int> failures{0};
  std::atomic<bool> done{false};
  auto saver = [&](const std::string& content) {
    for (int i = 0; i < 1000; ++i) {
      if (!write_file_atomic(target, std::string_view(content))) failures.fetch_add(1);
    }
  };
  std::atomic<int> torn_reads{0};
  std::thread reader([&] {
    while (!done.load()) {
      auto text = read_file(target);
      if (!text || (*text != a && *text != b)) torn_reads.fetch_add(1);
    }
  });
  std::thread first(saver, std::cref(a));
  std::thread second(saver, std::cref(b));
  first.join();
  second.join();
  done.store(true);
  reader.join();

  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(torn_reads.load(), 0);
  auto text = read_file(target);
  ASSERT_TRUE(text);
  EXPECT_TRUE(*text == a || *text == b) << "size " << text->size();
  int files = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    ++files;
    EXPECT_EQ(entry.path().filename(), "save.dat") << "left behind: " << entry.path();
  }
  EXPECT_EQ(files, 1);
}

}  // namespace
}  // namespace keel
