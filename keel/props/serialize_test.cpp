#include "keel/props/container.h"
#include "keel/props/type_registry.h"
#include "keel/serial/serial.h"
#include "keel/serial/testing/wire.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

namespace keel::props {
namespace {

using namespace keel::literals;
using serial::testing::wire;

ByteBuffer save(PropertyContainer& props) {
  serial::GrowingSaver saver;
  props.serialize(saver);
  EXPECT_TRUE(saver.ok()) << saver.status().error().message();
  return saver.to_vector();
}

Status load(PropertyContainer& props, ByteSpan bytes) {
  serial::BufferLoader loader(bytes);
  props.serialize(loader);
  return loader.finish();
}

TEST(PropsSerialize, BuiltInTypesRoundTrip) {
  PropertyContainer props;
  ASSERT_TRUE(props.set<bool>("alive", true));
  ASSERT_TRUE(props.set<s32>("hp", -42));
  ASSERT_TRUE(props.set<s64>("big", -(s64{1} << 40)));
  ASSERT_TRUE(props.set<u32>("flags", 0xDEADBEEFu));
  ASSERT_TRUE(props.set<u64>("seed", 0x0123456789ABCDEFull));
  ASSERT_TRUE(props.set<f32>("speed", 1.5f));
  ASSERT_TRUE(props.set<f64>("mass", 1e300));
  ASSERT_TRUE(props.set<std::string>("name", "Big Level"));
  ASSERT_TRUE(props.set<StringId>("stance", "crouch"_id));
  ASSERT_TRUE(props.set<u8>("small", u8{200}));

  const ByteBuffer bytes = save(props);
  serial::Sizer sizer;
  props.serialize(sizer);
  ASSERT_TRUE(sizer.ok());
  EXPECT_EQ(sizer.size(), bytes.size());

  PropertyContainer loaded;
  ASSERT_TRUE(load(loaded, bytes));
  EXPECT_EQ(loaded.size(), props.size());
  EXPECT_EQ(loaded.get<bool>("alive").value(), true);
  EXPECT_EQ(loaded.get<s32>("hp").value(), -42);
  EXPECT_EQ(loaded.get<s64>("big").value(), -(s64{1} << 40));
  EXPECT_EQ(loaded.get<u32>("flags").value(), 0xDEADBEEFu);
  EXPECT_EQ(loaded.get<u64>("seed").value(), 0x0123456789ABCDEFull);
  EXPECT_EQ(loaded.get<f32>("speed").value(), 1.5f);
  EXPECT_EQ(loaded.get<f64>("mass").value(), 1e300);
  EXPECT_EQ(loaded.get<std::string>("name").value(), "Big Level");
  EXPECT_EQ(loaded.get<StringId>("stance").value(), "crouch"_id);
  EXPECT_EQ(loaded.get<u8>("small").value(), 200);
  // Creation order survives, so saving again gives the same bytes.
  EXPECT_EQ(save(loaded), bytes);
}

// The wire layout: u8 version, u32 count, then name, tag, value per property (big-endian here
// as everything keel::serial writes).
TEST(PropsSerialize, WireLayout) {
  PropertyContainer props;
  ASSERT_TRUE(props.set<s32>("hp", 0x01020304));
  const ByteBuffer bytes = save(props);
  const Hash tag = string_hash("s32");
  const ByteBuffer expected = wire({
      1,  // format version
      0,
      0,
      0,
      1,  // one property
      0,
      0,
      0,
      2,
      'h',
      'p',  // name
      static_cast<u8>(tag >> 24),
      static_cast<u8>(tag >> 16),
      static_cast<u8>(tag >> 8),
      static_cast<u8>(tag),  // type tag
      0x01,
      0x02,
      0x03,
      0x04,  // value
  });
  EXPECT_EQ(bytes, expected);
}

struct Vec2 {
  f32 x = 0;
  f32 y = 0;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(x, y);
  }
  friend bool operator==(const Vec2&, const Vec2&) = default;
};

enum class Team : u8 { kRed = 1, kBlue = 2 };

// A user type with a free serialize, nested objects, a vector, an optional, an array and an enum.
struct Loadout {
  std::string name;
  std::vector<Vec2> waypoints;
  std::optional<s32> ammo;
  std::array<u16, 3> slots{};
  Team team = Team::kRed;
  std::vector<bool> flags;
  friend bool operator==(const Loadout&, const Loadout&) = default;
};

template <class Archive>
void serialize(Archive& ar, Loadout& l) {
  ar(l.name, l.waypoints, l.ammo, l.slots, l.team, l.flags);
  if constexpr (Archive::kLoading) {
    if (l.team != Team::kRed && l.team != Team::kBlue) ar.fail(ErrorCode::kCorrupt, "bad team");
  }
}

TEST(PropsSerialize, RegisteredUserTypesRoundTrip) {
  TypeRegistry types;
  ASSERT_TRUE(types.add<Vec2>("vec2"));
  ASSERT_TRUE(types.add<Loadout>("loadout"));
  EXPECT_TRUE(types.contains<Vec2>());
  PropertyContainer props(types);
  ASSERT_TRUE(props.set("pos", Vec2{3.5f, -1}));
  const Loadout loadout{"sniper", {{1, 2}, {3, 4}}, 12, {7, 8, 9}, Team::kBlue, {true, false}};
  ASSERT_TRUE(props.set("loadout", loadout));
  ASSERT_TRUE(props.set<s32>("hp", 5));

  const ByteBuffer bytes = save(props);
  serial::Sizer sizer;
  props.serialize(sizer);
  EXPECT_EQ(sizer.size(), bytes.size());

  PropertyContainer loaded(types);
  ASSERT_TRUE(load(loaded, bytes));
  EXPECT_EQ(loaded.get<Vec2>("pos").value(), (Vec2{3.5f, -1}));
  EXPECT_EQ(loaded.get<Loadout>("loadout").value(), loadout);

  // A loader without the user types rejects the data as corrupt, naming the property.
  PropertyContainer plain;
  auto status = load(plain, bytes);
  ASSERT_FALSE(status);
  EXPECT_EQ(status.error().code(), ErrorCode::kCorrupt);
  EXPECT_NE(status.error().message().find("'pos'"), std::string::npos);
  EXPECT_TRUE(plain.empty());

  // The user's own check runs on load.
  PropertyContainer only_loadout(types);
  ASSERT_TRUE(only_loadout.set("loadout", Loadout{"x", {}, std::nullopt, {}, Team::kRed, {}}));
  ByteBuffer small = save(only_loadout);
  // name "x" (4+1), no waypoints (4), no ammo (1), slots (6): team byte follows.
  const usize team_at = 1 + 4 + (4 + 7) + 4 + (4 + 1) + 4 + 1 + 6;
  ASSERT_EQ(small[team_at], std::byte{1});
  small[team_at] = std::byte{9};
  PropertyContainer target(types);
  status = load(target, small);
  ASSERT_FALSE(status);
  EXPECT_EQ(status.error().message(), "bad team");
  EXPECT_TRUE(target.empty());
}

TEST(PropsSerialize, RegistryRejectsDuplicates) {
  TypeRegistry types;
  ASSERT_TRUE(types.add<Vec2>("vec2"));
  EXPECT_EQ(types.add<Vec2>("vec2b").error().code(), ErrorCode::kAlreadyExists);
  EXPECT_EQ(types.add<Loadout>("vec2").error().code(), ErrorCode::kAlreadyExists);
  EXPECT_EQ(types.add<Loadout>("s32").error().code(), ErrorCode::kAlreadyExists);
  EXPECT_EQ(types.add<s32>("int").error().code(), ErrorCode::kAlreadyExists);
  EXPECT_EQ(TypeRegistry::builtin().size(), 13u);
  EXPECT_EQ(TypeRegistry::builtin().find_tag(string_hash("string"))->type, type_id<std::string>());
}

TEST(PropsSerialize, SavingAnUnregisteredTypeFails) {
  PropertyContainer props;
  ASSERT_TRUE(props.set<s32>("hp", 1));
  ASSERT_TRUE(props.set("pos", Vec2{1, 2}));
  serial::GrowingSaver saver;
  props.serialize(saver);
  ASSERT_FALSE(saver.ok());
  EXPECT_EQ(saver.status().error().code(), ErrorCode::kUnsupported);
  EXPECT_NE(saver.status().error().message().find("'pos'"), std::string::npos);
  EXPECT_TRUE(saver.bytes().empty());  // checked before anything is written
  serial::Sizer sizer;
  props.serialize(sizer);
  EXPECT_FALSE(sizer.ok());
}

TEST(PropsSerialize, LoadWritesThroughSetAndKeepsOtherProperties) {
  PropertyContainer source;
  ASSERT_TRUE(source.set<s32>("hp", 50));
  ASSERT_TRUE(source.set<std::string>("name", "loaded"));
  const ByteBuffer bytes = save(source);

  PropertyContainer target;
  ASSERT_TRUE(target.req<s32>("hp", 100));
  ASSERT_TRUE(target.set<f32>("local_only", 2.0f));
  std::vector<std::pair<s32, s32>> seen;
  ASSERT_TRUE(
      target.listen<s32>("hp", [&](const s32& o, const s32& n) { seen.emplace_back(o, n); }));
  ASSERT_TRUE(load(target, bytes));
  EXPECT_EQ(seen, (std::vector<std::pair<s32, s32>>{{100, 50}}));
  EXPECT_EQ(target.get<s32>("hp").value(), 50);
  EXPECT_EQ(target.get<std::string>("name").value(), "loaded");
  EXPECT_EQ(target.get<f32>("local_only").value(), 2.0f);
  EXPECT_EQ(target.listener_count("hp"), 1u);
}

TEST(PropsSerialize, LoadIsAllOrNothing) {
  PropertyContainer source;
  ASSERT_TRUE(source.set<s32>("hp", 50));
  ASSERT_TRUE(source.set<std::string>("name", "loaded"));
  const ByteBuffer bytes = save(source);

  // Truncated anywhere: an underflow, and the target is unchanged.
  for (usize cut = 0; cut < bytes.size(); ++cut) {
    PropertyContainer target;
    ASSERT_TRUE(target.set<s32>("hp", 1));
    int calls = 0;
    ASSERT_TRUE(target.listen<s32>("hp", [&](const s32&, const s32&) { ++calls; }));
    serial::BufferLoader loader(ByteSpan(bytes).first(cut));
    target.serialize(loader);
    ASSERT_FALSE(loader.ok()) << cut;
    EXPECT_EQ(loader.status().error().code(), ErrorCode::kUnderflow) << cut;
    EXPECT_EQ(target.get<s32>("hp").value(), 1);
    EXPECT_FALSE(target.has("name"));
    EXPECT_EQ(calls, 0);
  }

  // A type clash with an existing property fails before anything is written.
  PropertyContainer clash;
  ASSERT_TRUE(clash.set<f32>("name", 1.0f));
  ASSERT_TRUE(clash.set<s32>("hp", 1));
  auto status = load(clash, bytes);
  ASSERT_FALSE(status);
  EXPECT_EQ(status.error().code(), ErrorCode::kTypeMismatch);
  EXPECT_EQ(clash.get<s32>("hp").value(), 1);

  // Extra bytes after the container: the loader's finish() reports them.
  ByteBuffer longer = bytes;
  longer.push_back(std::byte{0});
  PropertyContainer target;
  EXPECT_EQ(load(target, longer).error().code(), ErrorCode::kTrailingData);
}

TEST(PropsSerialize, CorruptHeadersAndDuplicates) {
  PropertyContainer empty;
  ByteBuffer bytes = save(empty);
  ASSERT_EQ(bytes, wire({1, 0, 0, 0, 0}));
  PropertyContainer target;
  ASSERT_TRUE(load(target, bytes));

  bytes[0] = std::byte{2};  // a newer format
  EXPECT_EQ(load(target, bytes).error().code(), ErrorCode::kUnsupported);
  bytes[0] = std::byte{0};
  EXPECT_EQ(load(target, bytes).error().code(), ErrorCode::kCorrupt);

  // A huge announced count with no data behind it: underflow, no huge allocation.
  EXPECT_EQ(load(target, wire({1, 0xFF, 0xFF, 0xFF, 0xFF})).error().code(), ErrorCode::kUnderflow);

  // The same name twice.
  PropertyContainer one;
  ASSERT_TRUE(one.set<u8>("a", u8{1}));
  ByteBuffer single = save(one);
  ByteBuffer twice(single.begin(), single.begin() + 1);
  const ByteBuffer count = wire({0, 0, 0, 2});
  twice.insert(twice.end(), count.begin(), count.end());
  twice.insert(twice.end(), single.begin() + 5, single.end());
  twice.insert(twice.end(), single.begin() + 5, single.end());
  auto status = load(target, twice);
  ASSERT_FALSE(status);
  EXPECT_EQ(status.error().code(), ErrorCode::kCorrupt);
  EXPECT_NE(status.error().message().find("twice"), std::string::npos);
  EXPECT_TRUE(target.empty());
}

TEST(PropsSerialize, CollidingNamesInDataAreCorrupt) {
  PropertyContainer a;
  ASSERT_TRUE(a.set<u8>("aaaab", u8{1}));
  PropertyContainer b;
  ASSERT_TRUE(b.set<u8>("qaaaa", u8{2}));
  const ByteBuffer first = save(a);
  const ByteBuffer second = save(b);
  ByteBuffer both = wire({1, 0, 0, 0, 2});
  both.insert(both.end(), first.begin() + 5, first.end());
  both.insert(both.end(), second.begin() + 5, second.end());
  PropertyContainer target;
  auto status = load(target, both);
  ASSERT_FALSE(status);
  EXPECT_EQ(status.error().code(), ErrorCode::kCorrupt);
  EXPECT_TRUE(target.empty());
  // Colliding with a property the container already has: also refused.
  PropertyContainer holder;
  ASSERT_TRUE(holder.set<u8>("aaaab", u8{9}));
  EXPECT_EQ(load(holder, second).error().code(), ErrorCode::kCorrupt);
  EXPECT_EQ(holder.get<u8>("aaaab").value(), 9);
}

}  // namespace
}  // namespace keel::props
