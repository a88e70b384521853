// Links between FSM instances (check 63, and IfLink of check 58).
#include "keel/fsm/testing/fsm_fixture.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace keel::fsm {
namespace {

using ::testing::ElementsAre;
using testing::Recorder;

// "Thrower" links to whatever FindTarget supplies; "Target" decides whether to accept.
constexpr const char* kLinksSource = R"(
FSM("Thrower", "Character")
{
    InitialState("Ready");
    State("Ready")
    {
        On("try")         CreateLink("throw", "FindTarget");
        On("try_always")  CreateLink("throw", "FindTarget", "always");
        On("try_oneway")  CreateLink("throw", "FindTarget", "oneway", "always");
        On("check")       { IfLink("throw", "-grapple") Execute("Linked"); }
        On("send")        SendEvent("throw", "event_thrown");
        On("break")       BreakLink("throw");
        On("event_reply") Execute("GotReply");
    }
}

FSM("Target", "Character")
{
    InitialState("Willing");
    State("Willing")
    {
        On("link_throw")   AcceptLink();
        On("event_thrown") { Execute("Thrown"); SendEvent("throw", "event_reply"); }
        On("unlink_throw") Execute("Unlinked");
        On("check")        { IfLink("throw") Execute("Linked"); }
        On("refuse")       Transition("Unwilling");
    }
    State("Unwilling")
    {
        On("link_throw")   Execute("Thought about it");
        On("event_thrown") Execute("Thrown");
        On("check")        { IfLink("!throw") Execute("NotLinked"); }
    }
}
)";

class FsmLinks : public ::testing::Test {
 protected:
  void SetUp() override {
    library_ = testing::load({kLinksSource}, testing::character_types());
    ASSERT_NE(library_, nullptr);
    r_.declare({"Linked", "NotLinked", "GotReply", "Thrown", "Unlinked", "Thought about it"});
    r_.declare("FindTarget", [this](FsmInstance& self) {
      r_.log.push_back("call:FindTarget");
      for (FsmInstance* t : supply_) formed_.push_back(self.create_link(*t));
    });
    ASSERT_TRUE(thrower_.init(nullptr, *library_->find("Thrower"), r_.env));
    for (FsmInstance& t : targets_) ASSERT_TRUE(t.init(nullptr, *library_->find("Target"), r_.env));
    r_.take();
  }

  bool linked(FsmInstance& i) {
    i.event("check");
    const std::vector<std::string> log = r_.take();
    return !log.empty() && log.back() == "call:Linked";
  }

  std::unique_ptr<FsmLibrary> library_;
  Recorder r_;
  FsmInstance thrower_;
  FsmInstance targets_[3];
  std::vector<FsmInstance*> supply_;
  std::vector<bool> formed_;
};

TEST_F(FsmLinks, Check63_ConsensualNotAccepted) {
  targets_[0].event("refuse");
  supply_ = {&targets_[0]};
  thrower_.event("try");
  EXPECT_THAT(r_.take(), ElementsAre("call:FindTarget", "call:Thought about it"));
  EXPECT_THAT(formed_, ElementsAre(false));
  EXPECT_FALSE(linked(thrower_));
  EXPECT_FALSE(targets_[0].has_link("throw"));
}

TEST_F(FsmLinks, Check63_ConsensualAccepted) {
  supply_ = {&targets_[0]};
  thrower_.event("try");
  EXPECT_THAT(formed_, ElementsAre(true));
  EXPECT_TRUE(linked(thrower_));
  EXPECT_TRUE(linked(targets_[0]));
}

TEST_F(FsmLinks, Check63_AlwaysSkipsTheHandshake) {
  targets_[0].event("refuse");
  supply_ = {&targets_[0]};
  thrower_.event("try_always");
  EXPECT_THAT(r_.take(), ElementsAre("call:FindTarget"));  // no link_throw was sent
  EXPECT_TRUE(linked(thrower_));
  // Even a target without any link_throw handler.
  FsmInstance deaf;
  ASSERT_TRUE(deaf.init(nullptr, *library_->find("Target"), r_.env));
  ASSERT_TRUE(thrower_.create_link(deaf, "grapple", kLinkAlways));
  EXPECT_TRUE(deaf.has_link("grapple"));
  EXPECT_FALSE(linked(thrower_));  // IfLink("throw", "-grapple"): grapple is now there
}

TEST_F(FsmLinks, Check63_TwoWayAndOneWay) {
  supply_ = {&targets_[0]};
  thrower_.event("try");
  r_.take();
  thrower_.event("send");  // reaches the target at once; its handler sends back
  EXPECT_THAT(r_.take(), ElementsAre("call:Thrown", "call:GotReply"));

  FsmInstance other;
  ASSERT_TRUE(other.init(nullptr, *library_->find("Thrower"), r_.env));
  supply_ = {&targets_[1]};
  other.event("try_oneway");
  r_.take();
  EXPECT_TRUE(other.has_link("throw"));
  EXPECT_TRUE(targets_[1].has_link("throw"));
  other.event("send");
  EXPECT_THAT(r_.take(), ElementsAre("call:Thrown"));  // the reply reaches no one
}

TEST_F(FsmLinks, Check63_Broadcast) {
  supply_ = {&targets_[0], &targets_[1], &targets_[2]};
  thrower_.event("try");
  EXPECT_THAT(formed_, ElementsAre(true, true, true));
  r_.take();
  thrower_.event("send");
  std::vector<std::string> log = r_.take();
  EXPECT_EQ(std::count(log.begin(), log.end(), "call:Thrown"), 3);
  EXPECT_EQ(std::count(log.begin(), log.end(), "call:GotReply"), 3);
  EXPECT_EQ(thrower_.links().size(), 3u);
  for (FsmInstance& t : targets_) {
    // each target sees only its link back to the creator
    EXPECT_THAT(t.links(), ElementsAre(::testing::Field(&FsmInstance::Link::other, &thrower_)));
  }
}

TEST_F(FsmLinks, Check63_ZeroTargets) {
  supply_ = {};
  thrower_.event("try");
  EXPECT_TRUE(formed_.empty());
  EXPECT_FALSE(linked(thrower_));
  EXPECT_TRUE(thrower_.links().empty());
}

TEST_F(FsmLinks, Check63_BreakLink) {
  supply_ = {&targets_[0]};
  thrower_.event("try");
  r_.take();
  thrower_.event("break");
  EXPECT_THAT(r_.take(), ElementsAre("call:Unlinked"));  // the partner hears unlink_throw
  EXPECT_FALSE(linked(thrower_));
  EXPECT_FALSE(linked(targets_[0]));

  // Broken for both even when unlink_throw is not handled.
  targets_[1].event("refuse");
  ASSERT_TRUE(thrower_.create_link(targets_[1], "throw", kLinkAlways));
  thrower_.event("break");
  EXPECT_TRUE(r_.take().empty());
  EXPECT_FALSE(targets_[1].has_link("throw"));
  EXPECT_FALSE(thrower_.has_link("throw"));

  // One-way links break without an event.
  ASSERT_TRUE(thrower_.create_link(targets_[2], "throw", kLinkAlways | kLinkOneWay));
  thrower_.event("break");
  EXPECT_TRUE(r_.take().empty());
  EXPECT_FALSE(targets_[2].has_link("throw"));
}

TEST_F(FsmLinks, Check63_ApiMisuse) {
  // The book's CreateLink(p, 0, 0) outside a CreateLink callback is refused.
  EXPECT_FALSE(thrower_.create_link(targets_[0]));
  EXPECT_TRUE(thrower_.links().empty());
  // So are an empty name, unknown flags, and linking to itself.
  EXPECT_FALSE(thrower_.create_link(targets_[0], "", kLinkAlways));
  EXPECT_FALSE(thrower_.create_link(targets_[0], "throw", 0x80));
  EXPECT_FALSE(thrower_.create_link(thrower_, "throw", kLinkAlways));
  // Consensual through the API: the target's link_throw handler accepts.
  EXPECT_TRUE(thrower_.create_link(targets_[0], "throw"));
  EXPECT_TRUE(linked(thrower_));
}

TEST_F(FsmLinks, Check58_IfLinkAllSemantics) {
  EXPECT_FALSE(linked(thrower_));  // no throw
  ASSERT_TRUE(thrower_.create_link(targets_[0], "throw", kLinkAlways));
  EXPECT_TRUE(linked(thrower_));  // throw and no grapple
  ASSERT_TRUE(thrower_.create_link(targets_[1], "grapple", kLinkAlways));
  EXPECT_FALSE(linked(thrower_));  // grapple present
  thrower_.break_link("grapple");
  EXPECT_TRUE(linked(thrower_));
}

TEST_F(FsmLinks, DestroyingAnInstanceBreaksItsLinksQuietly) {
  {
    FsmInstance temporary;
    ASSERT_TRUE(temporary.init(nullptr, *library_->find("Target"), r_.env));
    ASSERT_TRUE(thrower_.create_link(temporary, "throw", kLinkAlways));
    EXPECT_TRUE(thrower_.has_link("throw"));
  }
  EXPECT_FALSE(thrower_.has_link("throw"));
  thrower_.event("send");  // nothing dangles (ASan)
  EXPECT_TRUE(r_.take().empty());
}

}  // namespace
}  // namespace keel::fsm
