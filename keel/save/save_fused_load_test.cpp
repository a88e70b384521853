// A set whose classes keep the default load hooks is loaded without the book's hooks: every
// object is created first (its class comes from the save ids, which precede the data), then one
// pass over the stream reads each object and points each link straight at its target, forward
// links included. The objects must come out as the book's passes make them, a crafted link must
// fail the load, and a failed load must leave nothing: no object alive, no slot holding anything
// but a checked pointer (the destructors below check every pointer they hold).
#include "keel/save/format.h"
#include "keel/save/inspect.h"
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
int g_live = 0;  // Owners and Things alive

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
    ++g_live;
    g_ever.insert(this);
    g_ever.insert(&value);
  }
  ~Owner() override {
    --g_live;
    check_pointer(peer);
    check_pointer(thing);
    check_pointer(watched);
  }
};
class Thing : public SaveObject {
  KEEL_SAVABLE(Thing, 71)
  u32 weight = 0;
  Owner* back = nullptr;
  Thing() {
    ++g_live;
    g_ever.insert(this);
  }
  ~Thing() override {
    --g_live;
    check_pointer(back);
  }
};
// A Thing with more to it, made by a factory now and then (no save id of its own).
class BigThing : public Thing {
 public:
  u32 extra = 0;
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

// Every other Thing the factory makes is a BigThing: not the class the plan was measured on.
std::unique_ptr<SaveObject> make_thing() {
  static u32 made = 0;
  if (made++ % 2 == 1) return std::make_unique<BigThing>();
  return std::make_unique<Thing>();
}

const SaveSystem& owners_with_factory() {
  static const SaveSystem s({type<Owner>(), type<Thing>(&make_thing)});
  return s;
}

Status load(ByteSpan file, std::vector<std::unique_ptr<SaveObject>>& objects,
            const SaveSystem& system = owners()) {
  g_bad_pointers = 0;
  SaveFile in(system);
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

TEST(SaveFusedLoad, ALinkToTheWrongClassFailsAndNoBadPointerReachesADestructor) {
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

TEST(SaveFusedLoad, BlockPointersAreCheckedAsTheyAreRead) {
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

TEST(SaveFusedLoad, AStreamCutShortFailsAndNoBadPointerReachesADestructor) {
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

// Discovery makes most links point forward (owner 0 found owner 1 and thing 0 through its own
// links): each is resolved as its object's stream is read, the target created before the data.
TEST(SaveFusedLoad, ForwardLinksAndPointersIntoLaterObjectsResolveInTheDataPass) {
  Scene scene;
  const ByteBuffer body = save_body(scene);
  const usize at = data_at(body);
  EXPECT_EQ(get32(body, at + kPeer), 2u);     // owner 1: the second object
  EXPECT_EQ(get32(body, at + kThing), 3u);    // thing 0: the third
  EXPECT_EQ(get32(body, at + kWatched), 3u);  // owner 1's own block (after the level)
  std::vector<std::unique_ptr<SaveObject>> objects;
  ASSERT_TRUE(load(seal(body), objects));
  ASSERT_EQ(objects.size(), 6u);
  auto* o0 = dynamic_cast<Owner*>(objects[0].get());
  auto* o1 = dynamic_cast<Owner*>(objects[1].get());
  auto* t0 = dynamic_cast<Thing*>(objects[2].get());
  ASSERT_NE(o0, nullptr);
  ASSERT_NE(o1, nullptr);
  ASSERT_NE(t0, nullptr);
  EXPECT_EQ(o0->peer, o1);
  EXPECT_EQ(o0->thing, t0);
  EXPECT_EQ(o0->watched, &o1->value);
  EXPECT_EQ(o1->value, 11u);
  EXPECT_EQ(t0->back, o0);  // a backward link
}

// The last object's link is bad: every object before it was read and linked when the load fails.
// Nothing is handed over, every object made is destroyed, and no destructor sees a bad pointer.
TEST(SaveFusedLoad, AHostileFileFailingHalfWayLeavesNothing) {
  Scene scene;
  ByteBuffer body = save_body(scene);
  const usize at = data_at(body);
  u64 length = 0;
  std::memcpy(&length, body.data() + at - 8, 8);
  const usize last_back = at + static_cast<usize>(length) - 4;  // thing 2's owner, last in the set
  ASSERT_EQ(get32(body, last_back), 4u);                        // owner 2
  put32(body, last_back, 7);
  const int live = g_live;
  std::vector<std::unique_ptr<SaveObject>> objects;
  const Status st = load(seal(body), objects);
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message().find("object 6 (Thing) member 'back': object index out of range"),
            std::string::npos)
      << st.error().message();
  EXPECT_TRUE(objects.empty());
  EXPECT_EQ(g_live, live);
  EXPECT_EQ(g_bad_pointers, 0);
}

// A set claiming more objects than its data can hold fails before any object is created (the
// objects a file can make are bounded by its bytes).
TEST(SaveFusedLoad, DataShorterThanItsObjectsNeedFailsBeforeCreatingAny) {
  Scene scene;
  ByteBuffer body = save_body(scene);
  const usize at = data_at(body);
  u64 length = 0;
  std::memcpy(&length, body.data() + at - 8, 8);
  body.erase(body.begin() + static_cast<std::ptrdiff_t>(at + 8),
             body.begin() + static_cast<std::ptrdiff_t>(at + length));
  length = 8;
  std::memcpy(body.data() + at - 8, &length, 8);
  const int live = g_live;
  int most = 0;
  std::vector<std::unique_ptr<SaveObject>> objects;
  {
    SaveFile in(owners());
    const ByteBuffer file = seal(body);
    Status st = in.begin_load_bytes(file);
    in.declare_block(g_fused_level, sizeof g_fused_level);
    if (st) st = in.process_objects();
    most = g_live;
    st = in.end(st);
    ASSERT_FALSE(st);
    EXPECT_NE(st.error().message().find("shorter than its 6 objects' templates need"),
              std::string::npos)
        << st.error().message();
  }
  EXPECT_EQ(most, live);  // none was made
  EXPECT_EQ(g_live, live);
}

// A factory that makes another class than its plan's (here every other Thing) sends the set to
// the book's passes, which load it through the objects' virtual hooks: the same objects.
TEST(SaveFusedLoad, AFactoryMakingAnotherClassTakesTheBooksPasses) {
  ASSERT_EQ(owners_with_factory().version(), owners().version());
  Scene scene;
  const int live = g_live;
  {
    std::vector<std::unique_ptr<SaveObject>> objects;
    ASSERT_TRUE(load(seal(save_body(scene)), objects, owners_with_factory()));
    ASSERT_EQ(objects.size(), 6u);
    int big = 0;
    const Owner* o = dynamic_cast<Owner*>(objects[0].get());
    for (u32 i = 0; i < 3; ++i) {
      ASSERT_NE(o, nullptr);
      EXPECT_EQ(o->value, 10 + i);
      ASSERT_NE(o->thing, nullptr);
      EXPECT_EQ(o->thing->weight, 20 + i);
      EXPECT_EQ(o->thing->back, o);
      big += dynamic_cast<const BigThing*>(o->thing) != nullptr ? 1 : 0;
      o = o->peer;
    }
    EXPECT_GT(big, 0);
    EXPECT_EQ(o, objects[0].get());
  }
  EXPECT_EQ(g_live, live);
  EXPECT_EQ(g_bad_pointers, 0);
}

// A third class, so that a set mixes three (chained tags, each naming an owner).
class Tag : public SaveObject {
  KEEL_SAVABLE(Tag, 72)
  u32 mark = 0;
  Owner* of = nullptr;
  Tag* next = nullptr;
};
KEEL_SAVE_TEMPLATE(Tag) = {KEEL_SAVEDEF(Tag), KEEL_SAVEDATA(Tag, mark), KEEL_SAVEPOBJ(Tag, of),
                           KEEL_SAVEPOBJ(Tag, next), KEEL_SAVEEND()};

const SaveSystem& owners_and_tags() {
  static const SaveSystem s({type<Owner>(), type<Thing>(), type<Tag>()});
  return s;
}

// The objects are made class by class (one factory after another), yet handed over in the
// file's order, each link pointing at the object of its index: checked object by object against
// the file itself (inspect()), for a set whose three classes the discovery interleaves.
TEST(SaveFusedLoad, ObjectsMadeClassByClassAreHandedOverInFileOrder) {
  constexpr u32 kOwners = 12;
  // (Sets of an odd and an even count: the object order is built from both halves at once.)
  std::set<usize> counts;  // odd, even
  for (const u32 kTags : {7u, 8u}) {
    SCOPED_TRACE(kTags);
    std::vector<Owner> owners_(kOwners);
    std::vector<Thing> things(kOwners);
    std::vector<Tag> tags(kTags);
    for (u32 i = 0; i < kOwners; ++i) {
      owners_[i].value = 100 + i;
      owners_[i].peer = &owners_[(i * 7 + 3) % kOwners];
      owners_[i].thing = i % 3 == 0 ? nullptr : &things[i];
      owners_[i].watched = i % 2 == 0 ? &owners_[(i * 7 + 3) % kOwners].value : &g_fused_level[i];
      things[i].weight = 200 + i;
      things[i].back = &owners_[i];
    }
    for (u32 j = 0; j < kTags; ++j) {
      tags[j].mark = 300 + j;
      tags[j].of = &owners_[(j * 5) % kOwners];
      tags[j].next = j + 1 < kTags ? &tags[j + 1] : nullptr;
    }
    SaveFile out(owners_and_tags());
    ASSERT_TRUE(out.begin_save({}, {Compression::kNone}));
    out.declare_block(g_fused_level, sizeof g_fused_level);
    out.declare_object(&tags[0]);
    const Status saved = out.end(out.process_objects());
    ASSERT_TRUE(saved) << saved.error().message();
    const ByteBuffer file = out.bytes();

    auto seen = inspect(file);
    ASSERT_TRUE(seen) << seen.error().message();
    ASSERT_EQ(seen->sets.size(), 1u);
    const std::vector<ObjectView>& views = seen->sets[0].objects;
    std::vector<std::unique_ptr<SaveObject>> objects;
    ASSERT_TRUE(load(file, objects, owners_and_tags()));
    ASSERT_EQ(objects.size(), views.size());
    EXPECT_EQ(g_bad_pointers, 0);
    std::set<u32> classes_seen;
    u32 class_changes = 0;
    auto value = [](const FieldValue& f) {
      u32 v = 0;
      std::memcpy(&v, f.bytes.data(), 4);
      return v;
    };
    auto at = [&](u32 index) -> SaveObject* {
      return index == 0 ? nullptr : objects.at(index - 1).get();
    };
    for (usize k = 0; k < views.size(); ++k) {
      const ObjectView& view = views[k];
      classes_seen.insert(view.save_id);
      if (k > 0 && views[k - 1].save_id != view.save_id) ++class_changes;
      ASSERT_EQ(objects[k]->save_id(), view.save_id) << "object " << k + 1;
      if (view.save_id == 70) {
        const auto& o = dynamic_cast<const Owner&>(*objects[k]);
        ASSERT_EQ(view.fields.size(), 4u);
        EXPECT_EQ(o.value, value(view.fields[0]));
        EXPECT_EQ(o.peer, at(view.fields[1].index));
        EXPECT_EQ(o.thing, at(view.fields[2].index));
        if (view.fields[3].index == 1) {
          EXPECT_EQ(o.watched, &g_fused_level[view.fields[3].offset / 4]);
        } else {
          EXPECT_EQ(o.watched, &dynamic_cast<const Owner&>(*at(view.fields[3].index - 1)).value);
        }
      } else if (view.save_id == 71) {
        const auto& t = dynamic_cast<const Thing&>(*objects[k]);
        EXPECT_EQ(t.weight, value(view.fields[0]));
        EXPECT_EQ(t.back, at(view.fields[1].index));
      } else {
        const auto& t = dynamic_cast<const Tag&>(*objects[k]);
        EXPECT_EQ(t.mark, value(view.fields[0]));
        EXPECT_EQ(t.of, at(view.fields[1].index));
        EXPECT_EQ(t.next, at(view.fields[2].index));
      }
    }
    EXPECT_EQ(classes_seen.size(), 3u);
    EXPECT_GE(class_changes, 10u);  // the classes really are interleaved in the file
    counts.insert(views.size() % 2);
  }
  EXPECT_EQ(counts.size(), 2u);
}

// An uncompressed file in memory is copied by begin_load_bytes and read in place by
// begin_load_in_place (the bytes stay valid until end()); a compressed one is decoded into the
// session's buffer either way: all load the same objects. begin_load_bytes' copy outlives the
// caller's buffer (overwritten before process_objects()).
TEST(SaveFusedLoad, FilesInMemoryLoadInPlaceOrDecoded) {
  Scene scene;
  const ByteBuffer body = save_body(scene);
  for (const bool in_place : {false, true}) {
    for (const Compression c : {Compression::kNone, Compression::kZstd}) {
      FileHeader header;
      header.compression = c;
      header.version = owners().version();
      auto file = encode_file(header, body);
      ASSERT_TRUE(file);
      SaveFile in(owners());
      Status st = in_place ? in.begin_load_in_place(*file) : in.begin_load_bytes(*file);
      ASSERT_TRUE(st);
      EXPECT_EQ(in.body().empty(), in_place && c == Compression::kNone);
      if (!in_place) std::fill(file->begin(), file->end(), std::byte{0xEE});  // the copy is used
      in.declare_block(g_fused_level, sizeof g_fused_level);
      st = in.end(in.process_objects());
      ASSERT_TRUE(st) << st.error().message();
      const auto objects = in.take_objects();
      ASSERT_EQ(objects.size(), 6u);
      EXPECT_EQ(dynamic_cast<Owner*>(objects[0].get())->value, 10u);
    }
  }
}

}  // namespace
}  // namespace keel::save
