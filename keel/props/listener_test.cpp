#include "keel/props/container.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace keel::props {
namespace {

// Check 25: a callback whose owner was destroyed is skipped and removed; two callbacks on one
// property are both called.
TEST(PropsListeners, Check25_DeadOwnerSkippedAndRemovedTwoCallbacksBothCalled) {
  PropertyContainer props;
  ASSERT_TRUE(props.req<int>("hp", 100));
  std::vector<std::pair<int, int>> first;
  std::vector<std::pair<int, int>> second;
  auto owner_a = std::make_shared<int>(1);
  auto owner_b = std::make_shared<int>(2);
  ASSERT_TRUE(props.listen<int>("hp", owner_a,
                                [&](const int& o, const int& n) { first.emplace_back(o, n); }));
  ASSERT_TRUE(props.listen<int>("hp", owner_b,
                                [&](const int& o, const int& n) { second.emplace_back(o, n); }));
  EXPECT_EQ(props.listener_count("hp"), 2u);

  ASSERT_TRUE(props.set<int>("hp", 90));
  EXPECT_EQ(first, (std::vector<std::pair<int, int>>{{100, 90}}));
  EXPECT_EQ(second, (std::vector<std::pair<int, int>>{{100, 90}}));

  owner_a.reset();  // the first listener's owner dies
  ASSERT_TRUE(props.set<int>("hp", 80));
  EXPECT_EQ(first.size(), 1u);  // skipped
  EXPECT_EQ(second, (std::vector<std::pair<int, int>>{{100, 90}, {90, 80}}));
  EXPECT_EQ(props.listener_count("hp"), 1u);  // removed
}

// The seed's model: the callback object itself is held weakly.
class CopyCallback {
 public:
  explicit CopyCallback(int& target) : target_(target) {}
  void operator()(const int& /*old_value*/, const int& new_value) const { target_ = new_value; }

 private:
  int& target_;
};

TEST(PropsListeners, Check25_WeaklyHeldCallbackObject) {
  PropertyContainer props;
  ASSERT_TRUE(props.req<int>("my_int", 0));
  int copied = 110;
  auto callback = std::make_shared<CopyCallback>(copied);
  ASSERT_TRUE(props.listen<int>("my_int", std::weak_ptr<CopyCallback>(callback)));
  ASSERT_TRUE(props.set<int>("my_int", 120));
  EXPECT_EQ(copied, 120);
  callback.reset();
  ASSERT_TRUE(props.set<int>("my_int", 130));
  EXPECT_EQ(copied, 120);
  EXPECT_EQ(props.listener_count("my_int"), 0u);
}

TEST(PropsListeners, SubscriptionTokenUnsubscribesOnDestruction) {
  PropertyContainer props;
  ASSERT_TRUE(props.set<std::string>("name", "a"));
  std::vector<std::string> log;
  {
    auto sub = props.subscribe<std::string>(
        "name", [&](const std::string& o, const std::string& n) { log.push_back(o + ">" + n); });
    ASSERT_TRUE(sub);
    EXPECT_TRUE(sub->active());
    ASSERT_TRUE(props.set<std::string>("name", "b"));
  }
  ASSERT_TRUE(props.set<std::string>("name", "c"));
  EXPECT_EQ(log, (std::vector<std::string>{"a>b"}));
  EXPECT_EQ(props.listener_count("name"), 0u);

  auto sub = props.subscribe<std::string>("name", [&](const auto&, const auto&) { log.clear(); });
  ASSERT_TRUE(sub);
  sub->reset();
  EXPECT_FALSE(sub->active());
  ASSERT_TRUE(props.set<std::string>("name", "d"));
  EXPECT_EQ(log.size(), 1u);
}

TEST(PropsListeners, TokenMayOutliveContainer) {
  Subscription keep;
  {
    PropertyContainer props;
    ASSERT_TRUE(props.set<int>("x", 1));
    auto sub = props.subscribe<int>("x", [](const int&, const int&) {});
    ASSERT_TRUE(sub);
    keep = std::move(*sub);
  }
  EXPECT_TRUE(keep.active());
  keep.reset();
}

TEST(PropsListeners, CalledAfterTheWriteInRegistrationOrder) {
  PropertyContainer props;
  ASSERT_TRUE(props.set<int>("x", 1));
  std::vector<std::string> order;
  ASSERT_TRUE(props.listen<int>("x", [&](const int& o, const int& n) {
    order.push_back("A " + std::to_string(o) + "->" + std::to_string(n) + " stored " +
                    std::to_string(props.get<int>("x").value()));
  }));
  ASSERT_TRUE(props.listen<int>(
      "x", [&](const int&, const int& n) { order.push_back("B " + std::to_string(n)); }));
  ASSERT_TRUE(props.set<int>("x", 2));
  ASSERT_TRUE(props.set<int>("x", 2));  // every write notifies, equal or not
  EXPECT_EQ(order, (std::vector<std::string>{"A 1->2 stored 2", "B 2", "A 2->2 stored 2", "B 2"}));
}

TEST(PropsListeners, MoveOnlyCallablesAreAccepted) {
  PropertyContainer props;
  ASSERT_TRUE(props.set<int>("x", 0));
  auto sink = std::make_unique<int>(0);
  int* seen = sink.get();
  ASSERT_TRUE(props.listen<int>(
      "x", [owned = std::move(sink)](const int&, const int& n) mutable { *owned = n; }));
  ASSERT_TRUE(props.set<int>("x", 42));
  EXPECT_EQ(*seen, 42);
}

TEST(PropsListeners, ListenErrors) {
  PropertyContainer props;
  auto missing = props.listen<int>("nope", [](const int&, const int&) {});
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code(), ErrorCode::kNotFound);
  ASSERT_TRUE(props.set<int>("x", 1));
  auto wrong = props.listen<float>("x", [](const float&, const float&) {});
  ASSERT_FALSE(wrong);
  EXPECT_EQ(wrong.error().code(), ErrorCode::kTypeMismatch);
  EXPECT_EQ(props.unlisten("x", 12345).error().code(), ErrorCode::kNotFound);
  EXPECT_EQ(props.unlisten("nope", 1).error().code(), ErrorCode::kNotFound);
}

TEST(PropsListeners, UnlistenStopsCalls) {
  PropertyContainer props;
  ASSERT_TRUE(props.set<int>("x", 1));
  int calls = 0;
  auto id = props.listen<int>("x", [&](const int&, const int&) { ++calls; });
  ASSERT_TRUE(id);
  ASSERT_TRUE(props.set<int>("x", 2));
  ASSERT_TRUE(props.unlisten("x", *id));
  ASSERT_TRUE(props.set<int>("x", 3));
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(props.listener_count("x"), 0u);
  EXPECT_FALSE(props.unlisten("x", *id));
}

TEST(PropsListeners, RemovingItselfInsideTheCallbackIsSafe) {
  PropertyContainer props;
  ASSERT_TRUE(props.set<int>("x", 0));
  int self_calls = 0;
  int other_calls = 0;
  ListenerId self = 0;
  auto big = std::make_shared<std::vector<int>>(1000, 7);  // ASan sees a use after free
  auto id = props.listen<int>("x", [&, big](const int&, const int&) {
    ++self_calls;
    EXPECT_TRUE(props.unlisten("x", self));
    EXPECT_EQ(big->at(999), 7);  // captures still alive after unlisten
  });
  ASSERT_TRUE(id);
  self = *id;
  big.reset();
  ASSERT_TRUE(props.listen<int>("x", [&](const int&, const int&) { ++other_calls; }));
  ASSERT_TRUE(props.set<int>("x", 1));
  ASSERT_TRUE(props.set<int>("x", 2));
  EXPECT_EQ(self_calls, 1);
  EXPECT_EQ(other_calls, 2);
  EXPECT_EQ(props.listener_count("x"), 1u);
}

TEST(PropsListeners, RemovingAnotherListenerInsideACallbackSkipsIt) {
  PropertyContainer props;
  ASSERT_TRUE(props.set<int>("x", 0));
  int second_calls = 0;
  ListenerId second = 0;
  ASSERT_TRUE(
      props.listen<int>("x", [&](const int&, const int&) { (void)props.unlisten("x", second); }));
  second = props.listen<int>("x", [&](const int&, const int&) { ++second_calls; }).value();
  ASSERT_TRUE(props.set<int>("x", 1));
  EXPECT_EQ(second_calls, 0);
  EXPECT_EQ(props.listener_count("x"), 1u);
}

TEST(PropsListeners, AddingListenersInsideACallbackIsSafe) {
  PropertyContainer props;
  ASSERT_TRUE(props.set<int>("x", 0));
  int added_calls = 0;
  ASSERT_TRUE(props.listen<int>("x", [&](const int&, const int&) {
    // Enough entries to make the listener vector reallocate under the running callback.
    for (int i = 0; i < 32; ++i) {
      ASSERT_TRUE(props.listen<int>("x", [&](const int&, const int&) { ++added_calls; }));
    }
  }));
  ASSERT_TRUE(props.set<int>("x", 1));
  EXPECT_EQ(added_calls, 0);  // added during a notification: first called on the next write
  EXPECT_EQ(props.listener_count("x"), 33u);
}

TEST(PropsListeners, RemovingThePropertyInsideACallbackIsSafe) {
  PropertyContainer props;
  ASSERT_TRUE(props.set<std::string>("x", "a"));
  int later_calls = 0;
  ASSERT_TRUE(props.listen<std::string>("x", [&](const std::string& o, const std::string& n) {
    EXPECT_TRUE(props.remove("x"));
    EXPECT_EQ(o, "a");  // old and new values stay valid after the removal
    EXPECT_EQ(n, "b");
  }));
  ASSERT_TRUE(props.listen<std::string>("x", [&](const auto&, const auto&) { ++later_calls; }));
  ASSERT_TRUE(props.set<std::string>("x", "b"));
  EXPECT_EQ(later_calls, 0);
  EXPECT_FALSE(props.has("x"));
  // Clearing everything from inside a callback is safe too.
  ASSERT_TRUE(props.set<int>("y", 1));
  ASSERT_TRUE(props.set<int>("z", 1));
  ASSERT_TRUE(props.listen<int>("y", [&](const int&, const int&) { props.clear(); }));
  ASSERT_TRUE(props.set<int>("y", 2));
  EXPECT_TRUE(props.empty());
}

TEST(PropsListeners, WritesInsideCallbacksNestAndGrowTheContainer) {
  PropertyContainer props;
  ASSERT_TRUE(props.set<int>("x", 0));
  ASSERT_TRUE(props.listen<int>("x", [&](const int&, const int& n) {
    // Creating many properties rehashes the index under the running notification.
    for (int i = 0; i < 64; ++i) {
      ASSERT_TRUE(props.set<int>(Key::runtime("gen_" + std::to_string(i)), n));
    }
    if (n < 3) {
      ASSERT_TRUE(props.set<int>("x", n + 1));  // re-entrant write, same property
    }
  }));
  std::vector<int> seen;
  ASSERT_TRUE(props.listen<int>("x", [&](const int&, const int& n) { seen.push_back(n); }));
  ASSERT_TRUE(props.set<int>("x", 1));
  EXPECT_EQ(props.get<int>("x").value(), 3);
  EXPECT_EQ(props.get<int>("gen_63").value(), 3);  // the innermost write ran its loop last
  // Inner writes finish their notifications before the outer ones resume; each listener sees the
  // value of the write that called it.
  EXPECT_EQ(seen, (std::vector<int>{3, 2, 1}));
}

TEST(PropsListeners, OwnerKeptAliveDuringItsCallback) {
  PropertyContainer props;
  ASSERT_TRUE(props.set<int>("x", 0));
  auto owner = std::make_shared<std::string>("owner");
  std::weak_ptr<std::string> watch = owner;
  bool alive_during_call = false;
  ASSERT_TRUE(props.listen<int>("x", owner, [&](const int&, const int&) {
    owner.reset();  // the last outside reference goes away mid-callback
    alive_during_call = !watch.expired();
  }));
  ASSERT_TRUE(props.set<int>("x", 1));
  EXPECT_TRUE(alive_during_call);
  EXPECT_TRUE(watch.expired());
  ASSERT_TRUE(props.set<int>("x", 2));
  EXPECT_EQ(props.listener_count("x"), 0u);
}

TEST(PropsListeners, ExpiredOwnersAreDroppedWhenListenersChange) {
  PropertyContainer props;
  ASSERT_TRUE(props.set<int>("x", 0));
  auto owner = std::make_shared<int>(0);
  ASSERT_TRUE(props.listen<int>("x", owner, [](const int&, const int&) {}));
  owner.reset();
  EXPECT_EQ(props.listener_count("x"), 1u);  // not swept yet
  ASSERT_TRUE(props.listen<int>("x", [](const int&, const int&) {}));
  EXPECT_EQ(props.listener_count("x"), 1u);
}

}  // namespace
}  // namespace keel::props
