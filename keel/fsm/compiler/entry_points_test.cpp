// Public entry points of the compiler called wrongly (issue 17, section 4): each returns an
// error or asserts with a message naming the mistake, and none crashes a release build.
#include "keel/core/testing/assert_recorder.h"
#include "keel/fsm/compiler/compiler.h"
#include "keel/fsm/compiler/fsm_type.h"
#include "keel/text/document.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace keel::fsm {
namespace {

using ::testing::HasSubstr;

// Asserts are recorded in asserts_ (keel/core/testing/assert_recorder.h), not fatal.
using EntryPoints = keel::testing::AssertRecordingTest;

TEST_F(EntryPoints, CompileEmptyInputIsAnError) {
  TypeRegistry types;
  text::Diagnostics diag;
  EXPECT_FALSE(compile(nullptr, types, diag));
  EXPECT_THAT(diag.render(), HasSubstr("no FSM(...) statement"));

  text::Diagnostics parse_diag;
  auto doc = text::parse("", "empty.fsm", parse_diag);
  ASSERT_NE(doc, nullptr);
  text::Diagnostics d2;
  EXPECT_FALSE(compile(doc->first(), types, d2));
}

TEST_F(EntryPoints, CompileWithAnEmptyTypeRegistryNamesTheType) {
  TypeRegistry types;  // the game registered nothing
  text::Diagnostics diag;
  auto doc =
      text::parse(R"(FSM("A", "Character") { InitialState("S"); State("S") {} })", "a.fsm", diag);
  ASSERT_NE(doc, nullptr);
  EXPECT_FALSE(compile(doc->first(), types, diag));
  EXPECT_THAT(diag.render(*doc), HasSubstr("Character"));
  // compile_one of a statement that is not an FSM
  text::Diagnostics d2;
  auto other = text::parse(R"(State("S") {})", "b.fsm", d2);
  ASSERT_NE(other, nullptr);
  EXPECT_FALSE(compile_one(*other->first(), types, d2));
}

TEST_F(EntryPoints, TypeRegistryMisuseAssertsAndKeepsTheFirst) {
  TypeRegistry types;
  FsmType& first = types.add("Character");
  ASSERT_TRUE(first.add_behavior("animate"));
  FsmType& again = types.add("Character");
  asserts_.expect_asserted("registered twice");
  EXPECT_EQ(&again, &first);
  EXPECT_EQ(types.size(), 1u);
  first.disable(Opcode::kEnd);
  asserts_.expect_asserted("End cannot be disabled");
  EXPECT_TRUE(first.enabled(Opcode::kEnd));
  EXPECT_FALSE(first.add_command({.name = "Transition"}));  // a built-in's name
  EXPECT_FALSE(first.add_command({.name = ""}));
  EXPECT_FALSE(first.add_behavior(""));
  EXPECT_FALSE(first.add_behavior("animate"));  // twice
}

TEST_F(EntryPoints, TypeFileErrorsAreReported) {
  TypeRegistry types;
  text::Diagnostics diag;
  EXPECT_FALSE(types.load_file("no/such/types.txt", diag));
  EXPECT_GT(diag.error_count(), 0u);
  text::Diagnostics d2;
  EXPECT_TRUE(types.add_from_text(nullptr, d2));  // an empty file describes no types
}

}  // namespace
}  // namespace keel::fsm
