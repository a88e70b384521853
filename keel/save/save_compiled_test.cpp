// The compiled writers (detail/compiled.h): a class whose template is a compile-time constant
// saves through code generated from it, which must write exactly the bytes the plan interpreter
// writes: for every kind of record, with marks and with the address hash (checked marks:
// SaveMarks.ObjectsDeclaredButNeverProcessedAreNotFoundByTheNextSave), and through the slow
// paths (the object list growing past its room in either mode, block pointers outside the last
// block hit, pointers into no block). A class applying a template defined in another file saves
// through its plan.
#include "keel/save/save_file.h"
#include "keel/save/system.h"
#include "keel/save/testing/book_objects.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <typeinfo>
#include <vector>

namespace keel::save {
namespace {

alignas(8) char g_dock[256] = "level";
alignas(8) char g_labels[128] = "names";

struct CrateStats {
  KEEL_SAVE_STRUCT();
  u16 hp = 0;
  u16 armor = 0;
  const char* label = nullptr;  // into g_labels
};
KEEL_SAVE_TEMPLATE(CrateStats) = {KEEL_SAVEDEF(CrateStats), KEEL_SAVEDATA(CrateStats, hp),
                                  KEEL_SAVEDATA(CrateStats, armor), KEEL_SAVEPTR(CrateStats, label),
                                  KEEL_SAVEEND()};

class Crate : public SaveObject {
  KEEL_SAVABLE(Crate, 71)
  u32 id = 0;
  Crate* next = nullptr;
  Crate* other = nullptr;
  const char* where = nullptr;  // into g_dock or g_labels (alternating: the slow path)
  CrateStats stats;
  u32 scratch = 0;  // not saved
};
KEEL_SAVE_TEMPLATE(Crate) = {KEEL_SAVEDEF(Crate),           KEEL_SAVEDATA(Crate, id),
                             KEEL_SAVEPOBJ(Crate, next),    KEEL_SAVEPOBJ(Crate, other),
                             KEEL_SAVEPTR(Crate, where),    KEEL_SAVESTRUCT(Crate, stats),
                             KEEL_DONTSAVE(Crate, scratch), KEEL_SAVEEND()};

// A registered class with a base template, a member an older version saved, and a link typed
// as the base class.
class HeavyCrate : public Crate {
  KEEL_SAVABLE(HeavyCrate, 72)
  f64 mass = 0;
  Crate* parent = nullptr;
};
KEEL_SAVE_TEMPLATE(HeavyCrate) = {
    KEEL_SAVEDEF(HeavyCrate),  KEEL_SAVEBASE(HeavyCrate, Crate),  KEEL_SAVEDATA(HeavyCrate, mass),
    KEEL_SAVEGONE("color", 4), KEEL_SAVEPOBJ(HeavyCrate, parent), KEEL_SAVEEND()};

// SaveObject is not the first base: the object starts before its SaveObject.
struct CrateTag {
  virtual ~CrateTag() = default;
  u64 tag = 0;
};
class TaggedCrate : public CrateTag, public SaveObject {
  KEEL_SAVABLE(TaggedCrate, 73)
  u32 weight = 0;
  Crate* holder = nullptr;
};
KEEL_SAVE_TEMPLATE(TaggedCrate) = {KEEL_SAVEDEF(TaggedCrate), KEEL_SAVEDATA(TaggedCrate, tag),
                                   KEEL_SAVEDATA(TaggedCrate, weight),
                                   KEEL_SAVEPOBJ(TaggedCrate, holder), KEEL_SAVEEND()};

SaveSystem crate_system(bool compiled) {
  SystemOptions options;
  options.compiled_writers = compiled;
  return SaveSystem(
      {type<Crate>(), type<HeavyCrate>(), type<TaggedCrate>(), structure<CrateStats>()}, options);
}

// `count` crates of two classes in a graph (chains, random links back, nulls), found from the
// last one, with block pointers that alternate between the two blocks, and a tagged crate for
// every fourth.
struct CrateWorld {
  std::vector<std::unique_ptr<Crate>> crates;
  std::vector<std::unique_ptr<TaggedCrate>> tagged;
  explicit CrateWorld(u32 count) {
    u32 seed = 7;
    auto next_random = [&seed] {
      seed = seed * 1664525u + 1013904223u;
      return seed >> 8;
    };
    for (u32 i = 0; i < count; ++i) {
      std::unique_ptr<Crate> t;
      if (i % 3 == 1) {
        auto b = std::make_unique<HeavyCrate>();
        b->mass = 0.5 * i;
        b->parent = i > 0 ? crates[next_random() % i].get() : nullptr;
        t = std::move(b);
      } else {
        t = std::make_unique<Crate>();
      }
      t->id = i;
      t->next = i > 0 ? crates.back().get() : nullptr;
      t->other = i > 1 && i % 5 != 0 ? crates[next_random() % i].get() : nullptr;
      t->where = i % 7 == 0   ? nullptr
                 : i % 2 == 0 ? g_dock + next_random() % sizeof g_dock
                              : g_labels + next_random() % sizeof g_labels;
      t->stats.hp = static_cast<u16>(next_random());
      t->stats.armor = static_cast<u16>(i);
      t->stats.label = i % 4 == 0 ? nullptr : g_labels + i % sizeof g_labels;
      t->scratch = next_random();
      if (i % 4 == 3) {
        auto m = std::make_unique<TaggedCrate>();
        m->tag = 0xABC0000 + i;
        m->weight = i * 3;
        m->holder = t.get();
        tagged.push_back(std::move(m));
      }
      crates.push_back(std::move(t));
    }
  }
  // (The tagged crates are not reachable from the root: each is declared as a root of its own.)
  Crate* root() const { return crates.back().get(); }
};

ByteBuffer save_crates(const SaveSystem& system, const CrateWorld& w) {
  SaveFile f(system);
  EXPECT_TRUE(f.begin_save({}, {Compression::kNone}));
  f.declare_block(g_dock, sizeof g_dock);
  f.declare_block(g_labels, sizeof g_labels);
  f.declare_object(w.root());
  for (const auto& m : w.tagged) f.declare_object(m.get());
  EXPECT_TRUE(f.process_objects());
  EXPECT_TRUE(f.end());
  return f.bytes();
}

TEST(SaveCompiled, ClassesWithConstantTemplatesGetACompiledWriter) {
  EXPECT_EQ(crate_system(true).compiled_type_count(), 3u);
  EXPECT_EQ(crate_system(false).compiled_type_count(), 0u);
  // (CrateTag's vptr, before TaggedCrate's SaveObject, is not a hole.)
  EXPECT_TRUE(crate_system(true).problems().empty());
}

TEST(SaveCompiled, CompiledAndInterpretedWritersWriteTheSameBytes) {
  // 5,000 objects: more than a first save's room for its object list (it grows while saving).
  const CrateWorld w(4000);
  const SaveSystem compiled = crate_system(true);
  const SaveSystem interpreted = crate_system(false);
  const ByteBuffer a = save_crates(compiled, w);
  const ByteBuffer b = save_crates(interpreted, w);
  ASSERT_FALSE(a.empty());
  EXPECT_EQ(a, b);
  // Again, now that each system reserves from its last save's size.
  EXPECT_EQ(save_crates(compiled, w), a);
  EXPECT_EQ(save_crates(interpreted, w), b);
}

TEST(SaveCompiled, ACompiledSaveLoadsBackObjectForObject) {
  const CrateWorld w(300);
  const SaveSystem system = crate_system(true);
  const ByteBuffer bytes = save_crates(system, w);
  SaveFile in(system);
  ASSERT_TRUE(in.begin_load_bytes(bytes));
  in.declare_block(g_dock, sizeof g_dock);
  in.declare_block(g_labels, sizeof g_labels);
  ASSERT_TRUE(in.process_objects());
  ASSERT_TRUE(in.end());
  const auto objects = in.take_objects();
  ASSERT_EQ(objects.size(), w.crates.size() + w.tagged.size());
  // The root first; every loaded Crate matches the one with its id.
  usize crates = 0;
  for (const auto& o : objects) {
    if (const auto* t = dynamic_cast<const Crate*>(o.get()); t != nullptr) {
      const Crate& original = *w.crates.at(t->id);
      ++crates;
      EXPECT_EQ(typeid(*t), typeid(original));
      EXPECT_EQ(t->where, original.where);
      EXPECT_EQ(t->stats.hp, original.stats.hp);
      EXPECT_EQ(t->stats.label, original.stats.label);
      EXPECT_EQ(t->next == nullptr ? ~0u : t->next->id,
                original.next == nullptr ? ~0u : original.next->id);
      EXPECT_EQ(t->other == nullptr ? ~0u : t->other->id,
                original.other == nullptr ? ~0u : original.other->id);
      EXPECT_EQ(t->scratch, 0u);  // not saved
    } else {
      const auto& m = dynamic_cast<const TaggedCrate&>(*o);
      ASSERT_NE(m.holder, nullptr);
      EXPECT_EQ(m.tag, 0xABC0000u + m.holder->id);
      EXPECT_EQ(m.weight, m.holder->id * 3);
    }
  }
  EXPECT_EQ(crates, w.crates.size());
}

TEST(SaveCompiled, SessionsThatCannotMarkWriteTheSameBytes) {
  // The first session claims the marks; a second one open at the same time finds objects through
  // the address hash (the compiled writers' slow path for every link). It is the system's first
  // save: its object list starts with room for its roots and grows on that path.
  const CrateWorld w(1500);
  const SaveSystem system = crate_system(true);
  SaveFile first(system);
  ASSERT_TRUE(first.begin_save({}, {Compression::kNone}));
  const ByteBuffer second = save_crates(system, w);
  EXPECT_TRUE(first.end());
  EXPECT_EQ(save_crates(system, w), second);  // marked, as the other tests
  EXPECT_EQ(save_crates(crate_system(false), w), second);
}

std::string stray_crate_pointer_error(const SaveSystem& system, CrateWorld& w) {
  SaveFile f(system);
  EXPECT_TRUE(f.begin_save({}, {Compression::kNone}));
  f.declare_block(g_dock, sizeof g_dock);
  f.declare_block(g_labels, sizeof g_labels);
  f.declare_object(w.root());
  const Status st = f.process_objects();
  EXPECT_FALSE(f.end());
  return st ? std::string() : st.error().message();
}

TEST(SaveCompiled, APointerIntoNoBlockIsTheSameErrorFromBothWriters) {
  CrateWorld w(50);
  char stray[8] = {};
  w.crates[20]->where = stray;
  const std::string compiled = stray_crate_pointer_error(crate_system(true), w);
  EXPECT_NE(compiled.find("(Crate): pointer 'where' points into no declared memory block"),
            std::string::npos)
      << compiled;
  EXPECT_EQ(compiled, stray_crate_pointer_error(crate_system(false), w));
}

// A savable class applying a struct template defined in another file (testing::Badge).
class Veteran : public SaveObject {
  KEEL_SAVABLE(Veteran, 74)
  u32 id = 0;
  testing::Badge badge;
};
KEEL_SAVE_TEMPLATE(Veteran) = {KEEL_SAVEDEF(Veteran), KEEL_SAVEDATA(Veteran, id),
                               KEEL_SAVESTRUCT(Veteran, badge), KEEL_SAVEEND()};

TEST(SaveCompiled, AClassApplyingATemplateDefinedElsewhereSavesThroughThePlan) {
  const SaveSystem system({type<Veteran>(), structure<testing::Badge>()});
  EXPECT_TRUE(system.problems().empty());
  EXPECT_EQ(system.compiled_type_count(), 0u);  // Badge's template is not a constant here
  Veteran v;
  v.id = 5;
  v.badge.rank = 3;
  v.badge.medals = 12;
  const auto objects = testing::round_trip(system, v);
  ASSERT_TRUE(objects) << objects.error().to_string();
  ASSERT_EQ(objects->size(), 1u);
  const auto& loaded = dynamic_cast<const Veteran&>(*objects->at(0));
  EXPECT_EQ(loaded.id, 5u);
  EXPECT_EQ(loaded.badge.rank, 3u);
  EXPECT_EQ(loaded.badge.medals, 12u);
}

}  // namespace
}  // namespace keel::save
