// Checks D1 (templates and macros) and D2 (round trip and pointer fix-up) of the spec.
#include "keel/core/testing/alloc_counter.h"
#include "keel/save/save_file.h"
#include "keel/save/system.h"
#include "keel/save/testing/book_objects.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstring>

namespace keel::save {
namespace {

using testing::BookScene;
using testing::ExObj1;
using testing::ExObj2;
using testing::ExObj3;

// The book's 32-bit layout, reproduced with 4-byte members (pointers as u32).
namespace book32 {
struct ExObj1 {
  KEEL_SAVE_STRUCT();
  u32 nextObject = 0;
  u32 objID = 0;
  u32 objName = 0;
  f32 matrix[4][4] = {};
};
struct ExObj2 : ExObj1 {
  KEEL_SAVE_STRUCT();
  f32 velocity[4] = {};
  u32 health = 0;
  u32 maxHealth = 0;
};
KEEL_SAVE_TEMPLATE(ExObj1) = {KEEL_SAVEDEF(ExObj1),          KEEL_SAVEDATA(ExObj1, nextObject),
                              KEEL_SAVEDATA(ExObj1, objID),  KEEL_SAVEDATA(ExObj1, objName),
                              KEEL_SAVEDATA(ExObj1, matrix), KEEL_SAVEEND()};
KEEL_SAVE_TEMPLATE(ExObj2) = {KEEL_SAVEDEF(ExObj2),
                              KEEL_SAVEBASE(ExObj2, ExObj1),
                              KEEL_SAVEDATA(ExObj2, velocity),
                              KEEL_SAVEDATA(ExObj2, health),
                              KEEL_SAVEDATA(ExObj2, maxHealth),
                              KEEL_SAVEEND()};
}  // namespace book32

// x86-64 ExObj1 without a vptr.
struct PlainExObj1 {
  KEEL_SAVE_STRUCT();
  void* nextObject = nullptr;
  u32 objID = 0;
  const char* objName = nullptr;
  f32 matrix[4][4] = {};
};
KEEL_SAVE_TEMPLATE(PlainExObj1) = {
    KEEL_SAVEDEF(PlainExObj1),          KEEL_SAVEPTR(PlainExObj1, nextObject),
    KEEL_SAVEDATA(PlainExObj1, objID),  KEEL_SAVEPTR(PlainExObj1, objName),
    KEEL_SAVEDATA(PlainExObj1, matrix), KEEL_SAVEEND()};

struct Vec {
  KEEL_SAVE_STRUCT();
  f32 x = 0, y = 0, z = 0;
};
KEEL_SAVE_TEMPLATE(Vec) = {KEEL_SAVEDEF(Vec), KEEL_SAVEDATA(Vec, x), KEEL_SAVEDATA(Vec, y),
                           KEEL_SAVEDATA(Vec, z), KEEL_SAVEEND()};

class Mover : public SaveObject {
  KEEL_SAVABLE(Mover, 9)
  u32 id = 0;
  Vec pos;
};
KEEL_SAVE_TEMPLATE(Mover) = {KEEL_SAVEDEF(Mover), KEEL_SAVEDATA(Mover, id),
                             KEEL_SAVESTRUCT(Mover, pos), KEEL_SAVEEND()};

// A template naming private members: compiles because it is a static member (D1 3).
class Secretive : public SaveObject {
  KEEL_SAVABLE(Secretive, 10)
  u32 value() const { return hidden_; }
  void set(u32 v) { hidden_ = v; }

 private:
  u32 hidden_ = 0;
  u32 also_hidden_ = 0;
};
KEEL_SAVE_TEMPLATE(Secretive) = {KEEL_SAVEDEF(Secretive), KEEL_SAVEDATA(Secretive, hidden_),
                                 KEEL_SAVEDATA(Secretive, also_hidden_), KEEL_SAVEEND()};

const Record* find(const Record* t, const char* name) {
  for (; t->type != RecordType::kEndOfTemplate; ++t) {
    if (t->name != nullptr && std::strcmp(t->name, name) == 0) return t;
  }
  return nullptr;
}

SaveSystem system_for_tests() { return testing::book_system(); }

struct Loaded {
  std::vector<std::unique_ptr<SaveObject>> objects;
  template <class T>
  T* at(usize i) {
    return &dynamic_cast<T&>(*objects.at(i));
  }
};

Result<Loaded> load_scene(const SaveSystem& system, ByteSpan file, const char* level,
                          usize level_size = 64) {
  SaveFile f(system);
  Status st = f.begin_load_bytes(file);
  u32 client = 0;
  if (st) st = f.get_value(client);
  if (st && client != 0xABCD) st = fail(ErrorCode::kCorrupt, "client header");
  if (st) {
    f.declare_block(level, level_size);
    st = f.process_objects();
  }
  st = f.end(st);
  if (!st) return Unexpected(st.error());
  return Loaded{f.take_objects()};
}

TEST(SaveD1, Check01_RecordContents) {
  ExObj1 obj;
  const Record* t = ExObj1::keel_save_template;
  EXPECT_EQ(t[0].type, RecordType::kClassName);
  EXPECT_EQ(t[0].length, sizeof(ExObj1));
  EXPECT_STREQ(t[0].name, "ExObj1");
  const Record* id = find(t, "objID");
  ASSERT_NE(id, nullptr);
  EXPECT_EQ(id->type, RecordType::kPassive);
  EXPECT_EQ(id->length, 4u);
  EXPECT_EQ(id->sub, nullptr);
  // After SaveObject (vptr 8, the save's mark 4, padding 4: nextObject is a pointer) and
  // nextObject.
  EXPECT_EQ(id->offset_in(&obj), 24u);
  EXPECT_EQ(find(t, "objName")->type, RecordType::kPointer);
  EXPECT_EQ(find(t, "objName")->length, sizeof(void*));
  EXPECT_EQ(find(t, "nextObject")->type, RecordType::kSaveObject);
  EXPECT_EQ(find(ExObj2::keel_save_template, "cache")->type, RecordType::kSkip);
  const Record end = KEEL_SAVEEND();
  EXPECT_EQ(end.type, RecordType::kEndOfTemplate);
  EXPECT_EQ(end.length, 0u);
  EXPECT_EQ(end.locate, nullptr);
  EXPECT_EQ(end.sub, nullptr);
  EXPECT_EQ(end.name, nullptr);
}

TEST(SaveD1, Check02_LayoutNumbers) {
  book32::ExObj2 o;
  const Record* t1 = book32::ExObj1::keel_save_template;
  EXPECT_EQ(find(t1, "nextObject")->offset_in(&o), 0u);
  EXPECT_EQ(find(t1, "objID")->offset_in(&o), 4u);
  EXPECT_EQ(find(t1, "objName")->offset_in(&o), 8u);
  EXPECT_EQ(find(t1, "matrix")->offset_in(&o), 12u);
  EXPECT_EQ(find(t1, "matrix")->length, 64u);
  EXPECT_EQ(sizeof(book32::ExObj1), 76u);
  const Record* t2 = book32::ExObj2::keel_save_template;
  EXPECT_EQ(find(t2, "velocity")->offset_in(&o), 76u);
  EXPECT_EQ(find(t2, "velocity")->length, 16u);
  EXPECT_EQ(find(t2, "health")->offset_in(&o), 92u);
  EXPECT_EQ(find(t2, "maxHealth")->offset_in(&o), 96u);
  EXPECT_EQ(sizeof(book32::ExObj2), 100u);
  PlainExObj1 p;
  const Record* tp = PlainExObj1::keel_save_template;
  EXPECT_EQ(find(tp, "nextObject")->offset_in(&p), 0u);
  EXPECT_EQ(find(tp, "objID")->offset_in(&p), 8u);
  EXPECT_EQ(find(tp, "objName")->offset_in(&p), 16u);
  EXPECT_EQ(find(tp, "matrix")->offset_in(&p), 24u);
  EXPECT_EQ(sizeof(PlainExObj1), 88u);
}

TEST(SaveD1, Check03_PrivateMembersInOwnTemplate) {
  // The base-class half of the check is the compile-fail test SaveD1.Check03_...DoesNotCompile.
  SaveSystem system({type<Secretive>()});
  EXPECT_TRUE(system.problems().empty());
  Secretive s;
  s.set(42);
  SaveFile out(system);
  ASSERT_TRUE(out.begin_save({}));
  out.declare_object(&s);
  ASSERT_TRUE(out.end(out.process_objects()));
  SaveFile in(system);
  ASSERT_TRUE(in.begin_load_bytes(out.bytes()));
  ASSERT_TRUE(in.end(in.process_objects()));
  auto objects = in.take_objects();
  EXPECT_EQ(dynamic_cast<Secretive&>(*objects.at(0)).value(), 42u);
}

TEST(SaveD1, Check04_BaseFieldsFirst) {
  const Record& base = ExObj2::keel_save_template[1];
  EXPECT_EQ(base.type, RecordType::kClass);
  EXPECT_EQ(base.length, sizeof(ExObj1));
  EXPECT_EQ(base.sub, ExObj1::keel_save_template);
  ExObj2 b;
  EXPECT_EQ(base.offset_in(&b), 0u);
  // Saved alone, an ExObj2 streams ExObj1's fields first, then velocity, health, maxHealth, buf.
  b.objID = 0x11223344;
  b.velocity[0] = 1.0f;
  b.health = 0x55;
  b.maxHealth = 0x66;
  SaveSystem system = system_for_tests();
  SaveFile out(system);
  ASSERT_TRUE(out.begin_save({}, {Compression::kNone}));
  out.declare_object(&b);
  ASSERT_TRUE(out.end(out.process_objects()));
  const ByteSpan body = out.body();
  // Object data: next (u32 0), objID, objName (u32 0), matrix 64, velocity 16, health, max, buf.
  const usize data_size = 4 + 4 + 4 + 64 + 16 + 4 + 4 + 32;
  const usize start = body.size() - 8 - data_size;  // 8: the empty custom-data section
  u32 v = 0;
  std::memcpy(&v, body.data() + start + 4, 4);
  EXPECT_EQ(v, 0x11223344u);
  f32 vel = 0;
  std::memcpy(&vel, body.data() + start + 12 + 64, 4);
  EXPECT_EQ(vel, 1.0f);
  std::memcpy(&v, body.data() + start + 12 + 64 + 16, 4);
  EXPECT_EQ(v, 0x55u);
  std::memcpy(&v, body.data() + start + 12 + 64 + 20, 4);
  EXPECT_EQ(v, 0x66u);
}

TEST(SaveD1, Check05_SaveStruct) {
  Mover m;
  const Record* pos = find(Mover::keel_save_template, "pos");
  EXPECT_EQ(pos->type, RecordType::kClass);
  EXPECT_EQ(pos->sub, Vec::keel_save_template);
  EXPECT_EQ(pos->length, 12u);
  // vptr 8 + the save's mark 4 + id 4 (in SaveObject's tail padding; the spec's 4 on 32-bit).
  EXPECT_EQ(pos->offset_in(&m), 16u);
  SaveSystem system({type<Mover>(), structure<Vec>()});
  EXPECT_TRUE(system.problems().empty());
  m.id = 3;
  m.pos = {1.5f, -2.f, 8.f};
  SaveFile out(system);
  ASSERT_TRUE(out.begin_save({}));
  out.declare_object(&m);
  ASSERT_TRUE(out.end(out.process_objects()));
  SaveFile in(system);
  ASSERT_TRUE(in.begin_load_bytes(out.bytes()));
  ASSERT_TRUE(in.end(in.process_objects()));
  auto objects = in.take_objects();
  auto& got = dynamic_cast<Mover&>(*objects.at(0));
  EXPECT_EQ(got.id, 3u);
  EXPECT_EQ(got.pos.x, 1.5f);
  EXPECT_EQ(got.pos.y, -2.f);
  EXPECT_EQ(got.pos.z, 8.f);
}

// A second save of a world of the same size through the same system reserves its lists, index
// and body up front (sizes of the last save): fewer allocations, the same bytes.
TEST(SaveSpeed, SecondSaveReservesFromTheLastOne) {
  SaveSystem system({type<Mover>(), structure<Vec>()});
  std::vector<Mover> movers(5000);
  for (u32 i = 0; i < movers.size(); ++i) movers[i].id = i;
  auto save = [&](u64& allocations) {
    keel::testing::AllocationScope scope;
    SaveFile out(system);
    EXPECT_TRUE(out.begin_save({}));
    for (Mover& m : movers) out.declare_object(&m);
    EXPECT_TRUE(out.end(out.process_objects()));
    ByteBuffer bytes = out.bytes();
    allocations = scope.count();
    return bytes;
  };
  u64 first = 0;
  u64 second = 0;
  const ByteBuffer a = save(first);
  const ByteBuffer b = save(second);
  EXPECT_EQ(a, b);
  EXPECT_LT(second * 2, first) << "first save " << first << ", second " << second;
}

// A save session hands its buffers (object list, index, block list, body...) back to the system
// when it ends, and the next save takes them: a repeated save of the same world asks for almost
// no memory, and a smaller save in between or a save through another system is unaffected.
TEST(SaveSpeed, LaterSavesReuseTheLastSessionsBuffers) {
  SaveSystem system({type<Mover>(), structure<Vec>()});
  std::vector<Mover> movers(5000);
  for (u32 i = 0; i < movers.size(); ++i) {
    movers[i].id = i;
    movers[i].pos.x = static_cast<f32>(i);
  }
  auto save = [&](const SaveSystem& through, usize count, u64& bytes_asked) {
    keel::testing::AllocationScope scope;
    SaveFile out(through);
    EXPECT_TRUE(out.begin_save({}, {.compression = Compression::kNone}));
    for (usize i = 0; i < count; ++i) out.declare_object(&movers[i]);
    EXPECT_TRUE(out.end(out.process_objects()));
    ByteBuffer bytes = out.bytes();
    bytes_asked = scope.bytes();
    return bytes;
  };
  u64 first = 0;
  u64 small = 0;
  u64 again = 0;
  u64 unused = 0;
  const ByteBuffer big = save(system, movers.size(), first);
  const ByteBuffer few = save(system, 100, small);
  const ByteBuffer big2 = save(system, movers.size(), again);
  SaveSystem fresh({type<Mover>(), structure<Vec>()});
  EXPECT_EQ(few, save(fresh, 100, unused));  // nothing of the big save leaks into a small one
  EXPECT_EQ(big, big2);
  // The third save still allocates its encoded file (returned by bytes()) and its copy here.
  EXPECT_LT(again * 2, first) << "first save asked for " << first << " bytes, the third " << again;
}

// D1 6 is the compile-fail test SaveD1.Check06_RemovedMemberDoesNotCompile (CMakeLists.txt).

TEST(SaveD2, Check07_PassiveRoundTrip) {
  SaveSystem system = system_for_tests();
  BookScene scene;
  auto file = testing::save_scene(system, scene);
  ASSERT_TRUE(file) << file.error().to_string();
  alignas(8) char level[64] = {};
  auto loaded = load_scene(system, *file, level);
  ASSERT_TRUE(loaded) << loaded.error().to_string();
  auto* b = loaded->at<ExObj2>(1);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->objID, 20u);
  EXPECT_EQ(b->matrix[3][3], 1.5f);
  EXPECT_EQ(b->velocity[1], 2.5f);
  EXPECT_EQ(b->health, 77u);
  EXPECT_EQ(b->maxHealth, 100u);
  EXPECT_EQ(std::memcmp(b->matrix, scene.b.matrix, sizeof b->matrix), 0);
}

TEST(SaveD2, Check08_PointerIntoBlock) {
  SaveSystem system = system_for_tests();
  BookScene scene;
  auto file = testing::save_scene(system, scene, {Compression::kNone});
  ASSERT_TRUE(file);
  auto level = std::make_unique<char[]>(64);  // the level at a different address
  auto loaded = load_scene(system, *file, level.get());
  ASSERT_TRUE(loaded) << loaded.error().to_string();
  EXPECT_EQ(loaded->at<ExObj1>(0)->objName, level.get() + 0);
  EXPECT_EQ(loaded->at<ExObj2>(1)->objName, level.get() + 6);
}

TEST(SaveD2, Check09_NullPointerHasNoOffset) {
  SaveSystem system = system_for_tests();
  BookScene scene;
  scene.c.objName = nullptr;
  auto with_null = testing::save_scene(system, scene, {Compression::kNone});
  scene.c.objName = scene.level + 1;
  auto with_ptr = testing::save_scene(system, scene, {Compression::kNone});
  ASSERT_TRUE(with_null && with_ptr);
  EXPECT_EQ(with_ptr->size() - with_null->size(), 4u);  // 4 bytes for null, 8 for a pointer
  alignas(8) char level[64] = {};
  scene.c.objName = nullptr;
  auto loaded = load_scene(system, *with_null, level);
  ASSERT_TRUE(loaded);
  EXPECT_EQ(loaded->at<ExObj1>(2)->objName, nullptr);
}

TEST(SaveD2, Check10_UnsavablePointer) {
  SaveSystem system = system_for_tests();
  BookScene scene;
  static const char elsewhere[8] = "x";
  scene.b.objName = elsewhere;
  auto file = testing::save_scene(system, scene);
  ASSERT_FALSE(file);
  EXPECT_EQ(file.error().code(), ErrorCode::kInvalidArgument);
  EXPECT_NE(file.error().message().find("points into no declared memory block"), std::string::npos);
  EXPECT_NE(file.error().message().find("objName"), std::string::npos);
}

TEST(SaveD2, Check11_GraphDiscoveryFromOneRoot) {
  SaveSystem system = system_for_tests();
  BookScene scene;
  SaveFile out(system);
  ASSERT_TRUE(out.begin_save({}, {Compression::kNone}));
  out.declare_block(scene.level, 64);
  EXPECT_EQ(out.declare_object(&scene.a), 1u);
  EXPECT_EQ(out.declare_object(&scene.a), 1u);  // duplicates return the same index
  ASSERT_TRUE(out.process_objects());
  EXPECT_EQ(out.object_count(), 0u);  // lists cleared
  ASSERT_TRUE(out.end());
  const ByteSpan body = out.body();
  u32 schema = 0;
  std::memcpy(&schema, body.data(), 4);
  const std::byte* set = body.data() + 4 + schema + 1;  // after the 'S' tag
  u32 words[4];
  std::memcpy(words, set, sizeof words);
  EXPECT_EQ(words[0], 3u);  // N
  EXPECT_EQ(words[1], 1u);  // discovery order: a (ExObj1), b (ExObj2), c (ExObj1)
  EXPECT_EQ(words[2], 2u);
  EXPECT_EQ(words[3], 1u);
  const std::byte* data = set + 16 + 4 + 8;  // ids, hash, data length
  u32 next_a = 0, next_b = 0, next_c = 0;
  std::memcpy(&next_a, data, 4);
  std::memcpy(&next_b, data + 80, 4);
  std::memcpy(&next_c, data + 80 + 136, 4);
  EXPECT_EQ(next_a, 2u);
  EXPECT_EQ(next_b, 3u);
  EXPECT_EQ(next_c, 1u);
  alignas(8) char level[64] = {};
  SaveFile in(system);
  ASSERT_TRUE(in.begin_load_bytes(out.bytes()));
  in.declare_block(level, 64);
  ASSERT_TRUE(in.end(in.process_objects()));
  auto objects = in.take_objects();
  ASSERT_EQ(objects.size(), 3u);
  auto* a = dynamic_cast<ExObj1*>(objects[0].get());
  ASSERT_NE(a, nullptr);
  ASSERT_NE(a->nextObject, nullptr);
  ASSERT_NE(a->nextObject->nextObject, nullptr);
  EXPECT_EQ(a->objID, 10u);
  EXPECT_EQ(a->nextObject->objID, 20u);
  EXPECT_EQ(a->nextObject->nextObject->objID, 30u);
  EXPECT_EQ(a->nextObject->nextObject->nextObject, a);
}

TEST(SaveD2, Check12_PointerToMemberOfAnotherObject) {
  SaveSystem system = system_for_tests();
  BookScene scene;
  ExObj3 watcher;
  watcher.watched = &scene.b.health;
  watcher.inBuf = scene.b.buf + 5;
  watcher.nextObject = &scene.a;
  SaveFile out(system);
  ASSERT_TRUE(out.begin_save({}));
  out.declare_block(scene.level, 64);
  out.declare_object(&watcher);
  ASSERT_TRUE(out.end(out.process_objects())) << out.status().error().to_string();
  alignas(8) char level[64] = {};
  SaveFile in(system);
  ASSERT_TRUE(in.begin_load_bytes(out.bytes()));
  in.declare_block(level, 64);
  ASSERT_TRUE(in.end(in.process_objects()));
  auto objects = in.take_objects();
  auto* w = dynamic_cast<ExObj3*>(objects[0].get());
  ASSERT_NE(w, nullptr);
  ASSERT_NE(w->nextObject, nullptr);
  auto* b = dynamic_cast<ExObj2*>(w->nextObject->nextObject);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(w->watched, &b->health);
  EXPECT_EQ(*w->watched, 77u);
  EXPECT_EQ(w->inBuf, b->buf + 5);
}

TEST(SaveD2, Check13_SaveIdAndFactory) {
  SaveSystem system = system_for_tests();
  BookScene scene;
  auto file = testing::save_scene(system, scene);
  ASSERT_TRUE(file);
  alignas(8) char level[64] = {};
  auto loaded = load_scene(system, *file, level);
  ASSERT_TRUE(loaded);
  EXPECT_EQ(loaded->objects[0]->save_id(), 1u);
  EXPECT_EQ(loaded->objects[1]->save_id(), 2u);
  EXPECT_NE(loaded->at<ExObj2>(1), nullptr);
  // A system that does not know ExObj2 refuses the save id.
  SaveSystem partial({type<ExObj1>()}, SystemOptions{true, false});
  SaveFile other(partial);
  auto st = other.begin_load_bytes(*file);
  ASSERT_FALSE(st);  // another version: the type list differs
  EXPECT_EQ(st.error().code(), ErrorCode::kUnsupported);
}

TEST(SaveD2, Check14_ByteExactLayout) {
  SaveSystem system = system_for_tests();
  BookScene scene;
  SaveFile out(system);
  ASSERT_TRUE(out.begin_save({}, {Compression::kNone}));
  ASSERT_TRUE(out.put_value(u32{0xABCD}));
  out.declare_block(scene.level, 64);
  out.declare_object(&scene.a);
  ASSERT_TRUE(out.end(out.process_objects()));
  const ByteSpan body = out.body();
  u32 schema = 0;
  std::memcpy(&schema, body.data(), 4);
  // Client data: tag + u64 length + 4 bytes; set: tag, N, 3 ids, hash, u64 length, objects,
  // u64 custom-data size. The spec's 320 bytes: 4 (version, here in the file header) + 4 + 4 +
  // 12 + 4 + 80 + 136 + 76; our framing adds the tags and lengths.
  EXPECT_EQ(body.size(), 4 + schema + (1 + 8 + 4) + (1 + 4 + 12 + 4 + 8 + 292 + 8));
  const std::byte* objects = body.data() + 4 + schema + 13 + 1 + 4 + 12 + 4;
  u64 data_length = 0;
  std::memcpy(&data_length, objects, 8);
  EXPECT_EQ(data_length, 80u + 136u + 76u);
  const std::byte* a = objects + 8;
  u32 w[4];
  std::memcpy(w, a, sizeof w);
  EXPECT_EQ(w[0], 2u);   // next = b
  EXPECT_EQ(w[1], 10u);  // objID
  EXPECT_EQ(w[2], 1u);   // objName: block 1
  EXPECT_EQ(w[3], 0u);   // offset 0
  const std::byte* c = a + 80 + 136;
  std::memcpy(w, c, 12);
  EXPECT_EQ(w[0], 1u);  // next = a
  EXPECT_EQ(w[1], 30u);
  EXPECT_EQ(w[2], 0u);  // null: no offset follows
}

}  // namespace
}  // namespace keel::save
