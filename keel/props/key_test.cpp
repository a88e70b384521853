#include "keel/props/key.h"

#include "keel/props/slot.h"
#include "keel/props/type_id.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

namespace keel::props {
namespace {

using namespace keel::literals;
using namespace keel::props::literals;

TEST(PropsKey, IdIsTheCompileTimeStringId) {
  constexpr Key health("health");
  static_assert(health.id() == "health"_id);
  static_assert(health.name() == "health");
  static_assert(health.has_static_name());
  constexpr Key literal = "health"_key;
  static_assert(literal == health);
  EXPECT_EQ(health.id().value, string_hash("health"));
}

TEST(PropsKey, RuntimeKeyMatchesLiteralKey) {
  const std::string name = "health";
  const Key runtime = Key::runtime(name);
  EXPECT_FALSE(runtime.has_static_name());
  EXPECT_EQ(runtime, Key("health"));
  EXPECT_NE(Key::runtime("mana"), Key("health"));
}

TEST(PropsTypeId, DistinctPerTypeAndReadable) {
  static_assert(type_id<int>() == type_id<const int&>());
  EXPECT_NE(type_id<int>(), type_id<float>());
  EXPECT_NE(type_id<s64>(), type_id<u64>());
  EXPECT_EQ(type_id<s32>().name(), "s32");
  EXPECT_EQ(type_id<f64>().name(), "f64");
  EXPECT_EQ(type_id<std::string>().name(), "string");
  EXPECT_EQ(type_id<StringId>().name(), "StringId");
  struct Local {};
  EXPECT_NE(type_id<Local>().name().find("Local"), std::string_view::npos);
  EXPECT_EQ(TypeId().name(), "none");
  EXPECT_FALSE(TypeId().valid());
}

}  // namespace
}  // namespace keel::props
