#include "keel/core/file.h"

#include <gtest/gtest.h>

#include <filesystem>

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

}  // namespace
}  // namespace keel
