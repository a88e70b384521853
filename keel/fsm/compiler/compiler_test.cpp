// The FSM language and its binary form: flags (52), off-prefixes (53), groups (59), the command
// encodings of Tables 7.1-7.3 (61), the dictionary (62) and the compiler's diagnostics.
#include "keel/fsm/testing/fsm_fixture.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <bit>

namespace keel::fsm {
namespace {

using testing::compile_text;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::kAnimate;
using testing::kControls;
using testing::kDead;
using testing::kPhysics;

// One FSM of type Character with the given body.
std::string fsm(std::string_view body, std::string_view name = "T") {
  return fmt::format("FSM(\"{}\", \"Character\")\n{{\n{}\n}}\n", name, body);
}

CompiledFsms compiled(const std::string& source) {
  std::string errors;
  std::optional<CompiledFsms> image = compile_text(source, testing::character_types(), &errors);
  EXPECT_TRUE(image.has_value()) << errors;
  return image ? std::move(*image) : CompiledFsms();
}

// Compiles expecting failure; returns the rendered diagnostics.
std::string errors_of(const std::string& source) {
  std::string errors;
  EXPECT_FALSE(compile_text(source, testing::character_types(), &errors).has_value());
  return errors;
}

std::vector<u32> handler(const CompiledFsms& image, std::string_view state,
                         std::string_view event) {
  const std::optional<StateView> s = image.fsm(0).find_state(string_hash(state));
  EXPECT_TRUE(s.has_value());
  if (!s) return {};
  const std::optional<std::span<const u32>> h = s->find_handler(string_hash(event));
  EXPECT_TRUE(h.has_value());
  if (!h) return {};
  const std::span<const u32> words = h->first(handler_length(*h));
  return std::vector<u32>(words.begin(), words.end());
}

u32 behaviors(const CompiledFsms& image, std::string_view state) {
  return image.fsm(0).find_state(string_hash(state))->behaviors();
}

constexpr u32 kEnd = make_header(Opcode::kEnd, 0);

TEST(FsmCompiler, Check52_FlagRules) {
  // 32 flags are fine, a 33rd is an error.
  std::string flags32;
  for (int i = 0; i < 32; ++i) flags32 += fmt::format("{}\"f{}\"", i == 0 ? "" : ", ", i);
  compiled(fsm(fmt::format("InitialState(\"A\"); State(\"A\") {{ Flags({}); }}", flags32)));
  const std::string too_many = errors_of(fsm(
      fmt::format("InitialState(\"A\"); State(\"A\") {{ Flags({}); Flags(\"f32\"); }}", flags32)));
  EXPECT_THAT(too_many, HasSubstr("flag 'f32' is flag number 33; a state has at most 32 flags"));

  // Declared before use.
  const std::string early = errors_of(fsm(R"(InitialState("A");
      State("A") { On("e") SetFlag("x"); Flags("x"); })"));
  EXPECT_THAT(
      early, HasSubstr("test.fsm:4:36: error: flag 'x' is used before its Flags(...) declaration"));
  EXPECT_THAT(errors_of(fsm(R"(InitialState("A"); State("A") { On("e") IfFlags("nope") End(); })")),
              HasSubstr("unknown flag 'nope'"));

  // Bits in declaration order, group-state flags first.
  const CompiledFsms image = compiled(fsm(R"(InitialState("A");
      Group("g")
      {
          GroupState() { Flags("g1", "g2"); On("e") SetFlag("g2"); }
          State("A") { Flags("s1"); Flags("s2"); On("f") SetFlag("s2", "g1"); }
      })"));
  const StateView a = *image.fsm(0).find_state(string_hash("A"));
  ASSERT_EQ(a.flag_count(), 4u);
  EXPECT_EQ(a.flag_name(0), "g1");
  EXPECT_EQ(a.flag_name(1), "g2");
  EXPECT_EQ(a.flag_name(2), "s1");
  EXPECT_EQ(a.flag_name(3), "s2");
  EXPECT_THAT(handler(image, "A", "e"),
              ElementsAre(make_header(Opcode::kSetFlag, 1, 1, 0), 0x2u, kEnd));
  EXPECT_THAT(handler(image, "A", "f"),
              ElementsAre(make_header(Opcode::kSetFlag, 1, 1, 0), 0x8u | 0x1u, kEnd));
}

TEST(FsmCompiler, Check53_OffPrefixes) {
  for (const char* prefix : {"~", "!", "-"}) {
    SCOPED_TRACE(prefix);
    const CompiledFsms image = compiled(fsm(fmt::format(R"(InitialState("A");
        DefaultBehavior("animate", "physics");
        State("A") {{ Behavior("{}animate", "controls"); }})",
                                                        prefix)));
    EXPECT_EQ(behaviors(image, "A"), kPhysics | kControls);
  }
  // DefaultBehavior lists are unified in order: on then off is off, off then on is on.
  EXPECT_EQ(behaviors(compiled(fsm(R"(InitialState("A"); DefaultBehavior("animate");
      DefaultBehavior("~animate"); State("A") {})")),
                      "A"),
            0u);
  EXPECT_EQ(behaviors(compiled(fsm(R"(InitialState("A"); DefaultBehavior("~animate");
      DefaultBehavior("animate"); State("A") {})")),
                      "A"),
            kAnimate);
  EXPECT_EQ(behaviors(compiled(fsm(R"(InitialState("A"); DefaultBehavior("dead", "!dead", "dead");
      State("A") { Behavior("-dead", "dead", "~dead"); })")),
                      "A"),
            0u);
  // Modifiers of commands take the same prefixes.
  const CompiledFsms mods = compiled(fsm(R"(InitialState("A"); State("A") {
      Flags("a", "b");
      On("x") SetFlag("a", "~b");
      On("y") SetFlag("a", "!b");
      On("z") SetFlag("a", "-b"); })"));
  EXPECT_EQ(handler(mods, "A", "x"), handler(mods, "A", "y"));
  EXPECT_EQ(handler(mods, "A", "x"), handler(mods, "A", "z"));
  // Behaviour names belong to the type.
  EXPECT_THAT(errors_of(fsm(R"(InitialState("A"); State("A") { Behavior("flying"); })")),
              HasSubstr("unknown behaviour 'flying' for FSM type 'Character' (valid: animate, "
                        "physics, controls, dead)"));
  EXPECT_THAT(errors_of(fsm(R"(InitialState("A"); DefaultBehavior("~"); State("A") {})")),
              HasSubstr("behaviour name is empty"));
}

TEST(FsmCompiler, Check59_Groups) {
  const std::string source = fsm(R"(InitialState("A");
      DefaultBehavior("animate");
      Group("alive")
      {
          GroupState()
          {
              Behavior("controls");
              On("event_death") Transition("Dead");
              On("event_hit") Transition("A");
          }
          State("A") { On("event_hit") Transition("B"); }     // its own handler wins
          Group()                                             // the name is optional
          {
              GroupState() { Behavior("physics"); }
              State("B") {}
          }
          Group("no group state") { State("C") {} }
      }
      State("Dead") {})");
  const CompiledFsms image = compiled(source);
  EXPECT_EQ(behaviors(image, "A"), kAnimate | kControls);
  EXPECT_EQ(behaviors(image, "B"), kAnimate | kControls | kPhysics);  // nested: outer + inner
  EXPECT_EQ(behaviors(image, "C"), kAnimate | kControls);
  EXPECT_EQ(behaviors(image, "Dead"), kAnimate);

  auto library = testing::load({source}, testing::character_types());
  testing::Recorder r;
  FsmInstance i;
  ASSERT_TRUE(i.init(nullptr, *library->find("T"), r.env));
  EXPECT_EQ(i.event("event_hit"), EventResult::kChangedState);
  EXPECT_EQ(i.state_name(), "B");  // A's own handler, not the group's
  EXPECT_EQ(i.event("event_hit"), EventResult::kChangedState);
  EXPECT_EQ(i.state_name(), "A");  // B inherits the outer group state's handler
  EXPECT_EQ(i.event("event_death"), EventResult::kChangedState);
  EXPECT_EQ(i.state_name(), "Dead");
  EXPECT_EQ(i.event("event_death"), EventResult::kNotFound);  // Dead is outside the group

  EXPECT_THAT(
      errors_of(fsm(R"(InitialState("A");
      Group() { State("A") {} GroupState() {} })")),
      HasSubstr("test.fsm:4:31: error: `GroupState` must be the first command of its Group block"));
  EXPECT_THAT(errors_of(fsm(R"(InitialState("A");
      Group() { GroupState() {} GroupState() {} State("A") {} })")),
              HasSubstr("second `GroupState` in one group"));
  EXPECT_THAT(errors_of(fsm(R"(InitialState("A"); GroupState() {} State("A") {})")),
              HasSubstr("`GroupState` is only valid as the first command of a Group block"));
  EXPECT_THAT(errors_of(fsm(R"(InitialState("A");
      Group() { GroupState() { Orphan(); } State("A") {} })")),
              HasSubstr("`Orphan` is not valid in a GroupState"));
}

TEST(FsmCompiler, Check61_Table71_SetFlag) {
  const CompiledFsms image = compiled(fsm(R"(InitialState("Attack");
      State("Attack")
      {
          Flags("strikeHappened", "userHitAttack");
          On("x") SetFlag("strikeHappened", "-userHitAttack");
      })"));
  const std::vector<u32> words = handler(image, "Attack", "x");
  ASSERT_EQ(words.size(), 4u);  // 3 words + the End the compiler adds
  EXPECT_EQ(words[0], 4u | 2u << 8 | 1u << 16 | 1u << 24);
  EXPECT_EQ(header_opcode(words[0]), static_cast<u8>(Opcode::kSetFlag));
  EXPECT_EQ(header_length(words[0]), 2u);
  EXPECT_EQ(header_a(words[0]), 1u);
  EXPECT_EQ(header_b(words[0]), 1u);
  EXPECT_EQ(words[1], 0x1u);
  EXPECT_EQ(words[2], 0x2u);
  EXPECT_EQ(words[3], kEnd);
}

TEST(FsmCompiler, Check61_Table72_SetAnimation) {
  const CompiledFsms image = compiled(fsm(R"(InitialState("A");
      State("A") { On("x") SetAnimation("walk", "-blending", "keepframe"); })"));
  const std::vector<u32> words = handler(image, "A", "x");
  ASSERT_EQ(words.size(), 3u);
  EXPECT_EQ(header_opcode(words[0]), static_cast<u8>(Opcode::kSetAnimation));
  EXPECT_EQ(header_length(words[0]), 1u);
  // Byte 2 holds the effective flags: repeat (default on) | keepframe; blending turned off.
  EXPECT_EQ(header_a(words[0]), 0x0Au);
  EXPECT_EQ(header_a(words[0]), u32{kAnimRepeat | kAnimKeepFrame});
  EXPECT_EQ(header_b(words[0]), 0u);
  EXPECT_EQ(words[1], string_hash("walk"));
  EXPECT_EQ(words[2], kEnd);
  // The defaults alone: blending | repeat.
  const CompiledFsms plain =
      compiled(fsm(R"(InitialState("A"); State("A") { On("x") SetAnimation("walk"); })"));
  EXPECT_EQ(header_a(handler(plain, "A", "x")[0]), u32{kAnimBlend | kAnimRepeat});
}

TEST(FsmCompiler, Check61_Table73_IfLink) {
  const CompiledFsms image = compiled(fsm(R"(InitialState("A");
      State("A")
      {
          On("x")
              IfLink("throw", "-grapple")
                  SendEvent("throw", "event_thrown");
      })"));
  const std::vector<u32> words = handler(image, "A", "x");
  ASSERT_EQ(words.size(), 7u);  // 6 words (24 bytes) + End
  EXPECT_EQ(words[0], 12u | 5u << 8 | 1u << 16 | 1u << 24);
  EXPECT_EQ(words[1], string_hash("throw"));
  EXPECT_EQ(words[2], string_hash("grapple"));
  EXPECT_EQ(words[3], 14u | 2u << 8);
  EXPECT_EQ(words[4], string_hash("throw"));
  EXPECT_EQ(words[5], string_hash("event_thrown"));
  EXPECT_EQ(words[6], kEnd);

  // The bytes in the file: little-endian, 4-byte aligned.
  const StateView a = *image.fsm(0).find_state(string_hash("A"));
  const u32 offset = a.handler_offset(0);
  const ByteBuffer bytes = image.to_bytes();
  const u8 expected[4] = {12, 5, 1, 1};  // opcode, length, active count, inactive count
  const u32 hthrow = string_hash("throw");
  for (usize i = 0; i < 4; ++i) {
    EXPECT_EQ(std::to_integer<u8>(bytes[offset * 4 + i]), expected[i]) << i;
  }
  for (usize i = 0; i < 4; ++i) {
    EXPECT_EQ(std::to_integer<u8>(bytes[offset * 4 + 4 + i]), (hthrow >> (8 * i)) & 0xFF) << i;
  }
  EXPECT_EQ(std::to_integer<u8>(bytes[offset * 4 + 12]), 14);
  EXPECT_EQ(std::to_integer<u8>(bytes[offset * 4 + 13]), 2);
}

TEST(FsmCompiler, Check61_EndAddedAndSkipLength) {
  const CompiledFsms image = compiled(fsm(R"(InitialState("A");
      State("A")
      {
          Flags("a");
          On("empty") {}
          On("explicit") { SetFlag("a"); End(); }
          On("nested") { IfFlags("a") { IfFlags("~a") SetFlag("a"); SetFlag("~a"); } SetFlag("a"); }
      })"));
  EXPECT_THAT(handler(image, "A", "empty"), ElementsAre(kEnd));
  EXPECT_THAT(handler(image, "A", "explicit"),
              ElementsAre(make_header(Opcode::kSetFlag, 1, 1, 0), 1u, kEnd));  // no second End
  const std::vector<u32> nested = handler(image, "A", "nested");
  // IfFlags(a){ IfFlags(~a){SetFlag(a)} SetFlag(~a) } SetFlag(a) End: 2 + (4 + 2) + 2 + 1
  ASSERT_EQ(nested.size(), 11u);
  EXPECT_EQ(nested[0], make_header(Opcode::kIfFlags, 7, 1, 0));
  EXPECT_EQ(nested[2], make_header(Opcode::kIfFlags, 3, 0, 1));
  // A false condition skips exactly 1 + length words: from 0 to the SetFlag after the block.
  EXPECT_EQ(nested[1 + header_length(nested[0])], make_header(Opcode::kSetFlag, 1, 1, 0));
  EXPECT_EQ(nested[2 + 1 + header_length(nested[2])], make_header(Opcode::kSetFlag, 1, 0, 1));
}

TEST(FsmCompiler, Check61_SkipsAtRunTime) {
  auto library = testing::load({fsm(R"(InitialState("A");
      State("A")
      {
          Flags("a", "b");
          On("x") { IfFlags("a") { Error("inside"); IfFlags("b") Error("deep"); } Error("after"); }
          On("set_a") SetFlag("a");
          On("set_b") SetFlag("b");
      })")},
                               testing::character_types());
  testing::Recorder r;
  FsmInstance i;
  ASSERT_TRUE(i.init(nullptr, *library->find("T"), r.env));
  i.event("x");
  EXPECT_THAT(r.take(), ElementsAre("error:after"));
  i.event("set_a");
  i.event("x");
  EXPECT_THAT(r.take(), ElementsAre("error:inside", "error:after"));
  i.event("set_b");
  i.event("x");
  EXPECT_THAT(r.take(), ElementsAre("error:inside", "error:deep", "error:after"));
}

TEST(FsmCompiler, Check62_DictionaryAndDebugStrings) {
  const CompiledFsms image = compiled(fsm(R"(InitialState("Idle");
      State("Idle") { On("event_go") { Error("went wrong"); Transition("Busy"); } }
      State("Busy") { On("state_enter") Execute("StartWork"); })",
                                          "Worker"));
  const FsmView f = image.fsm(0);
  EXPECT_EQ(f.name(), "Worker");
  EXPECT_EQ(f.type(), "Character");
  EXPECT_EQ(f.initial_state(), "Idle");
  for (const char* s : {"Worker", "Idle", "Busy", "event_go", "state_enter", "went wrong",
                        "StartWork", "Character"}) {
    EXPECT_EQ(f.lookup(string_hash(s)), std::optional<std::string_view>(s)) << s;
  }
  EXPECT_THAT(std::vector<u32>(f.functions().begin(), f.functions().end()),
              ElementsAre(string_hash("StartWork")));
  EXPECT_EQ(f.behavior_count(), 4u);
  EXPECT_EQ(f.behavior_name(2), "controls");

  auto library = testing::load({fsm(R"(InitialState("Idle");
      State("Idle") { On("event_go") Transition("Busy"); }
      State("Busy") {})",
                                    "Worker")},
                               testing::character_types());
  testing::Recorder r;
  FsmInstance i;
  ASSERT_TRUE(i.init(nullptr, *library->find("Worker"), r.env));
  EXPECT_EQ(i.fsm_name(), "Worker");
  EXPECT_EQ(i.state_name(), "Idle");
  i.event("event_go");
  EXPECT_EQ(i.state_name(), "Busy");
  EXPECT_EQ(i.state_name().data()[i.state_name().size()], '\0');  // usable as a C string
}

TEST(FsmCompiler, KeywordsAreCaseInsensitive) {
  // The book's spellings: state/State, on/On, PARENT/Parent, IFFlags, execute, ...
  const CompiledFsms image = compiled(R"(
fsm("Mixed", "Character")
{
    initialstate("A");
    DEFAULTBEHAVIOR("Animate");
    state("A")
    {
        flags("x");
        on("e") { IFFlags("x") execute("F"); setflag("x"); TRANSITION("A", "~STATE_EXIT"); }
        ON("f") setanimation("walk", "-Blending", "KeepFrame");
    }
})");
  EXPECT_EQ(behaviors(image, "A"), kAnimate);
  EXPECT_EQ(header_a(handler(image, "A", "f")[0]), u32{kAnimRepeat | kAnimKeepFrame});
  EXPECT_EQ(handler(image, "A", "e").back(), kEnd);
}

TEST(FsmCompiler, Diagnostics) {
  // Located errors a designer can act on.
  EXPECT_THAT(errors_of(R"(FSM("T", "Nope") { InitialState("A"); State("A") {} })"),
              HasSubstr("test.fsm:1:10: error: unknown FSM type 'Nope'"));
  EXPECT_THAT(errors_of(fsm(R"(State("A") {})")),
              HasSubstr("FSM 'T' has no InitialState(\"...\") (required, even with a Parent)"));
  EXPECT_THAT(errors_of(fsm(R"(InitialState("B"); State("A") {})")),
              HasSubstr("initial state 'B' is not a state of FSM 'T'"));
  EXPECT_THAT(errors_of(fsm(R"(InitialState("A"); State("A") {} State("A") {})")),
              HasSubstr("state 'A' is declared twice in this FSM (first at line 3)"));
  EXPECT_THAT(errors_of(fsm(R"(InitialState("A"); State("A") { On("x") Transition("Nowhere"); })")),
              HasSubstr("no state 'Nowhere' in this FSM (and it has no Parent)"));
  EXPECT_THAT(errors_of(fsm(R"(InitialState("A"); State("A") { On("x") {} On("x") {} })")),
              HasSubstr("a second handler for \"x\" in this state"));
  EXPECT_THAT(errors_of(fsm(R"(InitialState("A"); Orphan(); State("A") {})")),
              HasSubstr("`Orphan` is only valid inside a State block"));
  EXPECT_THAT(
      errors_of(fsm(R"(InitialState("A"); State("A") { Flags("a"); On("x") SetFlags("a"); })")),
      HasSubstr("unknown command `SetFlags`; the command is `SetFlag`"));
  EXPECT_THAT(errors_of(fsm(R"(InitialState("A"); State("A") { On("x") Execute(F); })")),
              HasSubstr("`Execute` expects a string as parameter 1, got a name"));
  EXPECT_THAT(errors_of(fsm(R"(InitialState("A"); State("A") { On("x") IfRandom("0.5") End(); })")),
              HasSubstr("`IfRandom` takes an unquoted number from 0 to 1, not a string"));
  EXPECT_THAT(errors_of(fsm(R"(InitialState("A"); State("A") { On("x") IfRandom(1.5) End(); })")),
              HasSubstr("`IfRandom` probability 1.5 is outside 0..1"));
  EXPECT_THAT(errors_of(fsm(R"(InitialState("A"); State("A") { On("x") IfRandom(0.5); })")),
              HasSubstr("`IfRandom` must be followed by a command or a { } block"));
  EXPECT_THAT(
      errors_of(fsm(R"(InitialState("A"); State("A") { On("x") SetAnimation("a", "loop"); })")),
      HasSubstr(
          "unknown `SetAnimation` modifier 'loop' (valid: blending, repeat, reverse, keepframe)"));
  EXPECT_THAT(
      errors_of(fsm(R"(InitialState("A"); State("A") { On("x") Transition("A", "exit"); })")),
      HasSubstr("unknown `Transition` modifier 'exit' (valid: state_exit)"));
  EXPECT_THAT(errors_of(fsm(
                  R"(InitialState("A"); State("A") { On("x") CreateLink("l", "F", "twoway"); })")),
              HasSubstr("unknown `CreateLink` modifier 'twoway' (valid: oneway, always)"));
  EXPECT_THAT(
      errors_of(
          R"(FSM("T", "Character") { InitialState("A"); State("A") {} } FSM("T", "Character") { InitialState("A"); State("A") {} })"),
      HasSubstr("FSM 'T' is declared twice"));
  EXPECT_THAT(errors_of(R"(State("A") {})"),
              HasSubstr("expected `FSM(\"name\", \"type\") { ... }`, got `State`"));
  EXPECT_THAT(errors_of(fsm(R"(InitialState("A"); Parent("T"); State("A") {})")),
              HasSubstr("FSM 'T' cannot be its own parent"));
  EXPECT_THAT(errors_of(fsm(R"(InitialState("A");)")),
              HasSubstr("declares no state and has no Parent"));

  // A block longer than 255 words cannot be encoded.
  std::string long_block;
  for (int i = 0; i < 130; ++i) long_block += "SendEvent(\"l\", \"e\");";
  EXPECT_THAT(
      errors_of(fsm(fmt::format(
          R"(InitialState("A"); State("A") {{ On("x") IfLink("l") {{ {} }} }})", long_block))),
      HasSubstr("`IfLink` and its block take 391 words; a command holds at most 255"));

  // Warnings do not fail the compile.
  text::Diagnostics diag;
  ASSERT_TRUE(compile_text(fsm(R"(InitialState("A");
      State("A")
      {
          Orphan();
          On("x") { Transition("A"); Execute("F"); }
          On("y") AcceptLink();
      })"),
                           testing::character_types(), nullptr, &diag));
  ASSERT_EQ(diag.warning_count(), 3u);
  EXPECT_THAT(diag.items()[0].error.message(),
              HasSubstr("`Orphan` has no effect in an FSM without a Parent"));
  EXPECT_THAT(diag.items()[1].error.message(),
              HasSubstr("`Execute` is never reached: `Transition` ends the handler"));
  EXPECT_THAT(diag.items()[2].error.message(),
              HasSubstr("`AcceptLink` only has an effect in a \"link_<name>\" handler"));
}

TEST(FsmCompiler, HashCollisionsAreReported) {
  // The rotate-left-7 hash turns a full circle every 32 characters: two characters 32 apart can
  // swap places without changing the hash.
  const std::string first = "a" + std::string(31, 'x') + "b";
  const std::string second = "b" + std::string(31, 'x') + "a";
  ASSERT_EQ(string_hash(first), string_hash(second));
  EXPECT_THAT(
      errors_of(fsm(fmt::format(
          R"(InitialState("A"); State("A") {{ On("{}") {{}} On("{}") {{}} }})", first, second))),
      HasSubstr("have the same hash"));
}

TEST(FsmCompiler, TypesControlCommands) {
  TypeRegistry types = testing::character_types();
  FsmType& t = *types.find("Character");
  t.disable(Opcode::kIfRandom);
  ASSERT_TRUE(t.add_command(
      {.name = "PlaySound", .params = {text::kString, text::kNumber}, .modifiers = {"loud"}}));
  std::string errors;
  EXPECT_FALSE(compile_text(
      fsm(R"(InitialState("A"); State("A") { On("x") IfRandom(0.5) End(); })"), types, &errors));
  EXPECT_THAT(errors, HasSubstr("`IfRandom` is not available in FSMs of type 'Character'"));
  const std::optional<CompiledFsms> image = compile_text(
      fsm(R"(InitialState("A"); State("A") { On("x") PlaySound("boom", 0.5, "loud"); })"), types,
      &errors);
  ASSERT_TRUE(image) << errors;
  const std::vector<u32> words = handler(*image, "A", "x");
  ASSERT_EQ(words.size(), 4u);
  EXPECT_EQ(words[0], make_header(kFirstCustomOpcode, 2, 1, 2));
  EXPECT_EQ(words[1], string_hash("boom"));
  EXPECT_EQ(std::bit_cast<float>(words[2]), 0.5f);
}

}  // namespace
}  // namespace keel::fsm
