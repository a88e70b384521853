// A set whose classes keep the default load hooks is read in one pass over the stream with its
// links parked in the pointer slots, then fixed in a second pass: the objects must come out as
// the book's passes make them, a crafted link must fail the load, and a failed load must never
// leave a parked index in a slot (the destructors below check every pointer they hold).
#include "keel/save/format.h"
#include "keel/save/save_file.h"
#include "keel/save/system.h"

#include <gtest/gtest.h>

#include <cstring>
#include <set>

namespace keel::save {
namespace {

u32 g_fused_level[16];
// Every address an Owner or Thing (or an owner's value) ever had, and the pointers destructors
// found that are none of these, nor into the level: a parked index left in a slot.
std::set<const void*> g_ever;
int g_bad_pointers = 0;

void check_pointer(const void* p) {
  const auto* level = reinterpret_cast<const std::byte*>(g_fused_level);
  const auto* at = static_cast<const std::byte*>(p);
  const bool in_level = at >= level && at < level + sizeof g_fused_level;
  if (p != nullptr && !in_level && g_ever.count(p) == 0) ++g_bad_pointers;
}

class Thing;
class Owner : public SaveObject {
  KEEL_SAVABLE(Owner, 70)
  u32 value = 0;
  Owner* peer = nullptr;
  Thing* thing = nullptr;
  const u32* watched = nullptr;  // into the level or into another object
  Owner() {
    g_ever.insert(this);
    g_ever.insert(&value);
  }
  ~Owner() override {
    check_pointer(peer);
    check_pointer(thing);
    check_pointer(watched);
  }
};
class Thing : public SaveObject {
  KEEL_SAVABLE(Thing, 71)
  u32 weight = 0;
  Owner* back = nullptr;
  Thing() { g_ever.insert(this); }
  ~Thing() override { check_pointer(back); }
};
KEEL_SAVE_TEMPLATE(Owner) = {KEEL_SAVEDEF(Owner),          KEEL_SAVEDATA(Owner, value),
                             KEEL_SAVEPOBJ(Owner, peer),   KEEL_SAVEPOBJ(Owner, thing),
                             KEEL_SAVEPTR(Owner, watched), KEEL_SAVEEND()};
KEEL_SAVE_TEMPLATE(Thing) = {KEEL_SAVEDEF(Thing), KEEL_SAVEDATA(Thing, weight),
                             KEEL_SAVEPOBJ(Thing, back), KEEL_SAVEEND()};

const SaveSystem& owners() {
  static const SaveSystem s({type<Owner>(), type<Thing>()});
  return s;
}

// Three owners in a ring, each with a thing pointing back; owner i watches owner i+1's value
// (a pointer into another object's block) except the last, which watches the level.
struct Scene {
  Owner owners[3];
  Thing things[3];
  Scene() {
    for (u32 i = 0; i < 3; ++i) {
      owners[i].value = 10 + i;
      owners[i].peer = &owners[(i + 1) % 3];
      owners[i].thing = &things[i];
      owners[i].watched = i < 2 ? &owners[i + 1].value : &g_fused_level[5];
      things[i].weight = 20 + i;
      things[i].back = &owners[i];
    }
  }
};

ByteBuffer save_body(Scene& scene) {
  SaveFile out(owners());
  EXPECT_TRUE(out.begin_save({}, {Compression::kNone}));
  out.declare_block(g_fused_level, sizeof g_fused_level);
  out.declare_object(&scene.owners[0]);
  EXPECT_TRUE(out.end(out.process_objects()));
  return ByteBuffer(out.body().begin(), out.body().end());
}

ByteBuffer seal(const ByteBuffer& body) {
  FileHeader header;
  header.compression = Compression::kNone;
  header.version = owners().version();
  auto file = encode_file(header, body);
  EXPECT_TRUE(file);
  return file ? *file : ByteBuffer{};
}

Status load(ByteSpan file, std::vector<std::unique_ptr<SaveObject>>& objects) {
  g_bad_pointers = 0;
  SaveFile in(owners());
  Status st = in.begin_load_bytes(file);
  in.declare_block(g_fused_level, sizeof g_fused_level);
  if (st) st = in.process_objects();
  st = in.end(st);
  objects = in.take_objects();
  return st;
}

// Where the first object's stream starts in the body (schema, 'S', count, ids, hash, length).
usize data_at(const ByteBuffer& body) {
  u32 schema_size = 0;
  std::memcpy(&schema_size, body.data(), 4);
  u32 count = 0;
  std::memcpy(&count, body.data() + 4 + schema_size + 1, 4);
  return 4 + schema_size + 1 + 4 + 4 * usize{count} + 4 + 8;
}

// The first object (owner 0): value, peer, thing, watched (block index, offset).
constexpr usize kPeer = 4;
constexpr usize kThing = 8;
constexpr usize kWatched = 12;

u32 get32(const ByteBuffer& body, usize at) {
  u32 v = 0;
  std::memcpy(&v, body.data() + at, 4);
  return v;
}
void put32(ByteBuffer& body, usize at, u32 v) { std::memcpy(body.data() + at, &v, 4); }

TEST(SaveFusedLoad, RestoresObjectAndBlockPointers) {
  Scene scene;
  std::vector<std::unique_ptr<SaveObject>> objects;
  ASSERT_TRUE(load(seal(save_body(scene)), objects));
  ASSERT_EQ(objects.size(), 6u);
  auto* o0 = dynamic_cast<Owner*>(objects[0].get());
  ASSERT_NE(o0, nullptr);
  const Owner* o = o0;
  for (u32 i = 0; i < 3; ++i) {
    ASSERT_NE(o, nullptr);
    EXPECT_EQ(o->value, 10 + i);
    ASSERT_NE(o->thing, nullptr);
    EXPECT_EQ(o->thing->weight, 20 + i);
    EXPECT_EQ(o->thing->back, o);
    if (i < 2) {
      EXPECT_EQ(o->watched, &o->peer->value);  // into the next loaded owner
    } else {
      EXPECT_EQ(o->watched, &g_fused_level[5]);
    }
    o = o->peer;
  }
  EXPECT_EQ(o, o0);
}

TEST(SaveFusedLoad, ALinkToTheWrongClassFailsAndNoParkedIndexReachesADestructor) {
  Scene scene;
  ByteBuffer body = save_body(scene);
  const usize at = data_at(body);
  put32(body, at + kPeer, get32(body, at + kThing));  // owner 0's peer: its thing
  std::vector<std::unique_ptr<SaveObject>> objects;
  const Status st = load(seal(body), objects);
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message().find("wrong class"), std::string::npos) << st.error().message();
  EXPECT_TRUE(objects.empty());
  EXPECT_EQ(g_bad_pointers, 0);
}

TEST(SaveFusedLoad, AnObjectIndexPastTheSetFails) {
  Scene scene;
  ByteBuffer body = save_body(scene);
  put32(body, data_at(body) + kThing, 7);  // six objects
  std::vector<std::unique_ptr<SaveObject>> objects;
  const Status st = load(seal(body), objects);
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message().find("object index out of range"), std::string::npos)
      << st.error().message();
  EXPECT_TRUE(objects.empty());
  EXPECT_EQ(g_bad_pointers, 0);
}

TEST(SaveFusedLoad, BlockPointersAreCheckedOnceEveryBlockExists) {
  Scene scene;
  const ByteBuffer good = save_body(scene);
  const usize at = data_at(good);
  ASSERT_GT(get32(good, at + kWatched), 1u);  // an object's own block, after the level
  struct Case {
    u32 block;
    u32 offset;
    const char* message;
  };
  const Case cases[] = {
      {get32(good, at + kWatched), 4096, "offset beyond its block"},
      {get32(good, at + kWatched), 1, "misaligned"},
      {1, sizeof g_fused_level, "offset beyond its block"},
      {99, 0, "block index out of range"},
  };
  for (const Case& c : cases) {
    ByteBuffer body = good;
    put32(body, at + kWatched, c.block);
    put32(body, at + kWatched + 4, c.offset);
    std::vector<std::unique_ptr<SaveObject>> objects;
    const Status st = load(seal(body), objects);
    ASSERT_FALSE(st) << c.message;
    EXPECT_NE(st.error().message().find(c.message), std::string::npos) << st.error().message();
    EXPECT_TRUE(objects.empty());
    EXPECT_EQ(g_bad_pointers, 0);
  }
}

TEST(SaveFusedLoad, AStreamCutShortFailsWithEveryParkedSlotCleared) {
  Scene scene;
  ByteBuffer body = save_body(scene);
  // Drop the last object's bytes: the set's data length and the custom data table stay, so
  // the stream of the last object runs into the table's length.
  const usize at = data_at(body);
  u64 length = 0;
  std::memcpy(&length, body.data() + at - 8, 8);
  ASSERT_GT(length, 8u);
  length -= 8;
  std::memcpy(body.data() + at - 8, &length, 8);
  body.erase(body.begin() + static_cast<std::ptrdiff_t>(at + length),
             body.begin() + static_cast<std::ptrdiff_t>(at + length + 8));
  std::vector<std::unique_ptr<SaveObject>> objects;
  const Status st = load(seal(body), objects);
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message().find("data ends early"), std::string::npos)
      << st.error().message();
  EXPECT_TRUE(objects.empty());
  EXPECT_EQ(g_bad_pointers, 0);
}

}  // namespace
}  // namespace keel::save
