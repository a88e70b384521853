// The cash machine of chapter 7 (checks 43-45) and the function dictionary (checks 45, 68).
#include "keel/fsm/testing/fsm_fixture.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace keel::fsm {
namespace {

using ::testing::ElementsAre;
using testing::Recorder;

class FsmAtm : public ::testing::Test {
 protected:
  void SetUp() override {
    library_ = testing::load({testing::read_example("atm.fsm")}, TypeRegistry());
    ASSERT_NE(library_, nullptr);
  }
  std::unique_ptr<FsmLibrary> library_;
};

TEST_F(FsmAtm, Check43_AtmTransitions) {
  Recorder r;
  FsmInstance atm;
  ASSERT_TRUE(atm.init(nullptr, *library_->find("ATM"), r.env));
  EXPECT_EQ(atm.state_name(), "Idle");
  EXPECT_EQ(atm.fsm_name(), "ATM");

  EXPECT_EQ(atm.event("event_card_inserted"), EventResult::kChangedState);
  EXPECT_EQ(atm.state_name(), "EnterPin");
  EXPECT_EQ(atm.event("event_cancel"), EventResult::kChangedState);
  EXPECT_EQ(atm.state_name(), "ReturnCard");
  EXPECT_EQ(atm.event("event_timeout"), EventResult::kChangedState);
  EXPECT_EQ(atm.state_name(), "Idle");

  // An event the state does not handle is ignored.
  EXPECT_EQ(atm.event("event_cancel"), EventResult::kNotFound);
  EXPECT_EQ(atm.state_name(), "Idle");

  ASSERT_EQ(atm.event("event_card_inserted"), EventResult::kChangedState);
  EXPECT_EQ(atm.event("event_invalidPin"), EventResult::kChangedState);
  EXPECT_EQ(atm.state_name(), "InvalidPin");
  EXPECT_EQ(atm.event("event_timeout"), EventResult::kChangedState);
  EXPECT_EQ(atm.state_name(), "EnterPin");
  EXPECT_EQ(atm.event("event_correctPin"), EventResult::kChangedState);
  EXPECT_EQ(atm.state_name(), "MainMenu");
}

TEST_F(FsmAtm, Check44_ExecuteAndBuiltInEvents) {
  Recorder r;
  r.declare({"ClearPin", "SetTimeout", "ReturnCard"});
  bool pin_ok = false;
  r.declare("RunPinEntry", [&](FsmInstance& i) {
    r.log.push_back("call:RunPinEntry");
    if (pin_ok) i.event("event_correctPin");
  });
  FsmInstance atm;
  ASSERT_TRUE(atm.init(nullptr, *library_->find("ATMWithPinEntry"), r.env));
  EXPECT_TRUE(r.take().empty());

  EXPECT_EQ(atm.event("event_card_inserted"), EventResult::kChangedState);
  EXPECT_THAT(r.take(), ElementsAre("call:ClearPin"));  // once, on entry

  EXPECT_EQ(atm.run(), EventResult::kSucceeded);
  EXPECT_EQ(atm.run(), EventResult::kSucceeded);
  EXPECT_THAT(r.take(), ElementsAre("call:RunPinEntry", "call:RunPinEntry"));

  pin_ok = true;
  EXPECT_EQ(atm.run(), EventResult::kChangedState);  // the callback's event changed state
  EXPECT_EQ(atm.state_name(), "MainMenu");
  EXPECT_THAT(r.take(), ElementsAre("call:RunPinEntry"));
  EXPECT_EQ(atm.run(), EventResult::kNotFound);  // MainMenu has no state_run
}

TEST_F(FsmAtm, Check45_FunctionDictionary) {
  Recorder r;
  int clears = 0;
  auto ClearPin = [&](FsmInstance&) { ++clears; };
  ASSERT_TRUE(KEEL_FSM_DECLARE_FUNCTION(r.functions, ClearPin));
  EXPECT_NE(r.functions.find("ClearPin"), nullptr);
  EXPECT_EQ(r.functions.name_of(string_hash("ClearPin")), "ClearPin");

  // One function under two names; both argument orders of the book.
  const FsmFunction timeout = [&](FsmInstance&) { clears += 100; };
  ASSERT_TRUE(r.functions.declare("SetTimeout", timeout));
  ASSERT_TRUE(r.functions.declare(timeout, "ReturnCard"));
  EXPECT_NE(r.functions.find("SetTimeout"), nullptr);
  EXPECT_NE(r.functions.find("ReturnCard"), nullptr);
  // A name is registered once.
  EXPECT_FALSE(r.functions.declare("ClearPin", timeout));

  // RunPinEntry is missing: init reports it, before any Execute could fail.
  FsmInstance atm;
  const Status s = atm.init(nullptr, *library_->find("ATMWithPinEntry"), r.env);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code(), ErrorCode::kNotFound);
  EXPECT_THAT(s.error().message(), ::testing::HasSubstr("'RunPinEntry'"));
  EXPECT_THAT(s.error().message(), ::testing::Not(::testing::HasSubstr("ClearPin")));
  EXPECT_FALSE(atm.initialized());

  // Every missing name at once.
  FunctionRegistry empty;
  Environment env(empty);
  const Status all = atm.init(nullptr, *library_->find("ATMWithPinEntry"), env);
  ASSERT_FALSE(all);
  for (const char* name : {"ClearPin", "RunPinEntry", "SetTimeout", "ReturnCard"}) {
    EXPECT_THAT(all.error().message(), ::testing::HasSubstr(fmt::format("'{}'", name)));
  }
  EXPECT_THAT(all.error().message(), ::testing::HasSubstr("4 functions"));

  ASSERT_TRUE(r.functions.declare("RunPinEntry", [](FsmInstance&) {}));
  ASSERT_TRUE(atm.init(nullptr, *library_->find("ATMWithPinEntry"), r.env));
  atm.event("event_card_inserted");
  EXPECT_EQ(clears, 1);
}

TEST_F(FsmAtm, Check68_ClearFunctionList) {
  FunctionRegistry functions;
  for (int i = 0; i < 100; ++i) {
    ASSERT_TRUE(
        functions.declare(fmt::format("Function{}WithALongEnoughName", i), [](FsmInstance&) {}));
  }
  ASSERT_TRUE(functions.declare("ClearPin", [](FsmInstance&) {}));
  EXPECT_NE(functions.find("ClearPin"), nullptr);
  EXPECT_GT(functions.memory_bytes(), 0u);
  functions.clear();
  EXPECT_EQ(functions.find("ClearPin"), nullptr);
  EXPECT_EQ(functions.size(), 0u);
  EXPECT_EQ(functions.memory_bytes(), 0u);  // released, not just emptied (ASan checks leaks)
  // Usable again after clearing.
  ASSERT_TRUE(functions.declare("ClearPin", [](FsmInstance&) {}));
  EXPECT_NE(functions.find("ClearPin"), nullptr);
}

TEST(FsmFunctions, UnregisteredAfterInitIsAnErrorNotACrash) {
  Recorder r;
  r.declare({"ClearPin", "RunPinEntry", "SetTimeout", "ReturnCard"});
  auto library = testing::load({testing::read_example("atm.fsm")}, TypeRegistry());
  FsmInstance atm;
  ASSERT_TRUE(atm.init(nullptr, *library->find("ATMWithPinEntry"), r.env));
  r.functions.clear();
  EXPECT_EQ(atm.event("event_card_inserted"), EventResult::kChangedState);
  EXPECT_THAT(r.take(), ElementsAre("error:function 'ClearPin' is not registered"));
}

}  // namespace
}  // namespace keel::fsm
