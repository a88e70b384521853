// The save pass's remembered links and the load pass's cached slot conversions must give the
// same results as looking every target up: a hook that changes a pointer after pre-save, and
// slots whose targets alternate between dynamic types.
#include "keel/save/save_file.h"
#include "keel/save/system.h"

#include <gtest/gtest.h>

#include <utility>

namespace keel::save {
namespace {

class Linker : public SaveObject {
  KEEL_SAVABLE(Linker, 40)
  u32 id = 0;
  bool swap_in_save = false;  // save() swaps next and other before writing them
  Linker* next = nullptr;
  Linker* other = nullptr;

  Status save(SaveFile& file) override {
    if (swap_in_save) std::swap(next, other);
    return SaveObject::save(file);
  }
};
KEEL_SAVE_TEMPLATE(Linker) = {
    KEEL_SAVEDEF(Linker),        KEEL_SAVEDATA(Linker, id),    KEEL_DONTSAVE(Linker, swap_in_save),
    KEEL_SAVEPOBJ(Linker, next), KEEL_SAVEPOBJ(Linker, other), KEEL_SAVEEND()};

class LinkerKid : public Linker {
  KEEL_SAVABLE(LinkerKid, 41)
  u32 extra = 0;
};
KEEL_SAVE_TEMPLATE(LinkerKid) = {KEEL_SAVEDEF(LinkerKid), KEEL_SAVEBASE(LinkerKid, Linker),
                                 KEEL_SAVEDATA(LinkerKid, extra), KEEL_SAVEEND()};

const SaveSystem& linker_system() {
  static const SaveSystem s({type<Linker>(), type<LinkerKid>()});
  return s;
}

std::vector<std::unique_ptr<SaveObject>> round_trip(Linker* root) {
  SaveFile out(linker_system());
  EXPECT_TRUE(out.begin_save({}, {Compression::kNone}));
  out.declare_object(root);
  Status st = out.process_objects();
  EXPECT_TRUE(out.end(st)) << (st ? "" : st.error().to_string());
  SaveFile in(linker_system());
  EXPECT_TRUE(in.begin_load_bytes(out.bytes()));
  st = in.process_objects();
  EXPECT_TRUE(in.end(st)) << (st ? "" : st.error().to_string());
  return in.take_objects();
}

TEST(SaveLinks, PointerChangedInSaveHookIsWrittenAsItIsThen) {
  Linker a, b, c;
  a.id = 1;
  b.id = 2;
  c.id = 3;
  a.next = &b;
  a.other = &c;
  a.swap_in_save = true;
  auto objects = round_trip(&a);
  ASSERT_EQ(objects.size(), 3u);
  auto* la = dynamic_cast<Linker*>(objects[0].get());
  ASSERT_NE(la, nullptr);
  ASSERT_NE(la->next, nullptr);
  ASSERT_NE(la->other, nullptr);
  EXPECT_EQ(la->next->id, 3u);  // swapped after pre-save found b then c
  EXPECT_EQ(la->other->id, 2u);
}

TEST(SaveLinks, SlotTargetsAlternatingDynamicTypes) {
  constexpr u32 kCount = 40;
  std::vector<std::unique_ptr<Linker>> chain;
  for (u32 i = 0; i < kCount; ++i) {
    auto o = i % 3 == 1 ? std::make_unique<LinkerKid>() : std::make_unique<Linker>();
    o->id = 100 + i;
    if (auto* kid = dynamic_cast<LinkerKid*>(o.get())) kid->extra = i;
    chain.push_back(std::move(o));
  }
  for (u32 i = 0; i < kCount; ++i) {
    chain[i]->next = i + 1 < kCount ? chain[i + 1].get() : nullptr;
    chain[i]->other = chain[(i * 7) % kCount].get();
  }
  auto objects = round_trip(chain[0].get());
  ASSERT_EQ(objects.size(), kCount);
  auto* at = dynamic_cast<Linker*>(objects[0].get());
  for (u32 i = 0; i < kCount; ++i) {
    ASSERT_NE(at, nullptr) << i;
    EXPECT_EQ(at->id, 100 + i);
    auto* kid = dynamic_cast<LinkerKid*>(at);
    EXPECT_EQ(kid != nullptr, i % 3 == 1) << i;
    if (kid != nullptr) {
      EXPECT_EQ(kid->extra, i);
    }
    ASSERT_NE(at->other, nullptr);
    EXPECT_EQ(at->other->id, 100 + (i * 7) % kCount) << i;
    at = at->next;
  }
  EXPECT_EQ(at, nullptr);
}

}  // namespace
}  // namespace keel::save
