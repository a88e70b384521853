#include "keel/text/document.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace keel::text {
namespace {

struct Parsed {
  std::unique_ptr<Document> doc;
  Diagnostics diag;
};

Parsed parse_text(std::string source, std::string file = "test.txt") {
  Parsed p;
  p.doc = parse(std::move(source), std::move(file), p.diag);
  return p;
}

// "IF(health,lessthan,50){CHANGESCRIPT(RUNAWAY)}": a compact shape+type+text dump of a tree.
std::string shape(const Token* t) {
  std::string out;
  for (; t != nullptr; t = t->next) {
    switch (t->type) {
      case TokenType::kName: out += "N:"; break;
      case TokenType::kString: out += "S:"; break;
      case TokenType::kNumber: out += "#:"; break;
      case TokenType::kCommand: out += "C:"; break;
    }
    out += t->text;
    if (t->is_command()) {
      out += "(" + shape(t->params) + ")";
      if (t->conditional != nullptr) out += "{" + shape(t->conditional) + "}";
    }
    if (t->next != nullptr) out += " ";
  }
  return out;
}

constexpr const char* kFigure41 =
    "IF( health, lessthan, 50 )\n{\n    CHANGESCRIPT( \"RUNAWAY\" );\n}\nPAUSE(5);";

TEST(TextParser, Check1_Figure41Tree) {
  auto p = parse_text(kFigure41);
  ASSERT_NE(p.doc, nullptr) << p.diag.render();
  const Token* if_ = p.doc->first();
  ASSERT_NE(if_, nullptr);
  EXPECT_EQ(if_->type, TokenType::kCommand);
  EXPECT_EQ(if_->text, "IF");
  const Token* pause = if_->next;
  ASSERT_NE(pause, nullptr);
  EXPECT_EQ(pause->type, TokenType::kCommand);
  EXPECT_EQ(pause->text, "PAUSE");
  EXPECT_EQ(pause->next, nullptr);

  const Token* a = if_->params;
  ASSERT_EQ(if_->param_count(), 3u);
  EXPECT_EQ(a->type, TokenType::kName);
  EXPECT_EQ(a->text, "health");
  EXPECT_EQ(a->next->type, TokenType::kName);
  EXPECT_EQ(a->next->text, "lessthan");
  EXPECT_EQ(a->next->next->type, TokenType::kNumber);
  EXPECT_EQ(a->next->next->number, 50.0);
  EXPECT_EQ(a->next->next->next, nullptr);

  const Token* change = if_->conditional;
  ASSERT_NE(change, nullptr);
  EXPECT_TRUE(if_->block);
  EXPECT_EQ(change->type, TokenType::kCommand);
  EXPECT_EQ(change->text, "CHANGESCRIPT");
  EXPECT_EQ(change->next, nullptr);
  ASSERT_NE(change->params, nullptr);
  EXPECT_EQ(change->params->type, TokenType::kString);
  EXPECT_EQ(change->params->text, "RUNAWAY");  // without the quotes

  ASSERT_NE(pause->params, nullptr);
  EXPECT_EQ(pause->params->type, TokenType::kNumber);
  EXPECT_EQ(pause->params->as_int(), 5);
}

TEST(TextParser, Check2_BraceEquivalence) {
  auto braced = parse_text("IF( health, lessthan, 50 ) { CHANGESCRIPT( \"RUNAWAY\" ); }");
  auto plain = parse_text("IF( health, lessthan, 50 ) CHANGESCRIPT( \"RUNAWAY\" );");
  ASSERT_NE(braced.doc, nullptr);
  ASSERT_NE(plain.doc, nullptr);
  EXPECT_EQ(shape(braced.doc->first()), shape(plain.doc->first()));
  EXPECT_EQ(shape(plain.doc->first()), "C:IF(N:health N:lessthan #:50){C:CHANGESCRIPT(S:RUNAWAY)}");
  EXPECT_TRUE(braced.doc->first()->block);
  EXPECT_FALSE(plain.doc->first()->block);
}

TEST(TextParser, Check3_MisplacedBraceNamesFileAndLine) {
  auto p = parse_text("IF( health, lessthan, 50 )\n}", "ai/guard.txt");
  EXPECT_EQ(p.doc, nullptr);
  ASSERT_TRUE(p.diag.has_errors());
  const Error& e = p.diag.items().front().error;
  EXPECT_EQ(e.where().file, "ai/guard.txt");
  EXPECT_EQ(e.where().line, 2u);
  EXPECT_EQ(e.where().column, 1u);
  EXPECT_NE(e.to_string().find("ai/guard.txt:2:1: "), std::string::npos) << e.to_string();
}

TEST(TextParser, Check4_OpenParenWithoutName) {
  for (const char* bad : {"\"abc\"(1);", "5(1);", "F(1)(2);"}) {
    auto p = parse_text(bad);
    EXPECT_EQ(p.doc, nullptr) << bad;
    EXPECT_TRUE(p.diag.has_errors()) << bad;
  }
}

TEST(TextParser, Check5_EmptyParameters) {
  for (const char* bad : {"F(,a);", "F(a,,b);"}) {
    auto p = parse_text(bad);
    EXPECT_EQ(p.doc, nullptr) << bad;
    ASSERT_TRUE(p.diag.has_errors());
    EXPECT_NE(p.diag.items()[0].error.message().find("comma didn't have anything preceding it"),
              std::string::npos);
  }
  auto ok = parse_text("F();");
  ASSERT_NE(ok.doc, nullptr);
  EXPECT_EQ(ok.doc->first()->param_count(), 0u);
}

TEST(TextParser, Check6_NoCommandsInParameterList) {
  auto p = parse_text("F(G(1));");
  EXPECT_EQ(p.doc, nullptr);
  ASSERT_TRUE(p.diag.has_errors());
  EXPECT_NE(p.diag.items()[0].error.message().find("parameter list"), std::string::npos);
}

TEST(TextParser, Check7_CommentsAnywhere) {
  auto p = parse_text("PAUSE // wait\n(5); // done");
  ASSERT_NE(p.doc, nullptr) << p.diag.render();
  EXPECT_EQ(shape(p.doc->first()), "C:PAUSE(#:5)");
  auto s = parse_text("F(\"a // b\");");
  ASSERT_NE(s.doc, nullptr);
  EXPECT_EQ(s.doc->first()->params->text, "a // b");
}

TEST(TextParser, Check8_BothQuoteTypes) {
  auto p = parse_text("F('say \"hi\"', \"it's\");");
  ASSERT_NE(p.doc, nullptr);
  const Token* a = p.doc->first()->params;
  EXPECT_EQ(a->type, TokenType::kString);
  EXPECT_EQ(a->text, "say \"hi\"");
  EXPECT_EQ(a->next->type, TokenType::kString);
  EXPECT_EQ(a->next->text, "it's");
}

TEST(TextParser, Check9_Numbers) {
  auto p = parse_text("F(5, +5, -3.5, 1e5, 2.5E3);");
  ASSERT_NE(p.doc, nullptr) << p.diag.render();
  std::vector<double> values;
  for (const Token& t : chain(p.doc->first()->params)) {
    EXPECT_EQ(t.type, TokenType::kNumber);
    values.push_back(t.number);
  }
  EXPECT_EQ(values, (std::vector<double>{5, 5, -3.5, 1e5, 2500}));
  for (const char* bad : {"F(1.2.3);", "F(1e5e3);", "F(12abc);"}) {
    auto b = parse_text(bad);
    EXPECT_EQ(b.doc, nullptr) << bad;
  }
}

TEST(TextParser, Check9_NumberGapsDecided) {
  // Keel extends the book: a sign right after the exponent marker is part of the number.
  auto p = parse_text("F(1e-5, 2E+3);");
  ASSERT_NE(p.doc, nullptr) << p.diag.render();
  EXPECT_DOUBLE_EQ(p.doc->first()->params->number, 1e-5);
  EXPECT_DOUBLE_EQ(p.doc->first()->params->next->number, 2000.0);
  for (const char* bad : {"F(+);", "F(-);", "F(.5);", "F(1e);", "F(1e+);", "F(1.5e3.2);"}) {
    auto b = parse_text(bad);
    EXPECT_EQ(b.doc, nullptr) << bad;
  }
}

TEST(TextParser, Check10_Names) {
  auto p = parse_text("_a1_B(x_9);");
  ASSERT_NE(p.doc, nullptr);
  EXPECT_EQ(shape(p.doc->first()), "C:_a1_B(N:x_9)");
  auto b = parse_text("F(a b);");
  EXPECT_EQ(b.doc, nullptr);
}

TEST(TextParser, Check11_ConditionalChains) {
  auto p = parse_text("A(1) B(2) C(3); D();");
  ASSERT_NE(p.doc, nullptr) << p.diag.render();
  const Token* a = p.doc->first();
  EXPECT_EQ(a->text, "A");
  ASSERT_NE(a->conditional, nullptr);
  EXPECT_EQ(a->conditional->text, "B");
  ASSERT_NE(a->conditional->conditional, nullptr);
  EXPECT_EQ(a->conditional->conditional->text, "C");
  EXPECT_EQ(a->conditional->next, nullptr);
  ASSERT_NE(a->next, nullptr);
  EXPECT_EQ(a->next->text, "D");
  EXPECT_EQ(a->next->next, nullptr);
}

TEST(TextParser, Check12_UnbalancedBraces) {
  auto open = parse_text("A() {\n B();\n");
  EXPECT_EQ(open.doc, nullptr);
  ASSERT_TRUE(open.diag.has_errors());
  EXPECT_NE(open.diag.items()[0].error.message().find("never closed"), std::string::npos);
  EXPECT_EQ(open.diag.items()[0].error.where().line, 1u);  // points at the owner of the block
  auto stray = parse_text("A();\n}\n");
  EXPECT_EQ(stray.doc, nullptr);
  ASSERT_TRUE(stray.diag.has_errors());
  EXPECT_EQ(stray.diag.items()[0].error.where().line, 2u);
}

TEST(TextParser, Check13_SourceLocations) {
  auto p = parse_text(kFigure41, "scripts/guard.txt");
  ASSERT_NE(p.doc, nullptr);
  const Token* if_ = p.doc->first();
  EXPECT_EQ(if_->line, 1u);
  EXPECT_EQ(if_->column, 1u);
  EXPECT_EQ(if_->file, "scripts/guard.txt");
  EXPECT_EQ(if_->params->line, 1u);
  EXPECT_EQ(if_->params->column, 5u);
  EXPECT_EQ(if_->conditional->line, 3u);
  EXPECT_EQ(if_->conditional->column, 5u);
  EXPECT_EQ(if_->conditional->params->column, 19u);
  EXPECT_EQ(if_->next->line, 5u);
  EXPECT_EQ(if_->next->file, "scripts/guard.txt");
}

TEST(TextParser, Check14_Api) {
  std::filesystem::create_directories(KEEL_TEST_TMPDIR);
  const std::string path = std::string(KEEL_TEST_TMPDIR) + "/check14.txt";
  {
    std::ofstream f(path);
    f << kFigure41;
  }
  Diagnostics diag;
  auto doc = parse_file(path, diag);
  ASSERT_NE(doc, nullptr) << diag.render();
  EXPECT_FALSE(diag.has_errors());
  EXPECT_EQ(doc->filename(), path);
  EXPECT_EQ(doc->first()->text, "IF");
  EXPECT_EQ(doc->token_count(), 8u);  // IF health lessthan 50 CHANGESCRIPT RUNAWAY PAUSE 5
  doc.reset();                        // frees every token (ASan checks for leaks)

  Diagnostics bad;
  EXPECT_EQ(parse("F(", "x.txt", bad), nullptr);
  EXPECT_TRUE(bad.has_errors());
  Diagnostics missing;
  EXPECT_EQ(parse_file(std::string(KEEL_TEST_TMPDIR) + "/no-such-file.txt", missing), nullptr);
  ASSERT_TRUE(missing.has_errors());
  EXPECT_NE(missing.items()[0].error.where().file.find("no-such-file.txt"), std::string::npos);
}

TEST(TextParser, GapsDecided) {
  // A ';' with nothing open is an empty statement.
  auto semi = parse_text("A() { B(); };;");
  EXPECT_NE(semi.doc, nullptr) << semi.diag.render();
  // Errors: trailing comma, bare name, unfinished command, bare block, newline in string.
  for (const char* bad :
       {"F(a,);", "NAME;", "F()", "{ A(); }", "F(\"abc\n\");", "F(a) = 1;", "F(#);"}) {
    auto b = parse_text(bad);
    EXPECT_EQ(b.doc, nullptr) << bad;
  }
  // Case is kept; comparisons are case-insensitive.
  auto c = parse_text("Texture(\"x\");");
  ASSERT_NE(c.doc, nullptr);
  EXPECT_TRUE(c.doc->first()->is("TEXTURE"));
  EXPECT_FALSE(c.doc->first()->is("TEXTUR"));
  // CRLF line ends and a UTF-8 byte order mark are accepted.
  auto crlf = parse_text(
      "\xEF\xBB\xBF"
      "A();\r\nB(1);\r\n");
  ASSERT_NE(crlf.doc, nullptr) << crlf.diag.render();
  EXPECT_EQ(crlf.doc->first()->next->line, 2u);
  EXPECT_EQ(crlf.doc->first()->column, 1u);
}

TEST(TextParser, SeveralErrorsPerFile) {
  auto p = parse_text("A(1,,2);\nB();\nC(x y);\nD() { E(; F(); }\nG(1)\n", "many.txt");
  EXPECT_EQ(p.doc, nullptr);
  ASSERT_EQ(p.diag.error_count(), 4u) << p.diag.render();
  EXPECT_EQ(p.diag.items()[0].error.where().line, 1u);
  EXPECT_EQ(p.diag.items()[1].error.where().line, 3u);
  EXPECT_EQ(p.diag.items()[2].error.where().line, 4u);
  EXPECT_EQ(p.diag.items()[3].error.where().line, 5u);
}

TEST(TextParser, MaxErrorsStopsEarly) {
  std::string many;
  for (int i = 0; i < 100; ++i) many += "F(,);\n";
  Diagnostics diag;
  EXPECT_EQ(parse(many, "x", diag, ParseOptions{.max_errors = 5}), nullptr);
  EXPECT_EQ(diag.error_count(), 5u);
}

TEST(TextParser, ToSourceRoundTrips) {
  auto p = parse_text(
      "Texture(\"face\") { SIZE(512, 512); MIP(a, 'say \"x\"', -1.5); }\nIF(a, equals, 1) B() "
      "C();");
  ASSERT_NE(p.doc, nullptr);
  const std::string once = to_source(p.doc->first());
  auto again = parse_text(once);
  ASSERT_NE(again.doc, nullptr) << once;
  EXPECT_EQ(shape(again.doc->first()), shape(p.doc->first()));
  EXPECT_EQ(to_source(again.doc->first()), once);
  EXPECT_EQ(hash_tree(*again.doc->first()), hash_tree(*p.doc->first()));
}

TEST(TextParser, HashTreeSeesContentNotLayout) {
  auto a = parse_text("T(\"x\") { S(1); }");
  auto moved = parse_text("\n\n  T( \"x\" )\n{\n S( 1 ) ;\n}");
  auto changed = parse_text("T(\"x\") { S(2); }");
  auto unbraced = parse_text("T(\"x\") S(1);");
  EXPECT_EQ(hash_tree(*a.doc->first()), hash_tree(*moved.doc->first()));
  EXPECT_NE(hash_tree(*a.doc->first()), hash_tree(*changed.doc->first()));
  EXPECT_NE(hash_tree(*a.doc->first()), hash_tree(*unbraced.doc->first()));
}

TEST(TextParser, LineText) {
  auto p = parse_text("A();\r\nB();\nC();");
  ASSERT_NE(p.doc, nullptr);
  EXPECT_EQ(p.doc->line_text(1), "A();");
  EXPECT_EQ(p.doc->line_text(2), "B();");
  EXPECT_EQ(p.doc->line_text(3), "C();");
  EXPECT_EQ(p.doc->line_text(4), "");
  EXPECT_EQ(p.doc->line_text(0), "");
}

}  // namespace
}  // namespace keel::text
