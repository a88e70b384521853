#include "keel/world/build/chain_compiler.h"

#include "keel/text/document.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace keel::world {
namespace {

struct Compiled {
  std::unique_ptr<text::Document> doc;
  text::Diagnostics diag;
  std::optional<ChainDef> chain;
};

std::unique_ptr<Compiled> compile(const std::string& source) {
  auto c = std::make_unique<Compiled>();
  c->doc = text::parse(source, "waves.kcmd", c->diag);
  EXPECT_NE(c->doc, nullptr) << c->diag.render();
  if (c->doc) c->chain = compile_chain(*c->doc->first(), c->diag);
  return c;
}

std::string first_error(const Compiled& c) {
  if (c.diag.items().empty()) return "(no error)";
  const Error& e = c.diag.items().front().error;
  return std::to_string(e.where().line) + ":" + std::to_string(e.where().column) + ": " +
         e.message();
}

// The blog's example: "spawn 10 enemies of type A; when the player defeats all, spawn 15 of
// type B; when the player defeats 5 of these, spawn the boss".
TEST(ChainCompiler, CompilesTheBlogsWaves) {
  auto c = compile(
      "Chain(\"waves\") {\n"
      "  Step(\"A\") { Start() Spawn(\"fighter\", 10); Until() Dead(all); }\n"
      "  Step(\"B\") { Start() Spawn(\"bomber\", 15, 100, -50, 200); Until() Dead(5); }\n"
      "  Step(\"boss\") { Start() { Spawn(\"boss\", 1); Call(\"boss_music\"); }\n"
      "                   Until() Dead(all); End() Call(\"victory\"); }\n"
      "  Step() { Until() Time(2.5); }\n"
      "}\n");
  ASSERT_TRUE(c->chain) << c->diag.render();
  const ChainDef& w = *c->chain;
  EXPECT_EQ(w.name, "waves");
  ASSERT_EQ(w.steps.size(), 4u);
  EXPECT_EQ(w.steps[0].start[0].name, "fighter");
  EXPECT_EQ(w.steps[0].start[0].count, 10u);
  EXPECT_FALSE(w.steps[0].start[0].at);
  EXPECT_EQ(w.steps[0].until.kind, ChainConditionKind::kDead);
  EXPECT_EQ(w.steps[0].until.count, 0u);
  const ChainAction& b = w.steps[1].start[0];
  EXPECT_TRUE(b.at);
  EXPECT_FLOAT_EQ(b.position.y, -50);
  EXPECT_FLOAT_EQ(b.spread, 200);
  EXPECT_EQ(w.steps[1].until.count, 5u);
  ASSERT_EQ(w.steps[2].start.size(), 2u);
  EXPECT_EQ(w.steps[2].start[1].kind, ChainActionKind::kCall);
  EXPECT_EQ(w.steps[2].end[0].name, "victory");
  EXPECT_EQ(w.steps[3].until.kind, ChainConditionKind::kTime);
  EXPECT_FLOAT_EQ(w.steps[3].until.seconds, 2.5f);
}

TEST(ChainCompiler, EveryErrorIsLocated) {
  const std::pair<const char*, const char*> cases[] = {
      {"Wave() { }", "2:1: a chain holds `Step` statements"},
      {"Step() { Begin() Spawn(\"a\", 1); }", "2:10: unknown part of a step `Begin`"},
      {"Step() { Start() Spawm(\"a\", 1); }", "2:18: unknown chain action `Spawm`"},
      {"Step() { Start() Spawn(\"a\", 0); }", "2:29: expected a whole number from 1"},
      {"Step() { Start() Spawn(\"a\", 1.5); }", "2:29: expected a whole number from 1"},
      {"Step() { Start() Spawn(\"a\", 2, 5); }", "2:32: `Spawn` takes a position"},
      {"Step() { Start() Spawn(\"a\", 2, 5, 5, -1); }", "2:38: a spawn spread is a radius"},
      {"Step() { Start() Spawn(a, 2); }", "2:24: `Spawn` expects a string as parameter 1"},
      {"Step() { Until() Dead(some); }", "2:23: `Dead` takes `all` or a number"},
      {"Step() { Until() Gone(all); }", "2:18: unknown chain condition `Gone`"},
      {"Step() { Until() Time(-1); }", "2:23: `Time` takes seconds"},
      {"Step() { Until() { Dead(all); Time(1); } }", "2:31: `Until` takes one condition"},
      {"Step() { Until() Dead(all); Until() Time(1); }", "2:29: a step has one end condition"},
      {"Step() { Start() Spawn(\"a\", 4); Until() Dead(5); }",
       "2:41: `Dead(5)` can never hold: the step spawns 4"},
      {"Step() { Start() Call(\"\"); }", "2:23: `Call` needs a name"},
      {"Step() { Until() Check(\"\"); }", "2:24: `Check` needs the name"},
  };
  for (const auto& [body, error] : cases) {
    auto c = compile(std::string("Chain(\"w\") {\n") + body + "\n}\n");
    EXPECT_FALSE(c->chain) << body;
    EXPECT_EQ(first_error(*c).substr(0, std::string(error).size()), error) << body;
  }
}

TEST(ChainCompiler, ChainNeedsNameBlockAndSteps) {
  EXPECT_EQ(first_error(*compile("Chain(\"w\");")).substr(0, 4), "1:1:");
  EXPECT_EQ(first_error(*compile("Chain(\"w\") { }")), "1:1: event chain `w` has no steps");
  EXPECT_EQ(first_error(*compile("Chain(\"\") { Step() { } }")).substr(0, 4), "1:7:");
}

}  // namespace
}  // namespace keel::world
