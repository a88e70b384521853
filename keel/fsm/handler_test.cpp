// Handler semantics at run time: ChangeBehavior (54), control flow (55), state_exit (56),
// IfRandom (57), IfFlags (58), FSMRESULT (67) and the re-entrancy rules the book leaves open.
#include "keel/fsm/testing/fsm_fixture.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace keel::fsm {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::kAnimate;
using testing::kControls;
using testing::kPhysics;
using testing::Recorder;

// Compiles `body` as FSM "T" (type Character), registers `functions` (logging) and inits.
class FsmHandlers : public ::testing::Test {
 protected:
  void start(std::string_view body, std::initializer_list<std::string_view> functions = {}) {
    library_ = testing::load({fmt::format("FSM(\"T\", \"Character\") {{ {} }}", body)},
                             testing::character_types());
    ASSERT_NE(library_, nullptr);
    r_.declare(functions);
    ASSERT_TRUE(i_.init(nullptr, *library_->find("T"), r_.env));
  }

  std::unique_ptr<FsmLibrary> library_;
  Recorder r_;
  FsmInstance i_;
};

TEST_F(FsmHandlers, Check54_ChangeBehavior) {
  start(R"(InitialState("A"); DefaultBehavior("animate", "physics");
      State("A") { On("state_enter") ChangeBehavior("~physics", "controls");
                   On("more") ChangeBehavior("physics");
                   On("go") Transition("B"); }
      State("B") { On("go") Transition("A"); })");
  EXPECT_EQ(i_.behavior(), kAnimate | kControls);
  EXPECT_EQ(i_.event("more"), EventResult::kSucceeded);
  EXPECT_EQ(i_.behavior(), kAnimate | kControls | kPhysics);
  EXPECT_EQ(i_.state().behaviors, kAnimate | kPhysics);  // the state's own bits are unchanged
  EXPECT_EQ(i_.event("go"), EventResult::kChangedState);
  EXPECT_EQ(i_.behavior(), kAnimate | kPhysics);  // lost on transition
  i_.event("go");
  EXPECT_EQ(i_.behavior(), kAnimate | kControls);  // A's state_enter applies again
}

TEST_F(FsmHandlers, Check55_HandlerControlFlow) {
  r_.declare("Jump", [](FsmInstance& i) { i.event("go"); });
  start(R"(InitialState("A");
      State("A")
      {
          On("x") { Transition("B"); Execute("F"); }
          On("end") { Execute("F"); End(); Execute("G"); }
          On("nested_end") { IfRandom(1.0) { End(); } Execute("G"); }
          On("ev") { Event("y"); Execute("G"); }
          On("y") Execute("F");
          On("cb") { Execute("Jump"); Execute("G"); }
          On("go") Transition("B");
      }
      State("B") { On("back") Transition("A"); })",
        {"F", "G"});
  EXPECT_EQ(i_.event("end"), EventResult::kSucceeded);
  EXPECT_THAT(r_.take(), ElementsAre("call:F"));
  EXPECT_EQ(i_.event("nested_end"), EventResult::kSucceeded);  // End inside a block ends it all
  EXPECT_THAT(r_.take(), ElementsAre());
  EXPECT_EQ(i_.event("ev"), EventResult::kSucceeded);
  EXPECT_THAT(r_.take(), ElementsAre("call:F"));          // y ran, G did not
  EXPECT_EQ(i_.event("cb"), EventResult::kChangedState);  // the callback's event transitioned
  EXPECT_EQ(i_.state_name(), "B");
  EXPECT_THAT(r_.take(), ElementsAre());  // G after the Execute never ran
  i_.event("back");
  EXPECT_EQ(i_.event("x"), EventResult::kChangedState);
  EXPECT_THAT(r_.take(), ElementsAre());  // F after Transition never ran
}

TEST_F(FsmHandlers, Check56_StateExitModifier) {
  start(R"(InitialState("A");
      State("A") { On("state_exit") Execute("ExitA"); On("go") Transition("B");
                   On("skip") Transition("B", "~state_exit"); On("on") Transition("B", "state_exit"); }
      State("B") { On("state_enter") Execute("EnterB"); On("back") Transition("A", "!state_exit"); })",
        {"ExitA", "EnterB"});
  EXPECT_EQ(i_.event("go"), EventResult::kChangedState);
  EXPECT_THAT(r_.take(), ElementsAre("call:ExitA", "call:EnterB"));  // exit(old), then enter(new)
  i_.event("back");
  EXPECT_EQ(i_.event("skip"), EventResult::kChangedState);
  EXPECT_THAT(r_.take(), ElementsAre("call:EnterB"));
  i_.event("back");
  i_.event("on");
  EXPECT_THAT(r_.take(), ElementsAre("call:ExitA", "call:EnterB"));
}

TEST_F(FsmHandlers, Check57_IfRandom) {
  start(R"(InitialState("A");
      State("A") { On("never") IfRandom(0.0) Execute("F");
                   On("always") IfRandom(1.0) Execute("F");
                   On("quarter") IfRandom(0.25) Execute("F"); })",
        {"F"});
  int calls = 0;
  ASSERT_TRUE(r_.functions.declare("Count", [&](FsmInstance&) { ++calls; }));
  for (int n = 0; n < 1000; ++n) i_.event("never");
  EXPECT_TRUE(r_.take().empty());
  for (int n = 0; n < 1000; ++n) i_.event("always");
  EXPECT_EQ(r_.take().size(), 1000u);
  r_.env.random().seed(12345);
  for (int n = 0; n < 100000; ++n) i_.event("quarter");
  const double share = static_cast<double>(r_.take().size()) / 100000.0;
  EXPECT_NEAR(share, 0.25, 0.005);
  // Seeded: the same seed gives the same run.
  r_.env.random().seed(7);
  for (int n = 0; n < 64; ++n) i_.event("quarter");
  const usize first = r_.take().size();
  r_.env.random().seed(7);
  for (int n = 0; n < 64; ++n) i_.event("quarter");
  EXPECT_EQ(r_.take().size(), first);
}

TEST_F(FsmHandlers, Check58_IfFlagsAllSemantics) {
  start(R"(InitialState("A");
      State("A") { Flags("a", "b");
                   On("test") IfFlags("a", "~b") Execute("F");
                   On("a") SetFlag("a"); On("b") SetFlag("b"); On("clear") SetFlag("-a", "-b"); })",
        {"F"});
  auto runs = [&] {
    i_.event("test");
    return !r_.take().empty();
  };
  EXPECT_FALSE(runs());  // a clear
  i_.event("a");
  EXPECT_TRUE(runs());  // a set, b clear
  i_.event("b");
  EXPECT_FALSE(runs());  // b set
  i_.event("clear");
  i_.event("b");
  EXPECT_FALSE(runs());  // only b
}

TEST_F(FsmHandlers, Check67_EventResults) {
  r_.declare("Leave", [](FsmInstance& i) { i.event("go"); });
  start(R"(InitialState("A");
      State("A") { On("stay") Execute("F"); On("go") Transition("B");
                   On("by_callback") Execute("Leave"); On("by_event") Event("go"); }
      State("B") { On("back") Transition("A"); })",
        {"F"});
  EXPECT_EQ(i_.event("unknown"), EventResult::kNotFound);
  EXPECT_EQ(i_.event("stay"), EventResult::kSucceeded);
  EXPECT_EQ(i_.event("go"), EventResult::kChangedState);
  i_.event("back");
  EXPECT_EQ(i_.event("by_callback"), EventResult::kChangedState);
  i_.event("back");
  EXPECT_EQ(i_.event("by_event"), EventResult::kChangedState);
  EXPECT_EQ(to_string(EventResult::kChangedState), "changed-state");
}

// ---- The book's open questions (spec B.8 item 17), as decided in README.md ----

TEST_F(FsmHandlers, TransitionInsideStateExitIsIgnored) {
  start(R"(InitialState("A");
      State("A") { On("state_exit") { Transition("C"); } On("go") Transition("B"); }
      State("B") {} State("C") {})");
  EXPECT_EQ(i_.event("go"), EventResult::kChangedState);
  EXPECT_EQ(i_.state_name(), "B");
}

TEST_F(FsmHandlers, TransitionInsideStateEnterChains) {
  start(R"(InitialState("A");
      State("A") { On("go") Transition("B"); }
      State("B") { On("state_enter") Transition("C"); On("state_exit") Execute("ExitB"); }
      State("C") { On("state_enter") Execute("EnterC"); })",
        {"ExitB", "EnterC"});
  EXPECT_EQ(i_.event("go"), EventResult::kChangedState);
  EXPECT_EQ(i_.state_name(), "C");
  EXPECT_THAT(r_.take(), ElementsAre("call:ExitB", "call:EnterC"));
}

TEST_F(FsmHandlers, LoopsStopAtTheNestingLimit) {
  start(R"(InitialState("A");
      State("A") { On("ping") Event("pong"); On("pong") Event("ping"); On("go") Transition("B"); }
      State("B") { On("state_enter") Transition("C"); }
      State("C") { On("state_enter") Transition("B"); })");
  r_.env.set_max_depth(16);
  EXPECT_EQ(i_.event("ping"), EventResult::kSucceeded);
  EXPECT_THAT(r_.take(), ElementsAre(HasSubstr("handlers nested deeper than 16")));
  i_.event("go");  // B and C enter each other until the limit
  const std::vector<std::string> log = r_.take();
  ASSERT_EQ(log.size(), 1u);
  EXPECT_THAT(log[0], HasSubstr("nested deeper"));
  EXPECT_TRUE(i_.state_name() == "B" || i_.state_name() == "C");
  EXPECT_EQ(i_.event("state_enter"), EventResult::kChangedState);  // still usable
}

TEST_F(FsmHandlers, CustomCommands) {
  TypeRegistry types = testing::character_types();
  FsmType& t = *types.find("Character");
  const u8 sound =
      *t.add_command({.name = "PlaySound", .params = {text::kString}, .modifiers = {"loud"}});
  const u8 if_health =
      *t.add_command({.name = "IfHealthBelow", .params = {text::kNumber}, .has_block = true});
  std::string errors;
  auto image = testing::compile_text(R"(FSM("T", "Character") { InitialState("A");
      State("A") { On("hit") { PlaySound("ouch", "loud"); IfHealthBelow(0.5) PlaySound("gasp"); PlaySound("end"); } } })",
                                     types, &errors);
  ASSERT_TRUE(image) << errors;
  FsmLibrary library;
  ASSERT_TRUE(library.add(std::move(*image)));
  ASSERT_TRUE(library.link());
  float health = 1.0f;
  std::vector<std::string> played;
  ASSERT_TRUE(r_.env.set_command_handler(sound, [&](FsmInstance& i, const CommandCall& c) {
    played.push_back(std::string(i.fsm().string(c.hash(0))) + (c.modifier(0) ? "!" : ""));
    return true;
  }));
  ASSERT_TRUE(r_.env.set_command_handler(
      if_health, [&](FsmInstance&, const CommandCall& c) { return health < c.number(0); }));
  FsmInstance i;
  ASSERT_TRUE(i.init(nullptr, *library.find("T"), r_.env));
  i.event("hit");
  health = 0.25f;
  i.event("hit");
  EXPECT_THAT(played, ElementsAre("ouch!", "end", "ouch!", "gasp", "end"));
}

}  // namespace
}  // namespace keel::fsm
