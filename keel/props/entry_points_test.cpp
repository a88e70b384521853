// Every public entry point of props given bad input by its caller: an error value, never a crash.
#include "keel/core/testing/alloc_counter.h"
#include "keel/props/container.h"
#include "keel/props/type_registry.h"
#include "keel/serial/serial.h"

#include <gtest/gtest.h>

#include <string>

namespace keel::props {
namespace {

TEST(EntryPoints, PropsMissingKeysAndWrongTypes) {
  PropertyContainer props;
  EXPECT_EQ(props.get<int>("nobody").error().code(), ErrorCode::kNotFound);
  EXPECT_EQ(props.find<int>("nobody"), nullptr);
  EXPECT_FALSE(props.remove("nobody"));
  EXPECT_FALSE(props.type_of("nobody"));
  EXPECT_FALSE(props.unlisten("nobody", 1));
  EXPECT_FALSE(props.listen<int>("nobody", [](const int&, const int&) {}));
  ASSERT_TRUE(props.set<int>("hp", 1));
  EXPECT_EQ(props.set<float>("hp", 1.0f).error().code(), ErrorCode::kTypeMismatch);
  EXPECT_EQ(props.get<float>("hp").error().code(), ErrorCode::kTypeMismatch);
  EXPECT_FALSE(props.unlisten("hp", 12345));  // an id that was never issued
  EXPECT_EQ(props.get<int>("hp").value(), 1);
}

TEST(EntryPoints, PropsEmptyNamesAndEmptyContainers) {
  PropertyContainer props;
  ASSERT_TRUE(props.set<int>("", 3));  // the empty name is a name like any other
  EXPECT_EQ(props.get<int>("").value(), 3);
  PropertyContainer empty;
  auto bytes = serial::save_to_bytes(empty);
  ASSERT_TRUE(bytes);
  PropertyContainer loaded;
  EXPECT_TRUE(serial::load_from_bytes(*bytes, loaded));
  EXPECT_TRUE(loaded.empty());
  EXPECT_FALSE(serial::load_from_bytes(ByteSpan(), loaded));
}

TEST(EntryPoints, PropsRegistryMistakes) {
  TypeRegistry types;
  EXPECT_EQ(types.add<int>("again").error().code(), ErrorCode::kAlreadyExists);  // built in
  EXPECT_EQ(types.find_tag(12345), nullptr);
  EXPECT_EQ(types.find_type(type_id<double*>()), nullptr);
}

TEST(PropsAllocations, GetSetAndFindDoNotAllocate) {
  PropertyContainer props;
  ASSERT_TRUE(props.set<int>("hp", 1));
  ASSERT_TRUE(props.set<std::string>("name", "a fairly long name, longer than SSO"));
  const keel::testing::AllocationScope scope;
  for (int i = 0; i < 100; ++i) {
    EXPECT_TRUE(props.set<int>("hp", i));
    EXPECT_EQ(props.get<int>("hp").value(), i);
    EXPECT_NE(props.find<std::string>("name"), nullptr);
  }
  EXPECT_EQ(scope.count(), 0u) << scope.counts();
}

}  // namespace
}  // namespace keel::props
