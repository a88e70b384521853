// Inheritance (check 60) and the load-time checks of FsmLibrary::link().
#include "keel/core/testing/alloc_counter.h"
#include "keel/fsm/testing/fsm_fixture.h"

#include <fmt/format.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace keel::fsm {
namespace {

using testing::compile_text;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::kAnimate;
using testing::kPhysics;
using testing::Recorder;

CompiledFsms compiled(const std::string& source, const TypeRegistry& types) {
  std::string errors;
  std::optional<CompiledFsms> image = compile_text(source, types, &errors);
  EXPECT_TRUE(image.has_value()) << errors;
  return image ? std::move(*image) : CompiledFsms();
}

class FsmInheritance : public ::testing::Test {
 protected:
  void SetUp() override {
    types_ = testing::character_types();
    ASSERT_TRUE(library_.add(compiled(testing::read_example("default_character.fsm"), types_)));
    r_.declare({"ChooseTarget", "FaceTarget", "DoDamage"});
  }
  // Adds `source`, links; returns the link status.
  Status add(const std::string& source) {
    if (Status s = library_.add(compiled(source, types_)); !s) return s;
    return library_.link();
  }

  TypeRegistry types_;
  FsmLibrary library_;
  Recorder r_;
};

TEST_F(FsmInheritance, Check60_ChildOverridesPerHandler) {
  // Only Attack's input_attack and keyframe_link are overridden; event_damage still comes from
  // the parent's Attack. Behaviours of the overridden state come only from the child.
  ASSERT_TRUE(add(R"(
FSM("Soldier", "Character")
{
    Parent("DefaultCharacter");
    InitialState("Stance");
    State("Attack")
    {
        Flags("strikeHappened", "userHitAttack");
        On("input_attack")  SetFlag("userHitAttack");
        On("keyframe_link") { IfFlags("userHitAttack") Transition("Attack2", "~state_exit"); }
    }
}
)"));
  FsmInstance s;
  ASSERT_TRUE(s.init(nullptr, *library_.find("Soldier"), r_.env));
  EXPECT_EQ(s.behavior(), 0x7u);  // Stance: inherited state, the parent's bits
  s.event("input_attack");
  ASSERT_EQ(s.state_name(), "Attack");
  EXPECT_EQ(s.behavior(), 0u);  // no DefaultBehavior in the child: nothing is inherited
  EXPECT_EQ(s.event("event_damage"), EventResult::kChangedState);  // through the parent state
  EXPECT_EQ(s.state_name(), "Damaged");

  const FsmDef& soldier = *library_.find("Soldier");
  const StateDef& attack = *soldier.find_state("Attack");
  EXPECT_EQ(attack.fsm, &soldier);
  ASSERT_NE(attack.parent, nullptr);
  EXPECT_EQ(attack.parent->fsm, library_.find("DefaultCharacter"));
  EXPECT_EQ(soldier.find_state("Stance")->fsm, library_.find("DefaultCharacter"));
}

TEST_F(FsmInheritance, Check60_OrphanInheritsNothing) {
  ASSERT_TRUE(add(R"(
FSM("Loner", "Character")
{
    Parent("DefaultCharacter");
    InitialState("Stance");
    State("Attack") { Orphan(); On("anim_done") Transition("Stance"); }
}
)"));
  FsmInstance s;
  ASSERT_TRUE(s.init(nullptr, *library_.find("Loner"), r_.env));
  s.event("input_attack");
  ASSERT_EQ(s.state_name(), "Attack");
  EXPECT_EQ(s.event("event_damage"), EventResult::kNotFound);
  EXPECT_EQ(s.run(), EventResult::kNotFound);  // not even state_run
  const FsmDef* loner = library_.find("Loner");
  ASSERT_NE(loner, nullptr);
  const StateDef* attack = loner->find_state("Attack");
  ASSERT_NE(attack, nullptr);
  EXPECT_EQ(attack->parent, nullptr);
  EXPECT_EQ(s.event("anim_done"), EventResult::kChangedState);
}

TEST_F(FsmInheritance, Check60_TransitionsResolveToTheMostDerivedState) {
  // The parent's Stance handler says Transition("Attack"): a Brute gets its own Attack.
  ASSERT_TRUE(add(R"(
FSM("Brute", "Character")
{
    Parent("DefaultCharacter");
    InitialState("Stance");
    DefaultBehavior("animate", "physics");
    State("Attack") { On("state_enter") SetAnimation("Smash"); }
}
)"));
  FsmInstance s;
  ASSERT_TRUE(s.init(nullptr, *library_.find("Brute"), r_.env));
  r_.take();
  EXPECT_EQ(s.event("input_attack"), EventResult::kChangedState);
  EXPECT_THAT(r_.take(), ElementsAre("anim:Smash"));
  EXPECT_EQ(s.behavior(), kAnimate | kPhysics);
  // The parent itself still plays its own Attack.
  FsmInstance d;
  ASSERT_TRUE(d.init(nullptr, *library_.find("DefaultCharacter"), r_.env));
  r_.take();
  d.event("input_attack");
  EXPECT_THAT(r_.take(), ElementsAre("call:ChooseTarget", "anim:Attack"));
}

TEST_F(FsmInheritance, Check60_PlayerExample) {
  ASSERT_TRUE(add(testing::read_example("player.fsm")));
  FsmInstance p;
  ASSERT_TRUE(p.init(nullptr, *library_.find("Player"), r_.env));
  p.event("input_attack");
  p.event("input_attack");
  ASSERT_EQ(p.event("keyframe_link"), EventResult::kChangedState);
  ASSERT_EQ(p.state_name(), "Attack2");
  EXPECT_EQ(p.event("keyframe_strike"), EventResult::kSucceeded);  // the parent's Attack2 handler
  EXPECT_TRUE(p.flag("strikeHappened"));
  p.event("input_attack");
  r_.take();
  EXPECT_EQ(p.event("keyframe_link"), EventResult::kChangedState);
  EXPECT_EQ(p.state_name(), "Attack3");
  EXPECT_THAT(r_.take(), ElementsAre("anim:Attack3"));  // ~state_exit: no exit handler anyway
  EXPECT_EQ(p.event("anim_done"), EventResult::kChangedState);
  EXPECT_EQ(p.state_name(), "Stance");
}

TEST_F(FsmInheritance, Check60_ChildWithoutInitialStateIsACompileError) {
  std::string errors;
  EXPECT_FALSE(
      compile_text(R"(FSM("C", "Character") { Parent("DefaultCharacter"); })", types_, &errors));
  EXPECT_THAT(errors, HasSubstr("FSM 'C' has no InitialState"));
}

TEST_F(FsmInheritance, Check60_LoadTimeErrors) {
  TypeRegistry types = types_;
  types.add("Vehicle").add_behavior("engine");
  // A parent of a different type.
  ASSERT_TRUE(library_.add(
      compiled(R"(FSM("Car", "Vehicle") { InitialState("Park"); State("Park") {} })", types)));
  ASSERT_TRUE(library_.add(
      compiled(R"(FSM("Robot", "Character") { Parent("Car"); InitialState("Park"); })", types)));
  // A cycle A -> B -> A.
  ASSERT_TRUE(library_.add(
      compiled(R"(FSM("A", "Character") { Parent("B"); InitialState("S"); State("S") {} }
                                       FSM("B", "Character") { Parent("A"); InitialState("S"); State("S") {} })",
               types)));
  // An initial state no FSM of the chain defines; a transition target likewise.
  ASSERT_TRUE(library_.add(compiled(
      R"(FSM("Lost", "Character") { Parent("DefaultCharacter"); InitialState("Nowhere"); })",
      types)));
  ASSERT_TRUE(library_.add(
      compiled(R"(FSM("Astray", "Character") { Parent("DefaultCharacter"); InitialState("Stance");
                                         State("Stance") { On("x") Transition("Limbo"); } })",
               types)));
  // A missing parent, and a child of a failed FSM.
  ASSERT_TRUE(library_.add(
      compiled(R"(FSM("Orphan", "Character") { Parent("Ghost"); InitialState("S"); })", types)));
  ASSERT_TRUE(library_.add(compiled(
      R"(FSM("Grandchild", "Character") { Parent("Lost"); InitialState("Stance"); })", types)));

  const Status s = library_.link();
  ASSERT_FALSE(s);
  const std::string& m = s.error().message();
  EXPECT_THAT(
      m, HasSubstr("FSM 'Robot' (type 'Character') cannot inherit from 'Car' (type 'Vehicle')"));
  EXPECT_THAT(m, HasSubstr("FSM 'A': inheritance cycle 'A' -> 'B' -> 'A'"));
  EXPECT_THAT(m, HasSubstr("FSM 'B': inheritance cycle 'B' -> 'A' -> 'B'"));
  EXPECT_THAT(
      m, HasSubstr("FSM 'Lost': initial state 'Nowhere' is not a state of 'Lost' or its parents"));
  EXPECT_THAT(
      m,
      HasSubstr(
          "FSM 'Astray', state 'Stance', handler 'x': Transition target 'Limbo' is not a state"));
  EXPECT_THAT(m, HasSubstr("FSM 'Orphan': parent FSM 'Ghost' is not loaded"));
  EXPECT_THAT(m, HasSubstr("FSM 'Grandchild': parent FSM 'Lost' could not be linked"));
  using Kind = LinkProblem::Kind;
  auto kind_of = [&](std::string_view fsm) {
    for (const LinkProblem& p : library_.problems()) {
      if (p.fsm == fsm) return p.kind;
    }
    return Kind::kInvalid;
  };
  EXPECT_EQ(library_.problems().size(), 7u);
  EXPECT_EQ(kind_of("Orphan"), Kind::kMissingParent);
  EXPECT_EQ(kind_of("Grandchild"), Kind::kParentNotLinked);
  EXPECT_EQ(kind_of("Robot"), Kind::kInvalid);
  // The good ones are linked; the bad ones are not.
  EXPECT_NE(library_.find("DefaultCharacter"), nullptr);
  EXPECT_NE(library_.find("Car"), nullptr);
  for (const char* bad : {"Robot", "A", "B", "Lost", "Astray", "Orphan", "Grandchild"}) {
    EXPECT_EQ(library_.find(bad), nullptr) << bad;
  }
  EXPECT_THAT(library_.get("Robot").error().message(), HasSubstr("loaded but not linked"));

  // Loading the missing parent later fixes its child.
  ASSERT_TRUE(library_.add(
      compiled(R"(FSM("Ghost", "Character") { InitialState("S"); State("S") {} })", types)));
  EXPECT_FALSE(library_.link());  // the other problems remain
  EXPECT_NE(library_.find("Orphan"), nullptr);
}

TEST_F(FsmInheritance, ParentCompiledWithAnotherTypeDefinitionIsRejected) {
  TypeRegistry other;
  other.add("Character").add_behaviors({"physics", "animate"});  // bits swapped
  ASSERT_TRUE(library_.add(compiled(
      R"(FSM("Swapped", "Character") { Parent("DefaultCharacter"); InitialState("Stance"); })",
      other)));
  const Status s = library_.link();
  ASSERT_FALSE(s);
  EXPECT_THAT(s.error().message(), HasSubstr("different definitions of type 'Character'"));
}

TEST_F(FsmInheritance, DuplicateNamesAcrossImages) {
  const Status s = library_.add(compiled(testing::read_example("default_character.fsm"), types_));
  ASSERT_FALSE(s);
  EXPECT_THAT(s.error().message(), HasSubstr("FSM 'DefaultCharacter' is already loaded"));
}

// A chain F0 <- F1 <- ... of `depth` FSMs, each with a few strings of its own (the state S and
// its handler come from F0: handlers are flattened, so each FSM declaring its own would cost
// memory in the depth by design).
std::string chain_source(int depth) {
  std::string s = R"(FSM("F0", "Character") { InitialState("S"); State("S") { On("e0") {} } })";
  for (int i = 1; i < depth; ++i) {
    s += fmt::format("FSM(\"F{}\", \"Character\") {{ Parent(\"F{}\"); InitialState(\"S\"); }}\n", i,
                     i - 1);
  }
  return s;
}

u64 bytes_to_link(int depth, const TypeRegistry& types) {
  FsmLibrary library;
  EXPECT_TRUE(library.add(compiled(chain_source(depth), types)));
  keel::testing::AllocationScope scope;
  EXPECT_TRUE(library.link());
  return scope.bytes();
}

// Issue 15: an 8,000-deep chain took 1 GB (each FSM copied the dictionaries of its chain).
TEST_F(FsmInheritance, ChainMemoryIsLinear) {
  const u64 short_chain = bytes_to_link(30, types_);
  const u64 long_chain = bytes_to_link(60, types_);
  EXPECT_LT(long_chain, 3 * short_chain)
      << short_chain << " bytes for 30, " << long_chain << " for 60";
  FsmLibrary library;
  ASSERT_TRUE(library.add(compiled(chain_source(60), types_)));
  ASSERT_TRUE(library.link());
  EXPECT_EQ(library.find("F59")->string(string_hash("e0")), "e0");  // a string up the chain
  EXPECT_EQ(library.find("F59")->depth, 59u);
}

TEST_F(FsmInheritance, ChainDepthLimitIsALocatedError) {
  FsmLibrary library;
  ASSERT_TRUE(library.add(compiled(chain_source(kMaxInheritanceDepth + 10), types_)));
  const Status s = library.link();
  ASSERT_FALSE(s);
  const std::string too_long = fmt::format("FSM 'F{}': inheritance chain longer than {} FSMs",
                                           kMaxInheritanceDepth, kMaxInheritanceDepth);
  EXPECT_THAT(s.error().message(), HasSubstr(too_long));
  EXPECT_NE(library.find(fmt::format("F{}", kMaxInheritanceDepth - 1)), nullptr);
  EXPECT_EQ(library.find(fmt::format("F{}", kMaxInheritanceDepth)), nullptr);
  EXPECT_EQ(library.problems().size(), 10u);
}

}  // namespace
}  // namespace keel::fsm
