#include "keel/props/container.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace keel::props {
namespace {

using namespace keel::props::literals;

// Check 22: the seed's sample run prints 0, 110, 120, 120.
TEST(Props, Check22_SampleRun) {
  PropertyContainer props;
  std::vector<int> printed;

  ASSERT_TRUE(props.req<int>("my_int", 0));
  auto first = props.get<int>("my_int");
  ASSERT_TRUE(first) << first.error().message();
  printed.push_back(*first);

  int copied_result = 110;
  auto owner = std::make_shared<int>(0);  // the callback's owner, alive for the whole run
  ASSERT_TRUE(props.listen<int>("my_int", owner, copy_into(copied_result)));
  printed.push_back(copied_result);

  ASSERT_TRUE(props.set<int>("my_int", 120));
  printed.push_back(copied_result);
  auto last = props.get<int>("my_int");
  ASSERT_TRUE(last);
  printed.push_back(*last);

  EXPECT_EQ(printed, (std::vector<int>{0, 110, 120, 120}));
}

// Check 23: a missing name is a not-found error, a wrong type a type-mismatch error; both name
// the property.
TEST(Props, Check23_MissingNameAndWrongTypeAreTypedErrors) {
  PropertyContainer props;
  auto missing = props.get<int>("nope");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code(), ErrorCode::kNotFound);
  EXPECT_NE(missing.error().message().find("'nope'"), std::string::npos);

  ASSERT_TRUE(props.set<int>("my_int", 7));
  auto wrong = props.get<float>("my_int");
  ASSERT_FALSE(wrong);
  EXPECT_EQ(wrong.error().code(), ErrorCode::kTypeMismatch);
  EXPECT_NE(wrong.error().message().find("'my_int'"), std::string::npos);
  EXPECT_NE(wrong.error().message().find("s32"), std::string::npos);
  EXPECT_NE(wrong.error().message().find("f32"), std::string::npos);

  EXPECT_EQ(props.find<float>("my_int"), nullptr);
  EXPECT_EQ(props.find<int>("nope"), nullptr);
  ASSERT_NE(props.find<int>("my_int"), nullptr);
  EXPECT_EQ(*props.find<int>("my_int"), 7);
}
}  // namespace
}  // namespace keel::props

namespace keel::props {
namespace {

// Check 24: req never overwrites; req with another type is an error and changes nothing.
TEST(Props, Check24_ReqNeverOverwrites) {
  PropertyContainer props;
  ASSERT_TRUE(props.set<int>("speed", 5));
  ASSERT_TRUE(props.req<int>("speed", 99));
  EXPECT_EQ(props.get<int>("speed").value(), 5);

  ASSERT_TRUE(props.req<int>("armor", 3));  // missing: created with the initial value
  EXPECT_EQ(props.get<int>("armor").value(), 3);
  ASSERT_TRUE(props.req<int>("armor", 4));
  EXPECT_EQ(props.get<int>("armor").value(), 3);

  auto wrong = props.req<float>("speed", 1.0f);
  ASSERT_FALSE(wrong);
  EXPECT_EQ(wrong.error().code(), ErrorCode::kTypeMismatch);
  EXPECT_EQ(props.get<int>("speed").value(), 5);
  EXPECT_EQ(props.size(), 2u);
}

TEST(Props, Check24_ReqDoesNotNotifyListeners) {
  PropertyContainer props;
  ASSERT_TRUE(props.set<int>("speed", 5));
  int calls = 0;
  ASSERT_TRUE(props.listen<int>("speed", [&](const int&, const int&) { ++calls; }));
  ASSERT_TRUE(props.req<int>("speed", 9));
  EXPECT_EQ(calls, 0);
}

TEST(Props, SetCreatesAndOverwritesButNeverRetypes) {
  PropertyContainer props;
  ASSERT_TRUE(props.set<int>("hp", 1));
  ASSERT_TRUE(props.set<int>("hp", 2));
  EXPECT_EQ(props.get<int>("hp").value(), 2);
  auto retype = props.set<double>("hp", 2.5);
  ASSERT_FALSE(retype);
  EXPECT_EQ(retype.error().code(), ErrorCode::kTypeMismatch);
  EXPECT_EQ(props.get<int>("hp").value(), 2);
  EXPECT_TRUE(props.holds<int>("hp"));
  EXPECT_FALSE(props.holds<double>("hp"));
}

TEST(Props, StringLiteralsAreStoredAsStrings) {
  PropertyContainer props;
  ASSERT_TRUE(props.set("name", "Nobody"));
  EXPECT_EQ(props.type_of("name").value(), type_id<std::string>());
  EXPECT_EQ(props.get<std::string>("name").value(), "Nobody");
  ASSERT_TRUE(props.set("name", std::string_view("Big Level")));
  const std::string* name = props.find<std::string>("name");
  ASSERT_NE(name, nullptr);
  EXPECT_EQ(*name, "Big Level");
  ASSERT_TRUE(props.req("title", "x"));
  EXPECT_EQ(props.get<std::string>("title").value(), "x");
}

TEST(Props, HasRemoveClearAndTypeOf) {
  PropertyContainer props;
  EXPECT_FALSE(props.has("a"));
  EXPECT_FALSE(props.remove("a"));
  ASSERT_TRUE(props.set<int>("a", 1));
  ASSERT_TRUE(props.set<float>("b", 2.0f));
  EXPECT_TRUE(props.has("a"));
  EXPECT_EQ(props.type_of("b").value(), type_id<float>());
  EXPECT_EQ(props.type_of("zz").error().code(), ErrorCode::kNotFound);
  EXPECT_TRUE(props.remove("a"));
  EXPECT_FALSE(props.has("a"));
  EXPECT_EQ(props.get<int>("a").error().code(), ErrorCode::kNotFound);
  EXPECT_EQ(props.size(), 1u);
  // A removed name can be created again, with any type.
  ASSERT_TRUE(props.set<std::string>("a", "back"));
  EXPECT_EQ(props.get<std::string>("a").value(), "back");
  props.clear();
  EXPECT_TRUE(props.empty());
  EXPECT_FALSE(props.has("b"));
}

TEST(Props, RuntimeKeysFindLiteralProperties) {
  PropertyContainer props;
  ASSERT_TRUE(props.set<int>("score", 10));
  std::string name = "sc";
  name += "ore";
  EXPECT_EQ(props.get<int>(Key::runtime(name)).value(), 10);
  // A property created from a run-time name keeps its own copy of the name.
  {
    std::string temp = "level_name";
    ASSERT_TRUE(props.set<int>(Key::runtime(temp), 3));
    temp.assign("xxxxxxxxxx");
  }
  EXPECT_EQ(props.get<int>("level_name").value(), 3);
  bool seen = false;
  for (PropertyView p : props) seen |= p.name() == "level_name";
  EXPECT_TRUE(seen);
}

// Two different names with the same 32-bit id: the second is reported on first use, the first
// keeps working. "aaaab" and "qaaaa" collide under the rotate-left-7 hash (core's hash tests).
TEST(Props, KeyCollisionIsReportedOnFirstUse) {
  static_assert(Key("aaaab").id() == Key("qaaaa").id());
  PropertyContainer props;
  ASSERT_TRUE(props.set<int>("aaaab", 1));
  auto set = props.set<int>("qaaaa", 2);
  ASSERT_FALSE(set);
  EXPECT_EQ(set.error().code(), ErrorCode::kAlreadyExists);
  EXPECT_NE(set.error().message().find("'qaaaa'"), std::string::npos);
  EXPECT_NE(set.error().message().find("'aaaab'"), std::string::npos);
  auto get = props.get<int>("qaaaa");
  ASSERT_FALSE(get);
  EXPECT_EQ(get.error().code(), ErrorCode::kAlreadyExists);
  EXPECT_EQ(props.req<int>("qaaaa", 0).error().code(), ErrorCode::kAlreadyExists);
  EXPECT_FALSE(props.has("qaaaa"));
  EXPECT_FALSE(props.remove("qaaaa"));
  EXPECT_EQ(props.find<int>("qaaaa"), nullptr);
  EXPECT_EQ(props.get<int>("aaaab").value(), 1);
}

TEST(Props, IterationVisitsCreationOrderWithTypes) {
  PropertyContainer props;
  ASSERT_TRUE(props.set<int>("c", 3));
  ASSERT_TRUE(props.set<float>("a", 1.5f));
  ASSERT_TRUE(props.set<std::string>("b", "two"));
  ASSERT_TRUE(props.remove("a"));
  ASSERT_TRUE(props.set<bool>("d", true));
  std::vector<std::string> names;
  for (PropertyView p : props) {
    names.emplace_back(p.name());
    EXPECT_EQ(p.id(), runtime_id(p.name()));
  }
  EXPECT_EQ(names, (std::vector<std::string>{"c", "b", "d"}));
  auto it = props.begin();
  EXPECT_TRUE((*it).holds<int>());
  EXPECT_EQ(*(*it).as<int>(), 3);
  EXPECT_EQ((*it).as<float>(), nullptr);
  ++it;
  EXPECT_EQ((*it).type().name(), "string");
}

TEST(Props, ManyPropertiesSurviveGrowthAndRemoval) {
  PropertyContainer props;
  std::vector<std::string> names;
  for (int i = 0; i < 500; ++i) names.push_back("prop_" + std::to_string(i));
  for (int i = 0; i < 500; ++i) ASSERT_TRUE(props.set<int>(Key::runtime(names[i]), i));
  for (int i = 0; i < 500; i += 3) ASSERT_TRUE(props.remove(Key::runtime(names[i])));
  for (int i = 0; i < 500; ++i) {
    auto v = props.get<int>(Key::runtime(names[i]));
    if (i % 3 == 0) {
      EXPECT_FALSE(v) << names[i];
    } else {
      ASSERT_TRUE(v) << names[i];
      EXPECT_EQ(*v, i);
    }
  }
  EXPECT_EQ(props.size(), 500u - 167u);
}

struct ContainerVec2 {
  float x = 0;
  float y = 0;
  friend bool operator==(const ContainerVec2&, const ContainerVec2&) = default;
};

TEST(Props, AnyCopyableTypeAndCopyValues) {
  PropertyContainer props;
  ASSERT_TRUE(props.set("pos", ContainerVec2{1, 2}));
  ASSERT_TRUE(props.set("path", std::vector<ContainerVec2>{{0, 0}, {3, 4}}));
  EXPECT_EQ(props.get<ContainerVec2>("pos").value(), (ContainerVec2{1, 2}));
  int calls = 0;
  ASSERT_TRUE(props.listen<ContainerVec2>(
      "pos", [&](const ContainerVec2&, const ContainerVec2&) { ++calls; }));

  PropertyContainer copy = props.copy_values();
  EXPECT_EQ(copy.size(), 2u);
  EXPECT_EQ(copy.listener_count("pos"), 0u);
  ASSERT_TRUE(copy.set("pos", ContainerVec2{5, 6}));
  EXPECT_EQ(calls, 0);
  EXPECT_EQ(props.get<ContainerVec2>("pos").value(), (ContainerVec2{1, 2}));
  EXPECT_EQ(copy.get<std::vector<ContainerVec2>>("path").value().size(), 2u);
}

TEST(Props, MoveKeepsPropertiesAndListeners) {
  PropertyContainer props;
  ASSERT_TRUE(props.set<int>("a", 1));
  int seen = 0;
  ASSERT_TRUE(props.listen<int>("a", copy_into(seen)));
  PropertyContainer moved(std::move(props));
  ASSERT_TRUE(moved.set<int>("a", 2));
  EXPECT_EQ(seen, 2);
  PropertyContainer other;
  other = std::move(moved);
  ASSERT_TRUE(other.set<int>("a", 3));
  EXPECT_EQ(seen, 3);
  EXPECT_EQ(other.get<int>("a").value(), 3);
}

}  // namespace
}  // namespace keel::props
