#include "keel/core/ref.h"

#include "keel/core/log.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <unordered_set>
#include <vector>

namespace keel::ref_test {

// Counts its destructions; named namespace so the demangled name is predictable.
struct Tracked : RefCounted {
  explicit Tracked(int* destroyed, int value = 0) : destroyed_(destroyed), value_(value) {}
  ~Tracked() override { ++*destroyed_; }
  int value() const { return value_; }

  int* destroyed_;
  int value_;
};

}  // namespace keel::ref_test

namespace keel {
namespace {

using ref_test::Tracked;
using ::testing::HasSubstr;

struct Base : RefCounted {
  virtual int kind() const { return 1; }
};
struct Derived : Base {
  int kind() const override { return 2; }
  double payload[4] = {};
};
struct Other : RefCounted {};

// A registry whose warnings land in memory instead of on stderr.
struct Fixture {
  log::Logger logger;
  log::MemorySink& memory = logger.add_sink(std::make_unique<log::MemorySink>());
  ObjectRegistry registry{logger};
};

TEST(RefCounted, Check6_DestroyedAtNextCollectOnce) {
  Fixture f;
  int destroyed = 0;
  Ref<Tracked> a = f.registry.make<Tracked>(&destroyed, 7);
  Ref<Tracked> b = a;
  EXPECT_EQ(a->ref_count(), 2u);
  Tracked* raw = a.get();

  a.reset();
  EXPECT_EQ(raw->ref_count(), 1u);
  EXPECT_EQ(f.registry.collect(), 0u);  // still referenced
  EXPECT_EQ(destroyed, 0);

  b = nullptr;  // last reference: queued, not destroyed
  EXPECT_EQ(destroyed, 0);
  EXPECT_EQ(raw->ref_count(), 0u);
  EXPECT_EQ(raw->value(), 7);  // still alive and intact (ASan would object otherwise)
  EXPECT_EQ(f.registry.pending_count(), 1u);
  EXPECT_EQ(f.registry.live_count(), 1u);

  EXPECT_EQ(f.registry.collect(), 1u);
  EXPECT_EQ(destroyed, 1);
  EXPECT_EQ(f.registry.pending_count(), 0u);
  EXPECT_EQ(f.registry.live_count(), 0u);

  EXPECT_EQ(f.registry.collect(), 0u);
  EXPECT_TRUE(f.registry.shutdown().empty());
  EXPECT_EQ(destroyed, 1);  // exactly once
}

TEST(RefCounted, Check7_LeakReportNamesType) {
  Fixture f;
  int destroyed = 0;
  Ref<Tracked> kept = f.registry.make<Tracked>(&destroyed, 42);
  Ref<Tracked> kept_twice = kept;
  f.registry.make<Derived>();                                   // released at once: not a leak
  Ref<Tracked> dropped = f.registry.make<Tracked>(&destroyed);  // released, never collected
  dropped.reset();

  const LeakReport report = f.registry.shutdown();
  ASSERT_EQ(report.size(), 1u);
  EXPECT_EQ(report[0].type_name, "keel::ref_test::Tracked");
  EXPECT_EQ(report[0].size, sizeof(Tracked));
  EXPECT_EQ(report[0].references, 2u);
  EXPECT_EQ(destroyed, 1);  // the released one was collected by shutdown

  // Logged on the app channel at warn level, naming the type.
  const auto entries = f.memory.entries();
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0].channel, log::Channel::kApp);
  EXPECT_EQ(entries[0].level, log::Level::kWarn);
  EXPECT_THAT(entries[0].message, HasSubstr("keel::ref_test::Tracked"));
  EXPECT_THAT(entries[0].message, HasSubstr(fmt::format("{} bytes", sizeof(Tracked))));
  EXPECT_THAT(entries[1].message, HasSubstr("1 unreleased object"));
  EXPECT_TRUE(f.registry.is_shut_down());
  EXPECT_TRUE(f.registry.shutdown().empty());  // once only

  // Handles that outlive the shutdown still see the object, alive; the last one destroys it at
  // once (there is nothing left to collect it).
  EXPECT_EQ(kept->value(), 42);
  kept.reset();
  EXPECT_EQ(destroyed, 1);
  kept_twice.reset();
  EXPECT_EQ(destroyed, 2);
}

TEST(RefCounted, HandlesOutliveTheRegistry) {
  int destroyed = 0;
  Ref<Tracked> survivor;
  WeakRef<Tracked> weak;
  log::Logger logger;
  log::MemorySink& memory = logger.add_sink(std::make_unique<log::MemorySink>());
  {
    ObjectRegistry registry(logger);
    survivor = registry.make<Tracked>(&destroyed, 5);
    weak = survivor;
  }  // the destructor shuts down and reports
  EXPECT_TRUE(memory.contains("unreleased object: keel::ref_test::Tracked"));
  EXPECT_EQ(destroyed, 0);
  EXPECT_EQ(survivor->value(), 5);
  EXPECT_EQ(weak.lock(), survivor);
  survivor.reset();
  EXPECT_EQ(destroyed, 1);
  EXPECT_FALSE(weak.lock());
  EXPECT_TRUE(weak.expired());
}

TEST(RefCounted, WeakRefLocksOnlyWhileCountIsAboveZero) {
  Fixture f;
  int destroyed = 0;
  WeakRef<Tracked> empty;
  EXPECT_FALSE(empty.lock());
  EXPECT_TRUE(empty.expired());

  Ref<Tracked> strong = f.registry.make<Tracked>(&destroyed, 3);
  WeakRef<Tracked> weak = strong;
  WeakRef<Tracked> copy = weak;
  EXPECT_EQ(strong->ref_count(), 1u);  // weak handles do not count
  EXPECT_FALSE(weak.expired());
  {
    Ref<Tracked> locked = weak.lock();
    ASSERT_TRUE(locked);
    EXPECT_EQ(locked, strong);
    EXPECT_EQ(strong->ref_count(), 2u);
  }
  EXPECT_TRUE(weak.owner_equal(copy));

  strong.reset();  // count zero: dead, though not yet destroyed
  EXPECT_EQ(destroyed, 0);
  EXPECT_FALSE(weak.lock());  // no resurrection
  EXPECT_TRUE(weak.expired());
  f.registry.collect();
  EXPECT_EQ(destroyed, 1);
  EXPECT_FALSE(copy.lock());  // safely empty, never dangling
  EXPECT_TRUE(copy.expired());

  // Weak handles made, copied and dropped after the object died.
  WeakRef<Tracked> third = copy;
  weak.reset();
  copy = WeakRef<Tracked>();
  EXPECT_FALSE(third.lock());
}

TEST(RefCounted, WeakRefDroppedBeforeObject) {
  Fixture f;
  int destroyed = 0;
  Ref<Tracked> strong = f.registry.make<Tracked>(&destroyed);
  { WeakRef<Tracked> w = strong; }
  WeakRef<Tracked> again = strong;  // reuses the control block
  again.reset();
  strong.reset();
  EXPECT_EQ(f.registry.collect(), 1u);
  EXPECT_EQ(destroyed, 1);
}

// The seeds' fire-and-forget pattern: an object holds itself in a list and takes itself out
// during its own update.
struct SelfRemover : RefCounted {
  SelfRemover(std::vector<Ref<SelfRemover>>* list, int* destroyed)
      : list_(list), destroyed_(destroyed) {
    list_->push_back(Ref<SelfRemover>(this));  // a handle to `this` inside the constructor
  }
  ~SelfRemover() override { ++*destroyed_; }

  void update() {
    ++updates_;
    if (updates_ == 2) {
      // Drops the last reference to ourselves...
      std::erase_if(*list_, [this](const Ref<SelfRemover>& r) { return r.get() == this; });
      // ...and keeps running: the object lives until the next collect().
      after_release_ = ref_count();
      ++updates_;
    }
  }

  std::vector<Ref<SelfRemover>>* list_;
  int* destroyed_;
  int updates_ = 0;
  u32 after_release_ = 99;
};

TEST(RefCounted, SelfReleaseDuringUpdate) {
  Fixture f;
  int destroyed = 0;
  std::vector<Ref<SelfRemover>> list;
  SelfRemover* raw = f.registry.make<SelfRemover>(&list, &destroyed).get();  // handle dropped
  ASSERT_EQ(list.size(), 1u);
  EXPECT_EQ(raw->ref_count(), 1u);  // only the list holds it
  EXPECT_EQ(f.registry.collect(), 0u);

  for (int frame = 0; frame < 3; ++frame) {
    for (usize i = 0; i < list.size(); ++i) {
      Ref<SelfRemover> current = list[i];
      current->update();
    }
    if (frame == 1) {
      EXPECT_TRUE(list.empty());
      EXPECT_EQ(raw->after_release_, 1u);  // only `current` was left during the update
      EXPECT_EQ(raw->updates_, 3);         // it ran to the end of its update
      EXPECT_EQ(destroyed, 0);
    }
    f.registry.collect();
    EXPECT_EQ(destroyed, frame >= 1 ? 1 : 0);
  }
}

AssertInfo g_ref_last_assert;
int g_ref_asserts = 0;
void record_ref_assert(const AssertInfo& info) {
  g_ref_last_assert = AssertInfo{info.condition, info.file, info.line, info.message};
  ++g_ref_asserts;
}

TEST(RefCounted, NoResurrectionFromRawPointer) {
  if (!KEEL_ASSERTS_ENABLED) GTEST_SKIP() << "asserts compiled out";
  ScopedAssertHandler guard(&record_ref_assert);
  g_ref_asserts = 0;
  Fixture f;
  int destroyed = 0;
  Ref<Tracked> strong = f.registry.make<Tracked>(&destroyed);
  Tracked* raw = strong.get();
  Ref<Tracked> from_raw(raw);  // fine while alive
  EXPECT_EQ(raw->ref_count(), 2u);
  from_raw.reset();
  strong.reset();

  Ref<Tracked> zombie(raw);  // dead: refused
  EXPECT_EQ(g_ref_asserts, 1);
  EXPECT_THAT(g_ref_last_assert.message, HasSubstr("resurrection"));
  EXPECT_FALSE(zombie);
  EXPECT_EQ(raw->ref_count(), 0u);
  EXPECT_EQ(f.registry.collect(), 1u);
  EXPECT_EQ(destroyed, 1);
}

TEST(RefCounted, MakeAfterShutdownIsAProgrammerError) {
  if (!KEEL_ASSERTS_ENABLED) GTEST_SKIP() << "asserts compiled out";
  ScopedAssertHandler guard(&record_ref_assert);
  g_ref_asserts = 0;
  Fixture f;
  f.registry.shutdown();
  int destroyed = 0;
  Ref<Tracked> late = f.registry.make<Tracked>(&destroyed);
  EXPECT_EQ(g_ref_asserts, 1);
  ASSERT_TRUE(late);  // unowned: freed at its last release
  late.reset();
  EXPECT_EQ(destroyed, 1);
}

struct Node : RefCounted {
  Node(Ref<Node> child, int* destroyed) : child_(std::move(child)), destroyed_(destroyed) {}
  ~Node() override { ++*destroyed_; }
  Ref<Node> child_;
  int* destroyed_;
};

TEST(RefCounted, ChainIsDestroyedInOneCollect) {
  Fixture f;
  int destroyed = 0;
  Ref<Node> leaf = f.registry.make<Node>(Ref<Node>(), &destroyed);
  Ref<Node> root = f.registry.make<Node>(f.registry.make<Node>(leaf, &destroyed), &destroyed);
  leaf.reset();
  EXPECT_EQ(f.registry.live_count(), 3u);
  root.reset();
  EXPECT_EQ(destroyed, 0);
  EXPECT_EQ(f.registry.collect(), 3u);  // each destructor released the next one
  EXPECT_EQ(destroyed, 3);
  EXPECT_EQ(f.registry.live_count(), 0u);
}

TEST(RefCounted, HandleSemanticsUpcastsAndComparisons) {
  Fixture f;
  Ref<Derived> d = f.registry.make<Derived>();
  Ref<Base> b = d;  // upcast copy
  EXPECT_EQ(d->ref_count(), 2u);
  EXPECT_EQ(b->kind(), 2);
  EXPECT_TRUE(b == d);
  EXPECT_EQ((*b).kind(), 2);

  Ref<Base> moved = std::move(b);  // move: no count change, source empty
  EXPECT_FALSE(b);                 // NOLINT(bugprone-use-after-move)
  EXPECT_TRUE(b == nullptr);
  EXPECT_EQ(d->ref_count(), 2u);
  Ref<Base> up_moved = Ref<Derived>(d);
  EXPECT_EQ(d->ref_count(), 3u);
  up_moved = nullptr;
  EXPECT_EQ(d->ref_count(), 2u);

  Ref<Base> self = moved;
  Ref<Base>& alias = self;
  self = alias;  // self-assignment keeps the count
  EXPECT_EQ(d->ref_count(), 3u);
  self.reset();

  EXPECT_EQ(dynamic_ref_cast<Derived>(moved), d);
  EXPECT_FALSE(dynamic_ref_cast<Derived>(Ref<Base>(f.registry.make<Base>())));
  Ref<Derived> down = static_ref_cast<Derived>(moved);
  EXPECT_EQ(down, d);
  EXPECT_EQ(d->ref_count(), 3u);
  EXPECT_TRUE(down == d.get());

  Ref<Derived> e = f.registry.make<Derived>();
  EXPECT_NE(d, e);
  EXPECT_EQ(d < e, d.get() < e.get());
  EXPECT_TRUE((d <=> e) != 0);
  std::unordered_set<Ref<Derived>> set{d, e, d};
  EXPECT_EQ(set.size(), 2u);
  EXPECT_EQ(d->ref_count(), 4u);  // d, moved, down and the set

  WeakRef<Base> wb = d;  // weak upcast
  WeakRef<Base> wb2 = WeakRef<Derived>(e);
  EXPECT_EQ(wb.lock(), d);
  EXPECT_EQ(wb2.lock(), e);

  Ref<const Derived> c = d;  // const handles count too
  EXPECT_EQ(d->ref_count(), 5u);
  c.reset();
  set.clear();
  EXPECT_EQ(d->ref_count(), 3u);
}

TEST(RefCounted, DemangledTypeNameAndSize) {
  EXPECT_EQ(object_type_of<Tracked>().name, "keel::ref_test::Tracked");
  EXPECT_EQ(object_type_of<Tracked>().size, sizeof(Tracked));
  EXPECT_EQ(&object_type_of<Tracked>(), &object_type_of<Tracked>());
  EXPECT_THAT(object_type_of<Derived>().name, HasSubstr("Derived"));
  EXPECT_EQ(detail::demangle("not a mangled name"), "not a mangled name");
  Fixture f;
  Ref<Base> b = f.registry.make<Derived>();
  ASSERT_NE(b->object_type(), nullptr);
  EXPECT_EQ(b->object_type(), &object_type_of<Derived>());  // the dynamic type made
}

TEST(RefCounted, MemoryReportByType) {
  Fixture f;
  int destroyed = 0;
  std::vector<Ref<Tracked>> tracked;
  for (int i = 0; i < 3; ++i) tracked.push_back(f.registry.make<Tracked>(&destroyed));
  Ref<Derived> d = f.registry.make<Derived>();
  Ref<Other> o = f.registry.make<Other>();
  tracked.pop_back();  // pending until collected: still counted as live

  MemoryReport r = f.registry.memory_report();
  EXPECT_EQ(r.live_objects, 5u);
  EXPECT_EQ(r.pending_objects, 1u);
  EXPECT_EQ(r.total_bytes, 3 * sizeof(Tracked) + sizeof(Derived) + sizeof(Other));
  ASSERT_EQ(r.by_type.size(), 3u);
  for (usize i = 1; i < r.by_type.size(); ++i) {
    EXPECT_GE(r.by_type[i - 1].bytes, r.by_type[i].bytes);  // largest first
  }
  auto find = [&](std::string_view needle) {
    return std::find_if(r.by_type.begin(), r.by_type.end(), [&](const TypeUsage& u) {
      return u.type_name.find(needle) != u.type_name.npos;
    });
  };
  ASSERT_NE(find("Tracked"), r.by_type.end());
  EXPECT_EQ(find("Tracked")->objects, 3u);
  EXPECT_EQ(find("Tracked")->bytes, 3 * sizeof(Tracked));
  ASSERT_NE(find("Other"), r.by_type.end());
  EXPECT_EQ(find("Other")->objects, 1u);

  const std::string table = to_string(r);
  EXPECT_THAT(table, HasSubstr("keel::ref_test::Tracked"));
  EXPECT_THAT(table,
              HasSubstr(fmt::format("{} bytes  total (1 pending collection)", r.total_bytes)));

  f.registry.collect();
  r = f.registry.memory_report();
  EXPECT_EQ(r.live_objects, 4u);
  EXPECT_EQ(r.pending_objects, 0u);
  EXPECT_EQ(find("Tracked")->objects, 2u);
}

}  // namespace
}  // namespace keel
