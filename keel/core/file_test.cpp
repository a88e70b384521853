#include "keel/core/file.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <sys/wait.h>
#include <unistd.h>

namespace keel {
namespace {

namespace fs = std::filesystem;

// Each test gets its own directory: ctest runs tests in parallel.
fs::path scratch(const char* name) {
  const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
  fs::path dir = fs::path(KEEL_TEST_TMPDIR) / "file_test" / test->name();
  fs::create_directories(dir);
  return dir / name;
}

TEST(File, AtomicWriteReplacesContentAndLeavesNoTemporary) {
  const fs::path p = scratch("a.txt");
  ASSERT_TRUE(write_file_atomic(p, std::string_view("first")));
  ASSERT_TRUE(write_file_atomic(p, std::string_view("second")));
  auto text = read_file(p);
  ASSERT_TRUE(text);
  EXPECT_EQ(*text, "second");
  for (const auto& e : fs::directory_iterator(p.parent_path())) {
    EXPECT_EQ(e.path().string().find(".tmp."), std::string::npos) << e.path();
  }
}

TEST(File, DiscardedWriterKeepsTheOldFile) {
  const fs::path p = scratch("b.txt");
  ASSERT_TRUE(write_file_atomic(p, std::string_view("precious")));
  {
    AtomicFileWriter w;
    ASSERT_TRUE(w.open(p));
    ASSERT_TRUE(w.write("garbage", 7));
    // destroyed without commit: a crash mid-write
  }
  EXPECT_EQ(*read_file(p), "precious");
}

TEST(File, ErrorsNameThePath) {
  auto missing = read_file(scratch("does-not-exist"));
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code(), ErrorCode::kIo);
  EXPECT_NE(missing.error().to_string().find("does-not-exist"), std::string::npos);
  auto bad = write_file_atomic("/nonexistent-dir/x/y.txt", std::string_view("z"));
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().code(), ErrorCode::kIo);
}

TEST(File, ByteSpanOverloadWritesBytes) {
  const fs::path p = scratch("bytes.bin");
  const ByteBuffer bytes = to_buffer(std::string_view("\x01\x02\x03"));
  ASSERT_TRUE(write_file_atomic(p, ByteSpan(bytes)));
  EXPECT_EQ(*read_file(p), std::string_view("\x01\x02\x03"));
}

TEST(File, TemporaryNamesAreUniquePerWriter) {
  const fs::path p = scratch("two.txt");
  AtomicFileWriter first;
  AtomicFileWriter second;
  ASSERT_TRUE(first.open(p));
  ASSERT_TRUE(second.open(p));
  ASSERT_TRUE(first.write("one", 3));
  ASSERT_TRUE(second.write("two!", 4));
  ASSERT_TRUE(second.commit());
  EXPECT_EQ(*read_file(p), "two!");
  ASSERT_TRUE(first.commit());
  EXPECT_EQ(*read_file(p), "one");
  int files = 0;
  for (const auto& e : fs::directory_iterator(p.parent_path())) files += e.is_regular_file();
  EXPECT_EQ(files, 1);
}

void touch(const fs::path& p) { std::ofstream(p) << "left over"; }

// The pid of a process that has ended (forked, exited and reaped).
u32 dead_pid() {
  const pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  int status = 0;
  ::waitpid(child, &status, 0);
  return static_cast<u32>(child);
}

TEST(File, StaleTemporariesOfDeadProcessesAreRemoved) {
  const fs::path target = scratch("hs.dat");
  const fs::path dir = target.parent_path();
  fs::remove_all(dir);  // files of an earlier run (its pid is dead now) would count here
  fs::create_directories(dir);
  const std::string dead = fmt::format("hs.dat.tmp.{}.0.0badc0de", dead_pid());
  const std::string alive = fmt::format("hs.dat.tmp.{}.0.0badc0de", ::getpid());
  fs::create_directories(dir / "sub");
  touch(dir / dead);
  touch(dir / alive);
  touch(dir / ("other.dat" + dead.substr(6)));
  touch(dir / "sub" / dead);
  touch(dir / "notes.tmp.txt");
  // Only the target's own temporaries.
  EXPECT_EQ(remove_stale_temporaries_of(target), 1u);
  EXPECT_FALSE(fs::exists(dir / dead));
  EXPECT_TRUE(fs::exists(dir / alive)) << "this process is running";
  EXPECT_TRUE(fs::exists(dir / ("other.dat" + dead.substr(6))));
  // The whole folder, then its subfolders.
  EXPECT_EQ(remove_stale_temporaries(dir), 1u);
  EXPECT_TRUE(fs::exists(dir / "sub" / dead));
  EXPECT_EQ(remove_stale_temporaries(dir, true), 1u);
  EXPECT_FALSE(fs::exists(dir / "sub" / dead));
  EXPECT_TRUE(fs::exists(dir / alive));
  EXPECT_TRUE(fs::exists(dir / "notes.tmp.txt"));
}

TEST(EntryPoints, FileStaleTemporariesToleratePathsThatAreNotFolders) {
  EXPECT_EQ(remove_stale_temporaries(""), 0u);
  EXPECT_EQ(remove_stale_temporaries("/nonexistent/keel"), 0u);
  EXPECT_EQ(remove_stale_temporaries_of(""), 0u);
  EXPECT_EQ(remove_stale_temporaries_of("/nonexistent/keel/hs.dat"), 0u);
}

TEST(EntryPoints, FileFunctionsRejectEmptyPathsAndWrongOrder) {
  auto read = read_file("");
  ASSERT_FALSE(read);
  EXPECT_EQ(read.error().code(), ErrorCode::kInvalidArgument);
  EXPECT_NE(read.error().message().find("empty path"), std::string::npos);
  auto write = write_file_atomic("", std::string_view("x"));
  ASSERT_FALSE(write);
  EXPECT_EQ(write.error().code(), ErrorCode::kInvalidArgument);
  AtomicFileWriter writer;
  auto early_write = writer.write("x", 1);
  ASSERT_FALSE(early_write);
  EXPECT_NE(early_write.error().message().find("not open"), std::string::npos);
  EXPECT_FALSE(writer.commit());
  ASSERT_TRUE(writer.open(scratch("null.txt")));
  auto null_write = writer.write(nullptr, 4);
  ASSERT_FALSE(null_write);
  EXPECT_NE(null_write.error().message().find("null pointer"), std::string::npos);
  EXPECT_FALSE(writer.is_open());  // the failed write discarded the temporary
  EXPECT_FALSE(fs::exists(scratch("null.txt")));
}

}  // namespace
}  // namespace keel
