// What keel-fsm is made of: the simulator, the Graphviz writer and type description files.
#include "keel/fsm/compiler/dot.h"
#include "keel/fsm/compiler/simulator.h"
#include "keel/fsm/testing/fsm_fixture.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace keel::fsm {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(FsmSimulator, PrintsEveryCallbackAndTheResult) {
  auto library =
      testing::load({testing::read_example("default_character.fsm")}, testing::character_types());
  std::vector<std::string> lines;
  Simulator sim(*library->find("DefaultCharacter"),
                [&](std::string_view l) { lines.emplace_back(l); });
  ASSERT_TRUE(sim.start());
  EXPECT_THAT(lines, ElementsAre("start DefaultCharacter (Character)", "  enter Stance",
                                 "  animation Stance [blend repeat]",
                                 "  = state Stance, behaviour 0x7 [animate physics controls]"));
  lines.clear();
  EXPECT_EQ(sim.event("input_attack"), EventResult::kChangedState);
  EXPECT_THAT(lines,
              ElementsAre("> input_attack", "  Stance -> Attack", "  call ChooseTarget",
                          "  animation Attack [blend repeat]",
                          "  = changed-state, state Attack, behaviour 0x3 [animate physics]"));
  lines.clear();
  sim.event("anim_done");
  EXPECT_THAT(
      lines,
      ElementsAre("> anim_done", "  error: Attack missing strike key-frame", "  Attack -> Stance",
                  "  animation Stance [blend repeat]",
                  "  = changed-state, state Stance, behaviour 0x7 [animate physics controls]"));
  lines.clear();
  EXPECT_EQ(sim.event("nothing"), EventResult::kNotFound);
  EXPECT_THAT(lines,
              ElementsAre("> nothing", "  (no handler)",
                          "  = not-found, state Stance, behaviour 0x7 [animate physics controls]"));
}

TEST(FsmSimulator, NestedEventsAndFlagsAreShown) {
  auto library = testing::load({R"(FSM("N") { InitialState("A");
      State("A") { Flags("seen"); On("x") { SetFlag("seen"); Event("y"); } On("y") Execute("F"); } })"},
                               TypeRegistry());
  std::vector<std::string> lines;
  Simulator sim(*library->find("N"), [&](std::string_view l) { lines.emplace_back(l); });
  ASSERT_TRUE(sim.start());
  lines.clear();
  sim.event("x");
  EXPECT_THAT(lines, ElementsAre("> x", "  event y", "  call F",
                                 "  = succeeded, state A, behaviour 0x0 [], flags [seen]"));
}

TEST(FsmSimulator, EventsFile) {
  EXPECT_THAT(
      Simulator::parse_events("# a round\ninput_attack\n\n  anim_done   # done\r\n#x\nlast"),
      ElementsAre("input_attack", "anim_done", "last"));
}

TEST(FsmTypes, AutomaticTypesNumberBehavioursInOrderOfAppearance) {
  TypeRegistry tools(UnknownTypes::kAutoAssign);
  std::string errors;
  const auto image = testing::compile_text(R"(
FSM("A", "Made") { InitialState("S"); DefaultBehavior("walk"); State("S") { Behavior("~walk", "fly"); } }
FSM("B", "Made") { InitialState("S"); State("S") { Behavior("swim", "walk"); } })",
                                           tools, &errors);
  ASSERT_TRUE(image) << errors;
  for (u32 i = 0; i < 2; ++i) {  // both FSMs record the final list
    const FsmView f = image->fsm(i);
    ASSERT_EQ(f.behavior_count(), 3u);
    EXPECT_EQ(f.behavior_name(0), "walk");
    EXPECT_EQ(f.behavior_name(1), "fly");
    EXPECT_EQ(f.behavior_name(2), "swim");
  }
  EXPECT_EQ(image->find("A")->find_state(string_hash("S"))->behaviors(), 0x2u);
  EXPECT_EQ(image->find("B")->find_state(string_hash("S"))->behaviors(), 0x5u);
  // The game's registry refuses unknown types; an FSM without a type is "Untyped".
  EXPECT_FALSE(testing::compile_text(R"(FSM("A", "Made") { InitialState("S"); State("S") {} })",
                                     TypeRegistry()));
  const auto untyped = testing::compile_text(
      R"(FSM("A") { InitialState("S"); State("S") { Behavior("x"); } })", TypeRegistry(), &errors);
  ASSERT_TRUE(untyped) << errors;
  EXPECT_EQ(untyped->fsm(0).type(), "Untyped");
}

TEST(FsmTypes, TypeDescriptionFile) {
  TypeRegistry types;
  text::Diagnostics diag;
  auto doc = text::parse(R"(
Type("Character") { Behaviors("animate", "physics", "controls", "dead"); }
Type("Spell")
{
    Behaviors("glow");
    RunEvent("tick");
    Disable("CreateLink", "IfRandom");
    Command("PlaySound", "string") { Modifiers("loud", "looping"); }
    Command("IfMana", "number") { Block(); }
}
)",
                         "types.txt", diag);
  ASSERT_TRUE(doc);
  ASSERT_TRUE(types.add_from_text(doc->first(), diag)) << diag.render(*doc);
  EXPECT_EQ(types.find("Character")->behavior_bit("dead"), 0x8u);
  const FsmType& spell = *types.find("Spell");
  EXPECT_EQ(spell.run_event(), "tick");
  EXPECT_FALSE(spell.enabled(Opcode::kIfRandom));
  EXPECT_TRUE(spell.enabled(Opcode::kTransition));
  ASSERT_NE(spell.find_command("playsound"), nullptr);
  EXPECT_EQ(spell.find_command("PlaySound")->opcode, kFirstCustomOpcode);
  EXPECT_EQ(spell.find_command("PlaySound")->modifiers.size(), 2u);
  EXPECT_TRUE(spell.find_command("IfMana")->has_block);

  auto bad = text::parse(
      R"(Type("X") { Behaviors("a", "a"); Disable("End"); Command("Transition"); Fly(); })",
      "bad.txt", diag);
  ASSERT_TRUE(bad);
  EXPECT_FALSE(types.add_from_text(bad->first(), diag));
  const std::string rendered = diag.render(*bad);
  EXPECT_THAT(rendered, HasSubstr("type 'X' already has behaviour 'a'"));
  EXPECT_THAT(rendered, HasSubstr("'End' is not a built-in command that can be disabled"));
  EXPECT_THAT(rendered, HasSubstr("'Transition' is a built-in FSM command"));
  EXPECT_THAT(rendered, HasSubstr("unknown command `Fly` in a Type block"));
}

TEST(FsmDot, StatesTransitionsAndGroups) {
  text::Diagnostics diag;
  auto doc = text::parse(R"(
FSM("G", "Character")
{
    InitialState("A");
    Group("alive")
    {
        GroupState() { On("event_death") Transition("Dead"); }
        State("A") { Flags("f"); On("go") { IfFlags("f") Transition("B", "~state_exit"); } }
        Group() { State("B") { On("back") Transition("A"); } }
    }
    State("Dead") {}
}
)",
                         "g.fsm", diag);
  ASSERT_TRUE(doc);
  const std::string dot = to_dot(doc->first());
  EXPECT_THAT(dot, HasSubstr("subgraph cluster_f0 {"));
  EXPECT_THAT(dot, HasSubstr("subgraph cluster_f0_g0 {"));
  EXPECT_THAT(dot, HasSubstr("label=\"alive\"; style=dashed;"));
  EXPECT_THAT(dot, HasSubstr("subgraph cluster_f0_g1 {"));
  EXPECT_THAT(dot, HasSubstr("\"f0:group0\" [label=\"GroupState\""));
  EXPECT_THAT(dot, HasSubstr("\"f0:group0\" -> \"f0:Dead\" [label=\"event_death\"];"));
  EXPECT_THAT(dot, HasSubstr("\"f0:A\" -> \"f0:B\" [label=\"go ? (no exit)\", style=dashed];"));
  EXPECT_THAT(dot, HasSubstr("\"f0:B\" -> \"f0:A\" [label=\"back\"];"));
  EXPECT_THAT(dot, HasSubstr("\"f0:start\" -> \"f0:A\";"));
  // Balanced braces: a valid graph.
  EXPECT_EQ(std::count(dot.begin(), dot.end(), '{'), std::count(dot.begin(), dot.end(), '}'));
}

}  // namespace
}  // namespace keel::fsm
