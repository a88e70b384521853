#include "keel/props/key.h"

#include "keel/props/slot.h"
#include "keel/props/slot_index.h"
#include "keel/props/type_id.h"

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <random>
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

// The open-addressing index against std::map under random inserts and erases (backward-shift
// deletion must keep every remaining id reachable).
TEST(PropsSlotIndex, MatchesReferenceMapUnderChurn) {
  std::vector<std::unique_ptr<detail::TypedSlot<int>>> storage;
  for (int i = 0; i < 64; ++i) storage.push_back(std::make_unique<detail::TypedSlot<int>>(i));
  detail::SlotIndex index;
  std::map<u32, detail::SlotBase*> reference;
  std::mt19937 rng(7);
  for (int step = 0; step < 20000; ++step) {
    // Few distinct ids with clustered hashes: many probe-run collisions.
    const u32 id = (rng() % 48) * 0x10000u;
    auto it = reference.find(id);
    if (it == reference.end()) {
      detail::SlotBase* slot = storage[rng() % storage.size()].get();
      index.insert(id, slot);
      reference[id] = slot;
    } else if (rng() % 2 == 0) {
      EXPECT_TRUE(index.erase(id));
      reference.erase(it);
    }
    if (step % 97 == 0) {
      for (u32 probe = 0; probe < 48; ++probe) {
        const u32 key = probe * 0x10000u;
        auto ref = reference.find(key);
        EXPECT_EQ(index.find(key), ref == reference.end() ? nullptr : ref->second) << key;
      }
    }
  }
  EXPECT_EQ(index.size(), reference.size());
  EXPECT_FALSE(index.erase(0xFFFFFFFFu));
  index.clear();
  EXPECT_EQ(index.size(), 0u);
  EXPECT_EQ(index.find(0), nullptr);
}

}  // namespace
}  // namespace keel::props
