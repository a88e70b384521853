#include "keel/world/defs.h"

#include "keel/pack/loader.h"
#include "keel/pack/writer.h"
#include "keel/world/chain.h"

#include <gtest/gtest.h>

namespace keel::world {
namespace {

EntityDef fighter() {
  EntityDef d{.name = "fighter", .components = {}};
  ComponentDef body{.name = "Body", .params = {}};
  body.params.set_number("radius", 12).set_number("mass", 3);
  ComponentDef gun{.name = "Gun", .params = {}};
  gun.params.set_text("bullet", "bullet").set_vec2("muzzle", {0, 16});
  d.components = {body, gun};
  return d;
}

TEST(EntityDefs, ChunkRoundTrips) {
  const ByteBuffer bytes = encode_entity_def(fighter());
  Result<EntityDef> back = decode_entity_def(bytes);
  ASSERT_TRUE(back) << back.error().to_string();
  EXPECT_EQ(back->name, "fighter");
  ASSERT_EQ(back->components.size(), 2u);
  EXPECT_FLOAT_EQ(back->components[0].params.number("mass"), 3);
  EXPECT_EQ(back->find("Gun")->params.text("bullet"), "bullet");
  EXPECT_FLOAT_EQ(back->find("Gun")->params.vec2("muzzle").y, 16);
  EXPECT_EQ(encode_entity_def(*back), bytes);
}

TEST(EntityDefs, ParamsFallBackOnMissingOrOtherKind) {
  Params p;
  p.set_number("radius", 2).set_text("name", "x");
  EXPECT_FLOAT_EQ(p.number("radius", 9), 2);
  EXPECT_FLOAT_EQ(p.number("name", 9), 9);  // a text, not a number
  EXPECT_FLOAT_EQ(p.number("mass", 9), 9);
  EXPECT_EQ(p.text("radius", "fb"), "fb");
  EXPECT_FLOAT_EQ(p.vec2("v", {1, 2}).y, 2);
  p.set_number("radius", 5);  // replaces
  EXPECT_EQ(p.size(), 2u);
  EXPECT_FLOAT_EQ(p.number("radius"), 5);
}

TEST(EntityDefs, EveryTruncationIsAnError) {
  const ByteBuffer bytes = encode_entity_def(fighter());
  for (usize n = 0; n < bytes.size(); ++n) {
    EXPECT_FALSE(decode_entity_def(ByteSpan(bytes).first(n))) << n;
  }
  ByteBuffer longer = bytes;
  longer.push_back(std::byte{0});
  Result<EntityDef> trailing = decode_entity_def(longer);
  ASSERT_FALSE(trailing);
  EXPECT_EQ(trailing.error().code(), ErrorCode::kTrailingData);
}

TEST(EntityDefs, CorruptChunksAreErrors) {
  ByteBuffer bad_magic = encode_entity_def(fighter());
  bad_magic[0] = std::byte{'X'};
  EXPECT_EQ(decode_entity_def(bad_magic).error().code(), ErrorCode::kCorrupt);
  ByteBuffer version = encode_entity_def(fighter());
  version[4] = std::byte{9};
  EXPECT_EQ(decode_entity_def(version).error().code(), ErrorCode::kUnsupported);
  EntityDef twice = fighter();
  twice.components.push_back(twice.components[0]);
  EXPECT_EQ(decode_entity_def(encode_entity_def(twice)).error().code(), ErrorCode::kCorrupt);
  EntityDef nan = fighter();
  nan.components[0].params.set_number("mass", std::numeric_limits<double>::quiet_NaN());
  EXPECT_EQ(decode_entity_def(encode_entity_def(nan)).error().code(), ErrorCode::kCorrupt);
  // A count far beyond the chunk's size is refused before anything is reserved.
  ByteBuffer huge = encode_entity_def(EntityDef{.name = "x", .components = {}});
  huge[huge.size() - 1] = std::byte{0x7F};
  EXPECT_EQ(decode_entity_def(huge).error().code(), ErrorCode::kCorrupt);
}

TEST(EntityDefs, LoadsFromAPackAndRefusesDuplicates) {
  pack::PackWriter writer;
  const ByteBuffer a = encode_entity_def(fighter());
  writer.add_item("fighter", pack::type_hash("Entity"), writer.add_chunk("fighter", 0, a, 8));
  ChainDef chain{.name = "waves", .steps = {ChainStep{}}};
  const ByteBuffer c = encode_chain(chain);
  writer.add_item("waves", pack::type_hash("Chain"), writer.add_chunk("waves", 0, c, 8));
  Result<ByteBuffer> bytes = writer.to_bytes();
  ASSERT_TRUE(bytes) << bytes.error().to_string();
  pack::Loader loader;
  register_entity_def_type(loader);
  register_chain_type(loader);
  Result<pack::LoadedPack> loaded = loader.load_bytes(*bytes);
  ASSERT_TRUE(loaded) << loaded.error().to_string();
  EntityDefs defs;
  ASSERT_TRUE(defs.add_pack(*loaded));
  EXPECT_EQ(defs.size(), 1u);
  ASSERT_NE(defs.find("fighter"), nullptr);
  EXPECT_EQ(defs.find("nobody"), nullptr);
  const ChainDef* waves = find_chain(*loaded, "waves");
  ASSERT_NE(waves, nullptr);
  EXPECT_EQ(waves->steps.size(), 1u);
  EXPECT_EQ(find_chain(*loaded, "fighter"), nullptr);  // an Entity, not a Chain
  EXPECT_EQ(defs.add_pack(*loaded).error().code(), ErrorCode::kAlreadyExists);
}

TEST(EntityDefs, CorruptChunkInAPackFailsTheLoad) {
  pack::PackWriter writer;
  const ByteBuffer junk = to_buffer(std::string_view("KENTjunk"));
  writer.add_item("x", pack::type_hash("Entity"), writer.add_chunk("x", 0, junk, 8));
  Result<ByteBuffer> bytes = writer.to_bytes();
  ASSERT_TRUE(bytes);
  pack::Loader loader;
  register_entity_def_type(loader);
  EXPECT_FALSE(loader.load_bytes(*bytes));
}

TEST(EntryPoints, EntityDefsBadCallerInput) {
  EntityDefs defs;
  EXPECT_EQ(defs.add(EntityDef{}).error().code(), ErrorCode::kInvalidArgument);  // no name
  EXPECT_FALSE(defs.add_bytes({}));
  EXPECT_EQ(defs.find(""), nullptr);
  EXPECT_FALSE(decode_entity_def({}));
  EXPECT_FALSE(decode_chain({}));
}

TEST(ChainDefs, ChunkRoundTripsAndTruncationsFail) {
  ChainStep s;
  s.name = "A";
  ChainAction spawn;
  spawn.name = "fighter";
  spawn.count = 10;
  s.start.push_back(spawn);
  ChainAction call;
  call.kind = ChainActionKind::kCall;
  call.name = "done";
  s.end.push_back(call);
  s.until.kind = ChainConditionKind::kDead;
  const ChainDef chain{.name = "waves", .steps = {s, s}};
  const ByteBuffer bytes = encode_chain(chain);
  Result<ChainDef> back = decode_chain(bytes);
  ASSERT_TRUE(back) << back.error().to_string();
  EXPECT_EQ(encode_chain(*back), bytes);
  EXPECT_EQ(back->steps[1].start[0].count, 10u);
  for (usize n = 0; n < bytes.size(); ++n) EXPECT_FALSE(decode_chain(ByteSpan(bytes).first(n)));
  ChainDef zero = chain;
  zero.steps[0].start[0].count = 0;
  EXPECT_EQ(decode_chain(encode_chain(zero)).error().code(), ErrorCode::kCorrupt);
}

}  // namespace
}  // namespace keel::world
