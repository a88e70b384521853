// Entry points of the text module given empty or odd input: each reports a located error or
// does nothing, and none crashes (issue 17, section 4).
#include "keel/text/diagnostics.h"
#include "keel/text/document.h"
#include "keel/text/platform.h"
#include "keel/text/signature.h"
#include "keel/text/token.h"

#include <gtest/gtest.h>

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
