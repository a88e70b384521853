// Entry points of the text module given empty or odd input: each reports a located error or
// does nothing, and none crashes (issue 17, section 4).
#include "keel/text/diagnostics.h"
#include "keel/text/document.h"
#include "keel/text/platform.h"
#include "keel/text/signature.h"
#include "keel/text/token.h"

#include "keel/core/file.h"

#include <gtest/gtest.h>

#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <memory>
#include <string>

namespace keel::text {
namespace {

TEST(EntryPoints, ParserEmptyInputs) {
  Diagnostics diag;
  std::unique_ptr<Document> empty = parse("", "empty.txt", diag);
  ASSERT_NE(empty, nullptr);
  EXPECT_EQ(empty->first(), nullptr);
  EXPECT_TRUE(diag.empty());
  std::unique_ptr<Document> blank = parse("  \n\t\r\n// only a comment\n", "blank.txt", diag);
  ASSERT_NE(blank, nullptr);
  EXPECT_EQ(blank->first(), nullptr);
  EXPECT_EQ(empty->line_text(0), "");
  EXPECT_EQ(empty->line_text(99), "");
  EXPECT_TRUE(diag.empty());
  EXPECT_EQ(parse(std::string(1, '\0'), "nul.txt", diag), nullptr);
  EXPECT_TRUE(diag.has_errors());
}

TEST(EntryPoints, ParserZeroErrorLimitAndMissingFiles) {
  Diagnostics diag;
  EXPECT_EQ(parse("A(;\nB(;\nC(;\n", "bad.txt", diag, {.max_errors = 0}), nullptr);
  EXPECT_GE(diag.error_count(), 1u);  // at least the first error is always reported
  Diagnostics missing;
  EXPECT_EQ(parse_file("/nonexistent/dir/file.txt", missing), nullptr);
  ASSERT_EQ(missing.error_count(), 1u);
  // Issue 15: /dev/zero grew to 4 GB, a FIFO blocked forever.
  Result<std::string> zero = read_source_file("/dev/zero");
  ASSERT_FALSE(zero);
  EXPECT_EQ(zero.error().code(), ErrorCode::kInvalidArgument);
  EXPECT_NE(zero.error().to_string().find("/dev/zero"), std::string::npos);
  EXPECT_NE(zero.error().message().find("not a regular file"), std::string::npos);
  const std::filesystem::path fifo =
      std::filesystem::temp_directory_path() / fmt::format("keel_text_fifo_{}", ::getpid());
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  Diagnostics from_fifo;
  EXPECT_EQ(parse_file(fifo, from_fifo), nullptr);
  EXPECT_NE(from_fifo.render().find("not a regular file"), std::string::npos);
  std::filesystem::remove(fifo);
  const std::filesystem::path big =
      std::filesystem::temp_directory_path() / fmt::format("keel_text_big_{}", ::getpid());
  ASSERT_TRUE(write_file_atomic(big, std::string_view("A(1);\nB(2);\n")));
  Result<std::string> too_big = read_source_file(big, 8);
  ASSERT_FALSE(too_big);
  EXPECT_EQ(too_big.error().code(), ErrorCode::kOutOfRange);
  EXPECT_TRUE(read_source_file(big, 12));
  std::filesystem::remove(big);
  Diagnostics dir;
  EXPECT_EQ(parse_file(std::filesystem::temp_directory_path(), dir), nullptr);
  EXPECT_EQ(dir.error_count(), 1u);
  EXPECT_FALSE(missing.render().empty());
  EXPECT_FALSE(missing.status());
}

TEST(EntryPoints, CommandChecksOnOddTokens) {
  Diagnostics diag;
  std::unique_ptr<Document> doc = parse("A(x, \"s\", 3);", "a.txt", diag);
  ASSERT_NE(doc, nullptr);
  const Token& cmd = *doc->first();
  EXPECT_EQ(cmd.param(99), nullptr);
  // A parameter token checked as if it were a command: no parameters, reported, no crash.
  EXPECT_FALSE(check_command(*cmd.params, diag, {kName}));
  EXPECT_TRUE(check_command(*cmd.params, diag, {}));
  // Variadic with no listed kinds, and a minimum above the listed count.
  EXPECT_TRUE(check_command(cmd, diag, {}, {.variadic = true}));
  EXPECT_FALSE(check_command(cmd, diag, {kName}, {.min_params = 7}));
  EXPECT_TRUE(diag.has_errors());
}

TEST(EntryPoints, PlatformPassOnEmptyDocumentsAndNames) {
  Diagnostics diag;
  std::unique_ptr<Document> empty = parse("", "e.txt", diag);
  ASSERT_NE(empty, nullptr);
  EXPECT_TRUE(preprocess_platform(*empty, "PC", diag));
  EXPECT_TRUE(preprocess_platform(*empty, "", diag, ""));
  std::unique_ptr<Document> doc = parse("PLATFORM() X();\nPLATFORM(\"PC\") Y();", "p.txt", diag);
  ASSERT_NE(doc, nullptr);
  EXPECT_FALSE(preprocess_platform(*doc, "", diag));  // the malformed one is reported, dropped
  EXPECT_TRUE(diag.has_errors());
}

}  // namespace
}  // namespace keel::text
