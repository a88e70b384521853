#include "keel/text/platform.h"

#include <gtest/gtest.h>

namespace keel::text {
namespace {

std::string preprocess(const std::string& source, std::string_view platform,
                       Diagnostics* out = nullptr) {
  Diagnostics diag;
  auto doc = parse(source, "cmd.txt", diag);
  EXPECT_NE(doc, nullptr) << diag.render();
  if (doc == nullptr) return "<parse error>";
  const bool ok = preprocess_platform(*doc, platform, diag);
  if (out != nullptr) *out = diag;
  if (!ok) return "<error>";
  return to_source(doc->first());
}

bool mentions_platform(const Token* t) {
  for (; t != nullptr; t = t->next) {
    if (t->is("PLATFORM") || mentions_platform(t->conditional)) return true;
  }
  return false;
}

constexpr const char* kFace =
    "Texture(\"face\")\n{\n    PLATFORM(\"PC\")    SIZE(512,512);\n"
    "    PLATFORM(\"-PC\")   SIZE(128,128);\n}\n";

TEST(TextPlatform, Check15_BookExample) {
  EXPECT_EQ(preprocess(kFace, "PC"), "Texture(\"face\") {\n  SIZE(512, 512);\n}\n");
  EXPECT_EQ(preprocess(kFace, "XBOX"), "Texture(\"face\") {\n  SIZE(128, 128);\n}\n");
  Diagnostics diag;
  auto doc = parse(kFace, "cmd.txt", diag);
  ASSERT_NE(doc, nullptr);
  ASSERT_TRUE(preprocess_platform(*doc, "pc", diag));  // case-insensitive
  EXPECT_FALSE(mentions_platform(doc->first()));
  EXPECT_EQ(doc->first()->conditional->params->as_int(), 512);
}

TEST(TextPlatform, Check16_BangExcludesLikeMinus) {
  for (const char* p : {"PC", "PS2"}) {
    EXPECT_EQ(preprocess("PLATFORM(\"!PC\") X();", p), preprocess("PLATFORM(\"-PC\") X();", p));
  }
  EXPECT_EQ(preprocess("PLATFORM(\"!PC\") X();", "PC"), "");
  EXPECT_EQ(preprocess("PLATFORM(\"!PC\") X();", "PS2"), "X();\n");
}

TEST(TextPlatform, Check17_IncludeList) {
  const char* src = "PLATFORM(\"PC\",\"XBOX\") X();";
  EXPECT_EQ(preprocess(src, "PC"), "X();\n");
  EXPECT_EQ(preprocess(src, "XBOX"), "X();\n");
  EXPECT_EQ(preprocess(src, "PS2"), "");
}

TEST(TextPlatform, Check18_BlockSpliceKeepsOrder) {
  const char* src = "A(); PLATFORM(\"PC\") { B(); C(); } D();";
  EXPECT_EQ(preprocess(src, "PC"), "A();\nB();\nC();\nD();\n");
  EXPECT_EQ(preprocess(src, "PS2"), "A();\nD();\n");
}

TEST(TextPlatform, NestedAndConditionalPositions) {
  const char* nested = "PLATFORM(\"PC\") { PLATFORM(\"-XBOX\") { A(); } B(); } C();";
  EXPECT_EQ(preprocess(nested, "PC"), "A();\nB();\nC();\n");
  EXPECT_EQ(preprocess(nested, "XBOX"), "C();\n");
  // A PLATFORM used as another command's conditional.
  const char* cond = "IF(a, equals, 1) PLATFORM(\"PC\") { X(); Y(); }";
  EXPECT_EQ(preprocess(cond, "PC"), "IF(a, equals, 1) {\n  X();\n  Y();\n}\n");
  EXPECT_EQ(preprocess(cond, "PS2"), "IF(a, equals, 1) {\n}\n");
}

TEST(TextPlatform, MalformedCommandsAreLocatedErrors) {
  for (const char* bad : {"PLATFORM() X();", "PLATFORM(PC) X();",
                          "PLATFORM(\"PC\", \"-XBOX\") X();", "PLATFORM(\"PC\");"}) {
    Diagnostics diag;
    EXPECT_EQ(preprocess(bad, "PC", &diag), "<error>") << bad;
    ASSERT_TRUE(diag.has_errors()) << bad;
    EXPECT_EQ(diag.items()[0].error.where().line, 1u);
  }
}

}  // namespace
}  // namespace keel::text
