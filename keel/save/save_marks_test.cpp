// Discovery through the mark (an index) each SaveObject carries, the inline default hooks and the
// one-visit save of hook-less sets: results must be those of the address hash and the book's two
// passes (saves of the same objects again, by two sessions at once, several sets, copies, hooks
// that change objects found earlier, block pointers resolved after discovery).
#include "keel/core/hash.h"
#include "keel/save/detail/session.h"
#include "keel/save/format.h"
#include "keel/save/save_file.h"
#include "keel/save/system.h"

#include <gtest/gtest.h>

#include <cstring>
#include <new>

namespace keel::save {
namespace {

class Cell : public SaveObject {
  KEEL_SAVABLE(Cell, 60)
  u32 value = 0;
  Cell* next = nullptr;
  Cell* other = nullptr;
  const u32* watched = nullptr;  // into a declared block or another cell
};
KEEL_SAVE_TEMPLATE(Cell) = {KEEL_SAVEDEF(Cell),          KEEL_SAVEDATA(Cell, value),
                            KEEL_SAVEPOBJ(Cell, next),   KEEL_SAVEPOBJ(Cell, other),
                            KEEL_SAVEPTR(Cell, watched), KEEL_SAVEEND()};

// Changes the cell it points to in pre_save: the book saves every object after every pre_save.
class Meddler : public SaveObject {
  KEEL_SAVABLE(Meddler, 61)
  Cell* victim = nullptr;
  u32 new_value = 0;
  Status pre_save(SaveFile& file) override {
    if (auto st = SaveObject::pre_save(file); !st) return st;
    if (victim != nullptr) victim->value = new_value;
    return {};
  }
};
KEEL_SAVE_TEMPLATE(Meddler) = {KEEL_SAVEDEF(Meddler), KEEL_SAVEPOBJ(Meddler, victim),
                               KEEL_SAVEDATA(Meddler, new_value), KEEL_SAVEEND()};

// Not registered itself: objects of it are saved and loaded as Cells (save id 60) but are not
// exactly the class the plan was measured on, so their hooks are called virtually.
class LoudCell : public Cell {
 public:
  static inline int saves = 0;
  Status save(SaveFile& file) override {
    ++saves;
    return Cell::save(file);
  }
};

static_assert(detail::default_hooks<Cell>() == (detail::kKeepsPreSave | detail::kKeepsSave |
                                                detail::kKeepsPreLoad | detail::kKeepsLoad));
static_assert(detail::default_hooks<Meddler>() ==
              (detail::kKeepsSave | detail::kKeepsPreLoad | detail::kKeepsLoad));
static_assert(detail::default_hooks<LoudCell>() ==
              (detail::kKeepsPreSave | detail::kKeepsPreLoad | detail::kKeepsLoad));

const SaveSystem& cells() {
  static const SaveSystem s({type<Cell>(), type<Meddler>()});
  return s;
}

alignas(8) u32 g_level[16] = {};

ByteBuffer save_roots(const SaveSystem& system, std::initializer_list<SaveObject*> roots) {
  SaveFile f(system);
  EXPECT_TRUE(f.begin_save({}, {Compression::kNone}));
  f.declare_block(g_level, sizeof g_level);
  for (SaveObject* r : roots) f.declare_object(r);
  Status st = f.process_objects();
  EXPECT_TRUE(f.end(st)) << (st ? "" : st.error().to_string());
  return f.bytes();
}

std::vector<std::unique_ptr<SaveObject>> load(const SaveSystem& system, ByteSpan bytes) {
  SaveFile f(system);
  Status st = f.begin_load_bytes(bytes);
  f.declare_block(g_level, sizeof g_level);
  if (st) st = f.process_objects();
  st = f.end(st);
  EXPECT_TRUE(st) << (st ? "" : st.error().to_string());
  return f.take_objects();
}

Cell& cell(const std::vector<std::unique_ptr<SaveObject>>& objects, usize i) {
  return dynamic_cast<Cell&>(*objects.at(i));
}

TEST(SaveMarks, SavingTheSameObjectsAgainFindsThemAgain) {
  Cell a, b, c;
  a.value = 1;
  b.value = 2;
  c.value = 3;
  a.next = &b;
  b.next = &c;
  c.other = &a;  // a cycle
  const ByteBuffer first = save_roots(cells(), {&a});
  const ByteBuffer second = save_roots(cells(), {&a});
  EXPECT_EQ(first, second);  // the first save's marks do not make them "seen" in the second
  // A root that was a target last time, and a changed graph.
  b.other = &b;
  const auto loaded = load(cells(), save_roots(cells(), {&c}));
  ASSERT_EQ(loaded.size(), 3u);
  EXPECT_EQ(cell(loaded, 0).value, 3u);
  EXPECT_EQ(cell(loaded, 1).value, 1u);
  EXPECT_EQ(cell(loaded, 2).value, 2u);
  EXPECT_EQ(cell(loaded, 2).other, &cell(loaded, 2));
  EXPECT_EQ(cell(loaded, 0).other, &cell(loaded, 1));
}

TEST(SaveMarks, ACopyOfAFoundObjectIsAnotherObject) {
  SaveFile f(cells());
  ASSERT_TRUE(f.begin_save({}, {Compression::kNone}));
  Cell a;
  EXPECT_EQ(f.declare_object(&a), 1u);
  Cell copy = a;  // copies the members, not the save's mark
  EXPECT_EQ(f.declare_object(&copy), 2u);
  EXPECT_EQ(f.declare_object(&a), 1u);
  copy = a;  // assignment keeps the object's own mark
  EXPECT_EQ(f.declare_object(&copy), 2u);
  EXPECT_TRUE(f.end(f.process_objects()));
}

TEST(SaveMarks, EachSetOfASessionFindsItsObjectsAgain) {
  Cell a, b;
  a.value = 10;
  b.value = 20;
  a.next = &b;
  SaveFile f(cells());
  ASSERT_TRUE(f.begin_save({}, {Compression::kNone}));
  f.declare_object(&a);
  ASSERT_TRUE(f.process_objects());
  EXPECT_EQ(f.declare_object(&b), 1u);  // a new set: b is its first object
  ASSERT_TRUE(f.process_objects());
  ASSERT_TRUE(f.end());
  SaveFile in(cells());
  ASSERT_TRUE(in.begin_load_bytes(f.bytes()));
  ASSERT_TRUE(in.process_objects());
  ASSERT_EQ(in.loaded().size(), 2u);
  ASSERT_TRUE(in.process_objects());
  ASSERT_TRUE(in.end());
  const auto loaded = in.take_objects();
  ASSERT_EQ(loaded.size(), 3u);
  EXPECT_EQ(cell(loaded, 0).next, &cell(loaded, 1));
  EXPECT_EQ(cell(loaded, 2).value, 20u);
  EXPECT_EQ(cell(loaded, 2).next, nullptr);
}

TEST(SaveMarks, TwoSessionsOpenAtOnceOnTheSameObjects) {
  // Different systems (two games' worth of types), saving the same objects interleaved: one
  // session marks the objects, the other looks them up by address; both get the whole graph.
  static const SaveSystem only_cells({type<Cell>()});
  Cell a, b, c;
  a.value = 1;
  b.value = 2;
  c.value = 3;
  a.next = &b;
  a.other = &c;
  b.next = &c;
  b.other = &a;
  c.next = &b;
  SaveFile first(cells());
  SaveFile second(only_cells);
  ASSERT_TRUE(first.begin_save({}, {Compression::kNone}));
  ASSERT_TRUE(second.begin_save({}, {Compression::kNone}));
  first.declare_block(g_level, sizeof g_level);
  second.declare_block(g_level, sizeof g_level);
  EXPECT_EQ(first.declare_object(&a), 1u);
  EXPECT_EQ(second.declare_object(&c), 1u);
  EXPECT_EQ(first.declare_object(&c), 2u);
  EXPECT_EQ(second.declare_object(&a), 2u);
  EXPECT_EQ(first.declare_object(&a), 1u);
  EXPECT_EQ(second.declare_object(&c), 1u);
  ASSERT_TRUE(second.process_objects());
  ASSERT_TRUE(first.process_objects());
  ASSERT_TRUE(first.end());
  ASSERT_TRUE(second.end());
  for (const auto& [system, bytes, root_value] :
       {std::tuple{&cells(), first.bytes(), 1u}, std::tuple{&only_cells, second.bytes(), 3u}}) {
    const auto loaded = load(*system, bytes);
    ASSERT_EQ(loaded.size(), 3u);
    EXPECT_EQ(cell(loaded, 0).value, root_value);
    for (usize i = 0; i < 3; ++i) {
      const Cell& x = cell(loaded, i);
      const Cell& want = x.value == 1 ? a : x.value == 2 ? b : c;
      ASSERT_NE(x.next, nullptr);
      EXPECT_EQ(x.next->value, want.next->value);
      EXPECT_EQ(x.other == nullptr, want.other == nullptr);
      if (x.other != nullptr) {
        EXPECT_EQ(x.other->value, want.other->value);
      }
    }
  }
  // Afterwards a session marks objects again (and finds the marks of neither session).
  EXPECT_EQ(load(cells(), save_roots(cells(), {&b})).size(), 3u);
}

TEST(SaveMarks, ObjectCountChangesBetweenSaves) {
  // The data of a hook-less set is written behind room for the last save's object count.
  Cell cs[6];
  for (u32 i = 0; i < 6; ++i) {
    cs[i].value = 100 + i;
    cs[i].watched = &g_level[i];
  }
  for (usize n : {3u, 6u, 2u, 2u, 5u}) {
    for (usize i = 0; i < 6; ++i) cs[i].next = i + 1 < n ? &cs[i + 1] : nullptr;
    const auto loaded = load(cells(), save_roots(cells(), {&cs[0]}));
    ASSERT_EQ(loaded.size(), n);
    for (usize i = 0; i < n; ++i) {
      EXPECT_EQ(cell(loaded, i).value, 100 + i);
      EXPECT_EQ(cell(loaded, i).watched, &g_level[i]);
      EXPECT_EQ(cell(loaded, i).next, i + 1 < n ? &cell(loaded, i + 1) : nullptr);
    }
  }
}

TEST(SaveMarks, AHookChangingAnObjectFoundEarlierIsSaved) {
  Cell first, second;
  first.value = 1;
  second.value = 2;
  first.next = &second;
  Meddler m;
  m.victim = &first;
  m.new_value = 999;
  SaveFile f(cells());
  ASSERT_TRUE(f.begin_save({}, {Compression::kNone}));
  f.declare_block(g_level, sizeof g_level);
  f.declare_object(&first);  // found (and, with no hook so far, written) before m's pre_save
  f.declare_object(&m);
  Status st = f.process_objects();
  ASSERT_TRUE(f.end(st)) << (st ? "" : st.error().to_string());
  const auto loaded = load(cells(), f.bytes());
  ASSERT_EQ(loaded.size(), 3u);  // first, m, second
  EXPECT_EQ(cell(loaded, 0).value, 999u);
  EXPECT_EQ(cell(loaded, 0).next, &cell(loaded, 2));
  EXPECT_EQ(dynamic_cast<Meddler&>(*loaded[1]).victim, &cell(loaded, 0));
}

TEST(SaveMarks, BlockPointerIntoAnObjectFoundLater) {
  Cell a, b, c;
  a.value = 1;
  b.value = 2;
  c.value = 3;
  a.next = &b;
  b.next = &c;
  a.watched = &c.value;  // c's block is declared after a is written
  c.watched = &a.value;
  b.watched = &g_level[3];
  const auto loaded = load(cells(), save_roots(cells(), {&a}));
  ASSERT_EQ(loaded.size(), 3u);
  EXPECT_EQ(cell(loaded, 0).watched, &cell(loaded, 2).value);
  EXPECT_EQ(cell(loaded, 2).watched, &cell(loaded, 0).value);
  EXPECT_EQ(cell(loaded, 1).watched, &g_level[3]);
}

TEST(SaveMarks, BlockPointerIntoAnObjectInsideADeclaredBlock) {
  // Cells placed in an arena the game declares as a block: a pointer to a cell's member belongs
  // to the innermost block, the cell's own, and follows the loaded cell.
  alignas(Cell) std::byte arena[2 * sizeof(Cell)];
  Cell* a = new (arena) Cell;
  Cell* b = new (arena + sizeof(Cell)) Cell;
  a->value = 7;
  b->value = 8;
  a->next = b;
  a->watched = &b->value;  // b's block (base arena + sizeof(Cell)) is the innermost
  b->watched = &a->value;  // a's block and the arena share a base: the arena, declared first
  SaveFile f(cells());
  ASSERT_TRUE(f.begin_save({}, {Compression::kNone}));
  f.declare_block(arena, sizeof arena);
  f.declare_object(a);
  Status st = f.process_objects();
  ASSERT_TRUE(f.end(st)) << (st ? "" : st.error().to_string());
  SaveFile in(cells());
  st = in.begin_load_bytes(f.bytes());
  in.declare_block(arena, sizeof arena);
  if (st) st = in.process_objects();
  ASSERT_TRUE(in.end(st)) << (st ? "" : st.error().to_string());
  const auto loaded = in.take_objects();
  ASSERT_EQ(loaded.size(), 2u);
  EXPECT_EQ(cell(loaded, 0).watched, &cell(loaded, 1).value);
  EXPECT_EQ(cell(loaded, 1).watched, &a->value);
  b->~Cell();
  a->~Cell();
}

TEST(SaveMarks, APointerIntoNoBlockNamesItsObject) {
  Cell a, b;
  u32 stray = 0;
  a.next = &b;
  b.watched = &stray;
  SaveFile f(cells());
  ASSERT_TRUE(f.begin_save({}, {Compression::kNone}));
  f.declare_object(&a);
  Status st = f.process_objects();
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message().find("object 2 (Cell): pointer 'watched' points into no declared "
                                      "memory block"),
            std::string::npos)
      << st.error().message();
  EXPECT_FALSE(f.end(st));
}

TEST(SaveMarks, ADerivedClassWithoutItsOwnIdRunsItsHooks) {
  LoudCell loud;
  loud.value = 4;
  Cell a;
  a.value = 3;
  a.next = &loud;
  loud.next = &a;
  LoudCell::saves = 0;
  const auto loaded = load(cells(), save_roots(cells(), {&a}));
  EXPECT_EQ(LoudCell::saves, 1);
  ASSERT_EQ(loaded.size(), 2u);
  EXPECT_EQ(cell(loaded, 1).value, 4u);
  EXPECT_EQ(cell(loaded, 1).next, &cell(loaded, 0));
}

TEST(SaveMarks, SavesWhoseBlockHashCountsEveryObjectStillLoad) {
  // Saves written before objects' own blocks left the block hash: the same stream with the
  // hash of every block (the caller's level, then one block per object, in order).
  Cell a, b;
  a.value = 1;
  b.value = 2;
  a.next = &b;
  b.watched = &g_level[2];
  SaveFile out(cells());
  ASSERT_TRUE(out.begin_save({}, {Compression::kNone}));
  out.declare_block(g_level, sizeof g_level);
  out.declare_object(&a);
  ASSERT_TRUE(out.end(out.process_objects()));
  ByteBuffer body(out.body().begin(), out.body().end());
  ASSERT_GE(body.size(), 4u);
  u32 schema_size = 0;
  std::memcpy(&schema_size, &body[0], 4);  // (&body[0]: GCC 12 -O3 saw a null data() here)
  const usize hash_at = 4 + schema_size + 1 + 4 + 2 * 4;  // schema, 'S', count, two ids
  u64 h = 0x5AFEB10C;
  const u64 lengths[3] = {sizeof g_level, sizeof(Cell), sizeof(Cell)};
  for (u64 i = 0; i < 3; ++i) {
    const u64 pair[2] = {i + 1, lengths[i]};
    h = hash64(pair, sizeof pair, h);
  }
  const auto old_hash = static_cast<u32>(h ^ (h >> 32));
  u32 new_hash = 0;
  std::memcpy(&new_hash, body.data() + hash_at, 4);
  ASSERT_NE(old_hash, new_hash);
  std::memcpy(body.data() + hash_at, &old_hash, 4);
  FileHeader header;
  header.compression = Compression::kNone;
  header.version = cells().version();
  auto file = encode_file(header, body);
  ASSERT_TRUE(file);
  const auto loaded = load(cells(), *file);
  ASSERT_EQ(loaded.size(), 2u);
  EXPECT_EQ(cell(loaded, 0).next, &cell(loaded, 1));
  EXPECT_EQ(cell(loaded, 1).watched, &g_level[2]);
  // Any other hash is still a different set of blocks.
  const u32 wrong = old_hash ^ 1;
  std::memcpy(body.data() + hash_at, &wrong, 4);
  auto bad = encode_file(header, body);
  ASSERT_TRUE(bad);
  SaveFile in(cells());
  Status st = in.begin_load_bytes(*bad);
  in.declare_block(g_level, sizeof g_level);
  if (st) st = in.process_objects();
  st = in.end(st);
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message().find("memory blocks differ"), std::string::npos);
}

// A u32 first member sits in SaveObject's tail padding (right after the save's mark): leaving it
// out of the template is still a hole, and a class using that room is no larger than a class
// without the mark would be.
class Sneaky : public SaveObject {
  KEEL_SAVABLE(Sneaky, 62)
  u32 forgotten = 0;  // at 12, in SaveObject's tail padding
  u32 counted = 0;
  u64 big = 0;
};
KEEL_SAVE_TEMPLATE(Sneaky) = {KEEL_SAVEDEF(Sneaky), KEEL_SAVEDATA(Sneaky, counted),
                              KEEL_SAVEDATA(Sneaky, big), KEEL_SAVEEND()};
class Tucked : public SaveObject {
  KEEL_SAVABLE(Tucked, 63)
  u32 first = 0;
};
KEEL_SAVE_TEMPLATE(Tucked) = {KEEL_SAVEDEF(Tucked), KEEL_SAVEDATA(Tucked, first), KEEL_SAVEEND()};

TEST(SaveMarks, MembersInTheBasesTailPaddingAreCheckedForHoles) {
  SaveSystem tucked({type<Tucked>()}, {.log_problems = false});
  EXPECT_TRUE(tucked.problems().empty()) << tucked.problems().at(0);
  EXPECT_EQ(sizeof(Tucked), 2 * sizeof(void*));  // vptr, mark, first: as without the mark
  SaveSystem sneaky({type<Sneaky>()}, {.log_problems = false});
  ASSERT_EQ(sneaky.problems().size(), 1u);
  EXPECT_EQ(sneaky.problems()[0], "Missing 4 bytes in class Sneaky after SaveObject");
}

TEST(SaveMarks, EveryMarkIsClearedWhenASetIsProcessed) {
  // A mark of 0 is "not in this set" without looking at the object list: a processed set clears
  // its objects' marks, whether it succeeded or failed.
  Cell a, b, c;
  a.next = &b;
  b.next = &c;
  c.other = &a;
  const auto loaded = load(cells(), save_roots(cells(), {&a}));
  EXPECT_EQ(loaded.size(), 3u);
  for (const Cell* x : {&a, &b, &c}) EXPECT_EQ(detail::MarkAccess::index(*x), 0u);
  u32 nowhere = 0;
  b.watched = &nowhere;  // in no declared block: the save fails after finding every object
  SaveFile f(cells());
  ASSERT_TRUE(f.begin_save({}, {Compression::kNone}));
  f.declare_block(g_level, sizeof g_level);
  f.declare_object(&a);
  EXPECT_FALSE(f.end(f.process_objects()));
  for (const Cell* x : {&a, &b, &c}) EXPECT_EQ(detail::MarkAccess::index(*x), 0u);
}

// Last in this file: from here on the process's sessions check marks against their lists.
TEST(SaveMarks, ObjectsDeclaredButNeverProcessedAreNotFoundByTheNextSave) {
  Cell a, b;
  a.value = 1;
  b.value = 2;
  b.next = &a;
  {
    SaveFile f(cells());
    ASSERT_TRUE(f.begin_save({}, {Compression::kNone}));
    EXPECT_EQ(f.declare_object(&a), 1u);  // marked, and the session ends without a set
  }
  // b is the next save's object 1: a's old mark (1) must not make it look found as b.
  const auto loaded = load(cells(), save_roots(cells(), {&b}));
  ASSERT_EQ(loaded.size(), 2u);
  EXPECT_EQ(cell(loaded, 0).value, 2u);
  EXPECT_EQ(cell(loaded, 1).value, 1u);
  EXPECT_EQ(cell(loaded, 0).next, &cell(loaded, 1));
}

}  // namespace
}  // namespace keel::save
