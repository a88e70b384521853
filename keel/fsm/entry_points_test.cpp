// Public entry points called wrongly (issue 17, section 4): each returns an error or asserts
// with a message naming the mistake, and none crashes a release build. Asserts are counted
// here instead of aborting, so the same tests run in debug (asserts on) and release.
#include "keel/core/testing/assert_recorder.h"
#include "keel/fsm/animation.h"
#include "keel/fsm/testing/fsm_fixture.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

namespace keel::fsm {
namespace {

using ::testing::HasSubstr;

// Asserts are recorded in asserts_ (keel/core/testing/assert_recorder.h), not fatal.
using EntryPoints = keel::testing::AssertRecordingTest;

constexpr const char* kEntryPointsSource = R"(
FSM("Door", "Character")
{
    InitialState("Shut");
    State("Shut") { On("open") Transition("Open"); On("state_run") Execute("Creak"); }
    State("Open") { On("shut") Transition("Shut"); }
}
)";

TEST_F(EntryPoints, InstanceBeforeInitIsInert) {
  FsmInstance i;
  EXPECT_FALSE(i.initialized());
  EXPECT_EQ(i.event("open"), EventResult::kNotFound);
  asserts_.expect_asserted("event() before init()");
  EXPECT_EQ(i.run(), EventResult::kNotFound);
  asserts_.expect_asserted("run() before init()");
  i.reset();
  asserts_.expect_asserted("reset() before init()");
  EXPECT_EQ(i.state_name(), "");
  EXPECT_EQ(i.fsm_name(), "");
  EXPECT_FALSE(i.has_behavior("animate"));
  EXPECT_FALSE(i.flag("any"));
  EXPECT_EQ(i.behavior(), 0u);
  FsmInstance other;
  EXPECT_FALSE(i.create_link(other, "grab"));
  EXPECT_FALSE(i.create_link(other));  // outside a CreateLink callback
  i.break_link("grab");
  EXPECT_FALSE(i.has_link("grab"));
  i.report_error("nobody listens");  // the inert environment logs it
}

TEST_F(EntryPoints, InstanceWithAnUnlinkedDefinitionIsRefused) {
  testing::Recorder r;
  FsmDef loose;  // never went through FsmLibrary::link()
  loose.name_string = "Loose";
  FsmInstance i;
  const Status s = i.init(nullptr, loose, r.env);
  ASSERT_FALSE(s);
  EXPECT_THAT(s.error().message(), HasSubstr("'Loose' is not linked"));
  EXPECT_FALSE(i.initialized());

  // An image added but not linked: find() does not hand it out.
  auto image = testing::compile_text(kEntryPointsSource, testing::character_types());
  ASSERT_TRUE(image);
  FsmLibrary library;
  ASSERT_TRUE(library.add(std::move(*image)));
  EXPECT_EQ(library.find("Door"), nullptr);
  EXPECT_FALSE(library.get("Door"));
}

TEST_F(EntryPoints, InstanceOfAnotherEnvironmentAndMissingFunctions) {
  auto library = testing::load({kEntryPointsSource}, testing::character_types());
  ASSERT_NE(library, nullptr);
  testing::Recorder without;  // "Creak" is not registered
  FsmInstance i;
  const Status s = i.init(nullptr, *library->find("Door"), without.env);
  ASSERT_FALSE(s);
  EXPECT_THAT(s.error().message(), HasSubstr("'Creak'"));
  EXPECT_FALSE(i.initialized());

  testing::Recorder a;
  testing::Recorder b;
  a.declare({"Creak"});
  b.declare({"Creak"});
  FsmInstance x;
  FsmInstance y;
  ASSERT_TRUE(x.init(nullptr, *library->find("Door"), a.env));
  ASSERT_TRUE(y.init(nullptr, *library->find("Door"), b.env));
  // Instances of two environments may link; each runs its handlers in its own environment.
  EXPECT_TRUE(x.create_link(y, "pair", kLinkAlways));
  EXPECT_EQ(y.run(), EventResult::kSucceeded);
  EXPECT_THAT(b.take(), ::testing::ElementsAre("call:Creak"));
  EXPECT_TRUE(a.take().empty());
  EXPECT_FALSE(x.create_link(x, "self", kLinkAlways));  // no link to itself
  EXPECT_FALSE(x.create_link(y, "", kLinkAlways));      // a link needs a name
  EXPECT_FALSE(x.create_link(y, "odd", 0x80));          // unknown flag bits
}

TEST_F(EntryPoints, EmptyInputsAreErrors) {
  EXPECT_FALSE(CompiledFsms::from_bytes({}));
  EXPECT_FALSE(CompiledFsms::from_bytes(as_bytes(std::string_view("KFS")), "three.kfsm"));
  FunctionRegistry functions;
  EXPECT_FALSE(functions.declare("", [](FsmInstance&) {}));
  EXPECT_FALSE(functions.declare("Empty", FsmFunction{}));
  EXPECT_EQ(functions.find("Empty"), nullptr);
  FsmLibrary library;
  EXPECT_TRUE(library.link());  // nothing to link is not an error
  EXPECT_EQ(library.find("anything"), nullptr);
  AnimationLibrary clips;
  EXPECT_FALSE(clips.add({.name = "none", .frame_count = 0}));  // zero sizes
  AliasTable aliases;
  EXPECT_FALSE(aliases.find(string_hash("Walk")));
}

TEST_F(EntryPoints, AnimatorWithoutClipsOrInstancesDoesNothing) {
  AnimationLibrary clips;
  AliasTable aliases;
  Animator a(clips, aliases);
  FsmInstance unstarted;
  a.update(unstarted);                                // nothing playing: no events
  a.play(unstarted, {.alias = string_hash("Walk")});  // no alias: reported, nothing starts
  EXPECT_EQ(a.clip(), nullptr);
  asserts_.clear();
}

TEST_F(EntryPoints, CommandHandlerForABuiltInOpcodeIsRefused) {
  FunctionRegistry functions;
  Environment env(functions);
  const Status s = env.set_command_handler(static_cast<u8>(Opcode::kTransition),
                                           [](auto&, auto&) { return true; });
  ASSERT_FALSE(s);
  EXPECT_THAT(s.error().message(), HasSubstr("built-in"));
  EXPECT_TRUE(env.set_command_handler(kFirstCustomOpcode, [](auto&, auto&) { return true; }));
}

TEST_F(EntryPoints, ZeroNestingDepthRefusesHandlersWithAMessage) {
  auto library = testing::load({kEntryPointsSource}, testing::character_types());
  ASSERT_NE(library, nullptr);
  testing::Recorder r;
  r.declare({"Creak"});
  r.env.set_max_depth(0);
  FsmInstance i;
  ASSERT_TRUE(i.init(nullptr, *library->find("Door"), r.env));
  i.run();
  EXPECT_THAT(r.take(), ::testing::Contains(HasSubstr("nested deeper than 0")));
}

}  // namespace
}  // namespace keel::fsm
