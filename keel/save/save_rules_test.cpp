// Checks D3 (block hash and order), D4 (process rules) and D5 (hole detector) of the spec.
#include "keel/save/save_file.h"
#include "keel/save/system.h"
#include "keel/save/testing/book_objects.h"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <map>

namespace keel::save {
namespace {

SystemOptions no_log() {
  SystemOptions o;
  o.log_problems = false;
  return o;
}

using testing::BookScene;
using testing::ExObj1;
using testing::ExObj2;
using testing::ExObj4;

bool contains(const Error& e, std::string_view text) {
  return e.message().find(text) != std::string::npos;
}

Status load_with_blocks(const SaveSystem& system, ByteSpan file,
                        std::vector<std::pair<const void*, usize>> blocks,
                        std::vector<std::unique_ptr<SaveObject>>* out = nullptr) {
  SaveFile f(system);
  Status st = f.begin_load_bytes(file);
  u32 client = 0;
  if (st) st = f.get_value(client);
  if (st) {
    for (auto [base, size] : blocks) f.declare_block(base, size);
    st = f.process_objects();
  }
  st = f.end(st);
  if (st && out != nullptr) *out = f.take_objects();
  return st;
}

TEST(SaveD3, Check15_BlockSizeMismatch) {
  SaveSystem system = testing::book_system();
  BookScene scene;
  auto file = testing::save_scene(system, scene);
  ASSERT_TRUE(file);
  alignas(8) char level[65] = {};
  ExObj1::load_calls = 0;
  auto st = load_with_blocks(system, *file, {{level, 65}});
  ASSERT_FALSE(st);
  EXPECT_TRUE(contains(st.error(), "memory blocks differ")) << st.error().message();
  EXPECT_EQ(ExObj1::load_calls, 0);
  EXPECT_TRUE(load_with_blocks(system, *file, {{level, 64}}));
  EXPECT_EQ(ExObj1::load_calls, 3);
}

TEST(SaveD3, Check16_BlockOrderMismatch) {
  SaveSystem system = testing::book_system();
  BookScene scene;
  alignas(8) static char big[128] = {};
  SaveFile out(system);
  ASSERT_TRUE(out.begin_save({}));
  ASSERT_TRUE(out.put_value(u32{0xABCD}));
  out.declare_block(scene.level, 64);
  out.declare_block(big, 128);
  out.declare_object(&scene.a);
  ASSERT_TRUE(out.end(out.process_objects()));
  alignas(8) char level[64] = {};
  alignas(8) char big2[128] = {};
  auto swapped = load_with_blocks(system, out.bytes(), {{big2, 128}, {level, 64}});
  ASSERT_FALSE(swapped);
  EXPECT_TRUE(contains(swapped.error(), "memory blocks differ"));
  EXPECT_TRUE(load_with_blocks(system, out.bytes(), {{level, 64}, {big2, 128}}));
}

TEST(SaveD3, Check17_OwnedBlocksPlusLinks) {
  // b declares its own 32-byte buffer in pre_save and links to c, not yet declared: the block
  // order must be level, a, b, b.buf, c on both sides (object blocks declared in the pre-pass).
  SaveSystem system = testing::book_system();
  BookScene scene;
  testing::ExObj3 watcher;
  watcher.nextObject = &scene.b;
  watcher.inBuf = scene.b.buf + 31;
  scene.b.buf[31] = 0x7E;
  SaveFile out(system);
  ASSERT_TRUE(out.begin_save({}));
  ASSERT_TRUE(out.put_value(u32{0xABCD}));
  out.declare_block(scene.level, 64);
  out.declare_object(&watcher);
  ASSERT_TRUE(out.end(out.process_objects()));
  alignas(8) char level[64] = {};
  std::vector<std::unique_ptr<SaveObject>> objects;
  ASSERT_TRUE(load_with_blocks(system, out.bytes(), {{level, 64}}, &objects));
  auto* w = dynamic_cast<testing::ExObj3*>(objects.at(0).get());
  ASSERT_NE(w, nullptr);
  auto* b = dynamic_cast<ExObj2*>(w->nextObject);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(w->inBuf, b->buf + 31);
  EXPECT_EQ(*w->inBuf, 0x7E);
}

// Declares a block whose size depends on its state: breaks the rule of D3 18.
class Growing : public SaveObject {
  KEEL_SAVABLE(Growing, 20)
  std::vector<u32> items = std::vector<u32>(4);
  Status pre_save(SaveFile& f) override {
    if (auto st = SaveObject::pre_save(f); !st) return st;
    f.declare_block(items.data(), items.size() * sizeof(u32));
    return f.status();
  }
  Status pre_load(SaveFile& f) override {
    if (auto st = SaveObject::pre_load(f); !st) return st;
    f.declare_block(items.data(), items.size() * sizeof(u32));
    return f.status();
  }
};
KEEL_SAVE_TEMPLATE(Growing) = {KEEL_SAVEDEF(Growing), KEEL_DONTSAVE(Growing, items),
                               KEEL_SAVEEND()};

TEST(SaveD3, Check18_StateIndependentBlocks) {
  SaveSystem system({type<Growing>()});
  for (usize size : {4u, 8u}) {
    Growing g;
    g.items.resize(size);
    SaveFile out(system);
    ASSERT_TRUE(out.begin_save({}));
    out.declare_object(&g);
    ASSERT_TRUE(out.end(out.process_objects()));
    SaveFile in(system);
    ASSERT_TRUE(in.begin_load_bytes(out.bytes()));
    auto st = in.end(in.process_objects());
    // Same size as the default state: loads. A state-dependent size: refused, not misread.
    EXPECT_EQ(static_cast<bool>(st), size == 4) << size;
  }
}

class Chatty : public SaveObject {
  KEEL_SAVABLE(Chatty, 21)
  u32 v = 5;
  Status pre_save(SaveFile& f) override {
    if (auto st = SaveObject::pre_save(f); !st) return st;
    return f.put_value(v);
  }
};
KEEL_SAVE_TEMPLATE(Chatty) = {KEEL_SAVEDEF(Chatty), KEEL_SAVEDATA(Chatty, v), KEEL_SAVEEND()};

TEST(SaveD4, Check19_NoWritesDuringPreSave) {
  SaveSystem system({type<Chatty>()});
  Chatty c;
  SaveFile out(system);
  ASSERT_TRUE(out.begin_save({}));
  out.declare_object(&c);
  auto st = out.process_objects();
  ASSERT_FALSE(st);
  EXPECT_EQ(st.error().code(), ErrorCode::kRefused);
  EXPECT_FALSE(out.end(st));
  EXPECT_TRUE(out.bytes().empty());  // nothing reached a file
}

Result<ByteBuffer> save_with_custom(const SaveSystem& system) {
  BookScene scene;
  ExObj4 custom;
  custom.objID = 40;
  custom.samples = {1.f, 2.f, 3.f};
  custom.nextObject = &scene.a;  // later objects: a, b, c
  SaveFile out(system);
  Status st = out.begin_save({});
  if (st) st = out.put_value(u32{0xABCD});
  out.declare_block(scene.level, 64);
  out.declare_object(&custom);
  if (st) st = out.process_objects();
  st = out.end(st);
  if (!st) return Unexpected(st.error());
  return out.bytes();
}

TEST(SaveD4, Check20_CustomData) {
  SaveSystem system = testing::book_system();
  auto file = save_with_custom(system);
  ASSERT_TRUE(file);
  alignas(8) char level[64] = {};
  std::vector<std::unique_ptr<SaveObject>> objects;
  ExObj4::read_one_too_few = false;
  ASSERT_TRUE(load_with_blocks(system, *file, {{level, 64}}, &objects));
  auto* custom = dynamic_cast<ExObj4*>(objects.at(0).get());
  ASSERT_NE(custom, nullptr);
  EXPECT_EQ(custom->samples, (std::vector<f32>{1.f, 2.f, 3.f}));
  EXPECT_EQ(dynamic_cast<ExObj2&>(*objects.at(2)).health, 77u);  // later objects intact
  // The book's hazard (reading one value too few misaligns later objects) is detected here.
  ExObj4::read_one_too_few = true;
  auto st = load_with_blocks(system, *file, {{level, 64}});
  ExObj4::read_one_too_few = false;
  ASSERT_FALSE(st);
  EXPECT_TRUE(contains(st.error(), "left 4 bytes of its custom data unread"))
      << st.error().message();
}

TEST(SaveD4, Check21_OverrideChain) {
  SaveSystem system = testing::book_system();
  auto file = save_with_custom(system);
  ASSERT_TRUE(file);
  alignas(8) char level[64] = {};
  std::vector<std::unique_ptr<SaveObject>> objects;
  ASSERT_TRUE(load_with_blocks(system, *file, {{level, 64}}, &objects));
  auto* custom = dynamic_cast<ExObj4*>(objects.at(0).get());
  ASSERT_NE(custom, nullptr);
  ASSERT_NE(custom->nextObject, nullptr);
  EXPECT_EQ(custom->objID, 40u);  // the overridden save() still wrote the whole template
  EXPECT_EQ(custom->nextObject->objID, 10u);
}

TEST(SaveD4, Check22_ListsClearedTwoSets) {
  SaveSystem system = testing::book_system();
  BookScene one;
  BookScene two;
  two.a.objID = 1000;
  SaveFile out(system);
  ASSERT_TRUE(out.begin_save({}));
  out.declare_block(one.level, 64);
  out.declare_object(&one.a);
  ASSERT_TRUE(out.process_objects());
  EXPECT_EQ(out.object_count(), 0u);
  EXPECT_EQ(out.block_count(), 0u);
  ASSERT_TRUE(out.put_value(u32{0xDEAD}));
  out.declare_block(two.level, 64);
  out.declare_object(&two.a);
  ASSERT_TRUE(out.end(out.process_objects()));
  alignas(8) char level[64] = {};
  SaveFile in(system);
  ASSERT_TRUE(in.begin_load_bytes(out.bytes()));
  in.declare_block(level, 64);
  ASSERT_TRUE(in.process_objects());
  EXPECT_EQ(in.block_count(), 0u);
  u32 marker = 0;
  ASSERT_TRUE(in.get_value(marker));
  EXPECT_EQ(marker, 0xDEADu);
  in.declare_block(level, 64);
  ASSERT_TRUE(in.process_objects());
  ASSERT_TRUE(in.end());
  auto objects = in.take_objects();
  ASSERT_EQ(objects.size(), 6u);
  EXPECT_EQ(dynamic_cast<ExObj1&>(*objects[3]).objID, 1000u);
}

// D4 23: version check, and the migration hook.
class Player : public SaveObject {
  KEEL_SAVABLE(Player, 30)
  static const Record v1_template[];
  u32 hp = 0;
  u32 mana = 0;
};
KEEL_SAVE_TEMPLATE(Player) = {KEEL_SAVEDEF(Player), KEEL_SAVEDATA(Player, hp),
                              KEEL_SAVEDATA(Player, mana), KEEL_SAVEEND()};
const Record Player::v1_template[] = {KEEL_SAVEDEF(Player), KEEL_SAVEDATA(Player, hp),
                                      KEEL_SAVEGONE("armor", 4), KEEL_DONTSAVE(Player, mana),
                                      KEEL_SAVEEND()};

SaveSystem player_v1() {
  TypeInfo old = type<Player>();
  old.save_template = Player::v1_template;
  return SaveSystem({old});
}

ByteBuffer save_player(const SaveSystem& system, Player& p) {
  SaveFile out(system);
  EXPECT_TRUE(out.begin_save({}));
  out.declare_object(&p);
  EXPECT_TRUE(out.end(out.process_objects()));
  return out.bytes();
}

TEST(SaveD4, AnOlderTemplateSwappedIntoATypeInfoSavesThroughItsOwnPlan) {
  // type<Player>() made a writer from Player's current template; a migration's TypeInfo swaps in
  // v1's, whose stream is hp and four zero bytes where mana is not saved.
  const SaveSystem v1 = player_v1();
  EXPECT_EQ(v1.compiled_type_count(), 0u);
  TypeInfo old = type<Player>();
  old.save_template = Player::v1_template;
  SystemOptions interpreted;
  interpreted.compiled_writers = false;
  const SaveSystem v1_interpreted({old}, interpreted);
  Player p;
  p.hp = 12;
  p.mana = 77;
  EXPECT_EQ(save_player(v1, p), save_player(v1_interpreted, p));
  // The current template keeps its writer.
  EXPECT_EQ(SaveSystem({type<Player>()}).compiled_type_count(), 1u);
}

TEST(SaveD4, Check23_VersionCheckAndMigration) {
  SaveSystem v1 = player_v1();
  SaveSystem v2({type<Player>()});
  EXPECT_NE(v1.version(), v2.version());
  Player p;
  p.hp = 12;
  SaveFile out(v1);
  ASSERT_TRUE(out.begin_save({}));
  out.declare_object(&p);
  ASSERT_TRUE(out.end(out.process_objects()));
  {
    SaveFile in(v2);
    auto st = in.begin_load_bytes(out.bytes());
    ASSERT_FALSE(st);
    EXPECT_EQ(st.error().code(), ErrorCode::kUnsupported);
    EXPECT_TRUE(contains(st.error(), "save templates changed"));
  }
  v2.add_migration(v1, [](std::span<SaveObject* const> objects) -> Status {
    for (SaveObject* o : objects) dynamic_cast<Player&>(*o).mana = 50;
    return {};
  });
  SaveFile in(v2);
  ASSERT_TRUE(in.begin_load_bytes(out.bytes()));
  ASSERT_TRUE(in.end(in.process_objects()));
  auto objects = in.take_objects();
  EXPECT_EQ(dynamic_cast<Player&>(*objects.at(0)).hp, 12u);
  EXPECT_EQ(dynamic_cast<Player&>(*objects.at(0)).mana, 50u);
  // A damaged first bytes (magic): refused, no crash.
  ByteBuffer bad = out.bytes();
  bad[0] = std::byte{'X'};
  SaveFile again(v2);
  EXPECT_FALSE(again.begin_load_bytes(bad));
}

// The book's MYSAVEFILE: header with level name and version, LoadGame, LoadHeader.
struct Game {
  std::map<std::string, u32> level_versions{{"harbour", 3}};
  int levels_loaded = 0;
  alignas(8) char level[64] = {};

  Status save_game(const SaveSystem& system, const std::filesystem::path& path, BookScene& s) {
    SaveFile f(system);
    Status st = f.begin_save(path);
    if (st) {
      ClientHeader header;
      header.level_name = "harbour";
      header.level_version = 3;
      header.thumbnail = ByteBuffer(16);
      f.set_header(header);
      st = f.put_value(u32{0xABCD});
      f.declare_block(s.level, 64);
      f.declare_object(&s.a);
      if (st) st = f.process_objects();
    }
    return f.end(st);
  }
  Result<std::vector<std::unique_ptr<SaveObject>>> load_game(const SaveSystem& system,
                                                             const std::filesystem::path& path) {
    SaveFile f(system);
    Status st = f.begin_load(path);
    while (st) {
      const ClientHeader& h = f.header();
      if (level_versions[h.level_name] != h.level_version) {
        st = fail(ErrorCode::kRefused, "level changed: '{}'", h.level_name);
        break;
      }
      ++levels_loaded;  // LoadLevel, creating no objects
      u32 client = 0;
      st = f.get_value(client);
      f.declare_block(level, 64);
      if (st) st = f.process_objects();
      break;
    }
    st = f.end(st);
    if (!st) return Unexpected(st.error());
    return f.take_objects();
  }
};

std::filesystem::path temp_path(const char* name) {
  auto dir = std::filesystem::temp_directory_path() / "keel_save_rules";
  std::filesystem::create_directories(dir);
  return dir / fmt::format("{}.{}.ksav", name, ::getpid());
}

TEST(SaveD4, Check24_LevelChanged) {
  SaveSystem system = testing::book_system();
  Game game;
  BookScene scene;
  auto path = temp_path("level");
  ASSERT_TRUE(game.save_game(system, path, scene));
  game.level_versions["harbour"] = 4;
  auto loaded = game.load_game(system, path);
  ASSERT_FALSE(loaded);
  EXPECT_TRUE(contains(loaded.error(), "level changed"));
  EXPECT_EQ(game.levels_loaded, 0);
  std::filesystem::remove(path);
}

TEST(SaveD4, Check25_HeaderOnlyRead) {
  SaveSystem system = testing::book_system();
  Game game;
  BookScene scene;
  auto path = temp_path("header");
  ASSERT_TRUE(game.save_game(system, path, scene));
  ExObj1::load_calls = 0;
  auto header = read_header(path);
  ASSERT_TRUE(header) << header.error().to_string();
  EXPECT_EQ(header->client.level_name, "harbour");
  EXPECT_EQ(header->client.level_version, 3u);
  EXPECT_EQ(header->client.thumbnail.size(), 16u);
  EXPECT_EQ(header->version, system.version());
  EXPECT_EQ(ExObj1::load_calls, 0);
  EXPECT_EQ(game.levels_loaded, 0);
  std::filesystem::remove(path);
}

TEST(SaveD4, Check26_NoDuplicates) {
  SaveSystem system = testing::book_system();
  Game game;
  BookScene scene;
  auto path = temp_path("dups");
  ASSERT_TRUE(game.save_game(system, path, scene));
  auto loaded = game.load_game(system, path);
  ASSERT_TRUE(loaded);
  ASSERT_EQ(loaded->size(), 3u);
  EXPECT_NE((*loaded)[0].get(), (*loaded)[1].get());
  EXPECT_NE((*loaded)[1].get(), (*loaded)[2].get());
  EXPECT_EQ(game.levels_loaded, 1);
  std::filesystem::remove(path);
}

TEST(SaveD4, Check27_EndPassThrough) {
  SaveSystem system = testing::book_system();
  SaveFile f(system);
  ASSERT_TRUE(f.begin_save({}));
  auto st = f.end(fail(ErrorCode::kRefused, "level changed"));
  ASSERT_FALSE(st);
  EXPECT_EQ(st.error().message(), "level changed");
  SaveFile g(system);
  BookScene scene;
  ASSERT_TRUE(g.begin_save({}));
  g.declare_block(scene.level, 64);
  g.declare_object(&scene.a);
  EXPECT_TRUE(g.end(g.process_objects()));
}

// D5: the hole detector. A padding-free class (the book's 32-bit layout) named ExObj1.
namespace flat {
struct ExObj1 {
  KEEL_SAVE_STRUCT();
  u32 nextObject = 0;
  u32 objID = 0;
  u32 objName = 0;
  f32 matrix[4][4] = {};
  u32 added = 0;
  static const Record silenced[];
};
KEEL_SAVE_TEMPLATE(ExObj1) = {KEEL_SAVEDEF(ExObj1),          KEEL_SAVEDATA(ExObj1, nextObject),
                              KEEL_SAVEDATA(ExObj1, objID),  KEEL_SAVEDATA(ExObj1, objName),
                              KEEL_SAVEDATA(ExObj1, matrix), KEEL_SAVEEND()};
const Record ExObj1::silenced[] = {KEEL_SAVEDEF(ExObj1),
                                   KEEL_SAVEDATA(ExObj1, nextObject),
                                   KEEL_SAVEDATA(ExObj1, objID),
                                   KEEL_SAVEDATA(ExObj1, objName),
                                   KEEL_SAVEDATA(ExObj1, matrix),
                                   KEEL_DONTSAVE(ExObj1, added),
                                   KEEL_SAVEEND()};
struct ExObj2 : ExObj1 {
  KEEL_SAVE_STRUCT();
  u32 health = 0;
};
KEEL_SAVE_TEMPLATE(ExObj2) = {KEEL_SAVEDEF(ExObj2), KEEL_SAVEBASE(ExObj2, ExObj1),
                              KEEL_SAVEDATA(ExObj2, health), KEEL_SAVEEND()};
struct NoDef {
  KEEL_SAVE_STRUCT();
  u32 a = 0;
};
KEEL_SAVE_TEMPLATE(NoDef) = {KEEL_SAVEDATA(NoDef, a), KEEL_SAVEEND()};
}  // namespace flat

TEST(SaveD5, Check28_BookMessage) {
  SaveSystem system({structure<flat::ExObj1>()}, no_log());
  ASSERT_EQ(system.problems().size(), 1u);
  EXPECT_EQ(system.problems()[0], "Missing 4 bytes in class ExObj1 after matrix");
}

TEST(SaveD5, Check29_DontSaveSilences) {
  TypeInfo info = structure<flat::ExObj1>();
  info.save_template = flat::ExObj1::silenced;
  SaveSystem system({info});
  EXPECT_TRUE(system.problems().empty());
}

TEST(SaveD5, Check30_CheckedOnceAtCreation) {
  SaveSystem system({type<ExObj1>(), type<Player>(), structure<flat::ExObj1>()}, no_log());
  EXPECT_EQ(system.templates_checked(), 3u);  // Player has no instance anywhere: still checked
  const usize problems = system.problems().size();
  std::vector<ExObj1> many(100);
  for (usize i = 0; i + 1 < many.size(); ++i) many[i].nextObject = &many[i + 1];
  SaveFile out(system);
  ASSERT_TRUE(out.begin_save({}));
  out.declare_object(&many[0]);
  ASSERT_TRUE(out.end(out.process_objects()));
  EXPECT_EQ(system.templates_checked(), 3u);
  EXPECT_EQ(system.problems().size(), problems);
}

TEST(SaveD5, Check31_SaveDefRequiredFirst) {
  SaveSystem system({structure<flat::NoDef>()}, no_log());
  ASSERT_EQ(system.problems().size(), 1u);
  EXPECT_NE(system.problems()[0].find("does not start with KEEL_SAVEDEF"), std::string::npos);
}

TEST(SaveD5, Check32_BaseCoverage) {
  SaveSystem system({structure<flat::ExObj1>(), structure<flat::ExObj2>()}, no_log());
  // ExObj1's hole is reported once, by ExObj1's own template; ExObj2's SAVEBASE covers it.
  ASSERT_EQ(system.problems().size(), 1u);
  EXPECT_EQ(system.problems()[0], "Missing 4 bytes in class ExObj1 after matrix");
}

TEST(SaveD5, Check33_NoModernAbiFalsePositives) {
  // testing::ExObj1 has the vptr at 0..7 and 4 padding bytes after objID on x86-64.
  SaveSystem system = testing::book_system();
  EXPECT_TRUE(system.problems().empty()) << system.problems().front();
  EXPECT_EQ(system.templates_checked(), 4u);
}

// A savable class with two other bases before its SaveObject: a polymorphic one (its vptr at 0)
// and a plain one whose members its template names. `&Layered::x` is a pointer to a member of
// Plain: the record reaches it through Layered, at Plain's place in a Layered (not at 0).
struct Polymorphic {
  virtual ~Polymorphic() = default;
  u64 serial = 0;
};
struct Plain {
  u32 x = 0;
  u32 y = 0;
};
class Layered : public Polymorphic, public Plain, public SaveObject {
  KEEL_SAVABLE(Layered, 90)
  u32 own = 0;
  Layered* next = nullptr;
};
KEEL_SAVE_TEMPLATE(Layered) = {KEEL_SAVEDEF(Layered),
                               KEEL_SAVEDATA(Layered, serial),
                               KEEL_SAVEDATA(Layered, x),
                               KEEL_SAVEDATA(Layered, y),
                               KEEL_SAVEDATA(Layered, own),
                               KEEL_SAVEPOBJ(Layered, next),
                               KEEL_SAVEEND()};

TEST(SaveD5, AnotherPolymorphicBasesVptrIsNotAHole) {
  SaveSystem system({type<Layered>()}, no_log());
  EXPECT_TRUE(system.problems().empty()) << system.problems().front();
}

TEST(SaveD5, MembersOfABaseThatIsNotTheFirstAreFoundThroughTheClass) {
  const SaveSystem system({type<Layered>()}, no_log());
  Layered a;
  ASSERT_NE(static_cast<const void*>(static_cast<const Plain*>(&a)),
            static_cast<const void*>(&a));  // Plain is not at 0
  Layered b;
  a.serial = 11;
  a.x = 7;
  a.y = 9;
  a.own = 3;
  a.next = &b;
  b.x = 70;
  b.y = 90;
  const auto objects = testing::round_trip(system, a);
  ASSERT_TRUE(objects) << objects.error().to_string();
  ASSERT_EQ(objects->size(), 2u);
  const auto& la = dynamic_cast<const Layered&>(*objects->at(0));
  EXPECT_EQ(la.serial, 11u);
  EXPECT_EQ(la.x, 7u);
  EXPECT_EQ(la.y, 9u);
  EXPECT_EQ(la.own, 3u);
  ASSERT_EQ(la.next, objects->at(1).get());
  EXPECT_EQ(la.next->x, 70u);
  EXPECT_EQ(la.next->y, 90u);
}

}  // namespace
}  // namespace keel::save
