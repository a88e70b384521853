// Golden Rules chapter 1 checks C1-01 ... C1-12 (../shared/spec, golden-rules-ch1-3).
#include "keel/core/utility.h"

#include "keel/core/assert.h"
#include "keel/core/debug_memory.h"
#include "keel/core/testing/alloc_counter.h"
#include "keel/core/types.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

namespace keel {
namespace {

TEST(GoldenRulesCh1, C1_01_FixedSizeTypes) {
  static_assert(sizeof(s8) == 1 && sizeof(u8) == 1 && sizeof(s16) == 2 && sizeof(u16) == 2);
  static_assert(sizeof(s32) == 4 && sizeof(u32) == 4 && sizeof(f32) == 4 && sizeof(f64) == 8);
  static_assert(sizeof(u64) == 8 && sizeof(s64) == 8);
  static_assert(std::is_signed_v<s8> && std::is_signed_v<s16> && std::is_signed_v<s32>);
  static_assert(std::is_unsigned_v<u8> && std::is_unsigned_v<u16> && std::is_unsigned_v<u32>);
  SUCCEED();
}

TEST(GoldenRulesCh1, C1_02_UnsignedWraparound) {
  u16 x = 0;
  x -= 1;
  u32 y = 0;
  y -= 1;
  EXPECT_EQ(x, 65535u);
  EXPECT_EQ(y, 4294967295u);
}

TEST(GoldenRulesCh1, C1_03_IncPointerAdvancesBytesAndWalksChunks) {
  u32 a[4] = {};
  EXPECT_EQ(inc_pointer(a, 1), reinterpret_cast<u32*>(reinterpret_cast<u8*>(a) + 1));
  EXPECT_NE(inc_pointer(a, 1), a + 1);  // the book's precedence bug advanced 4 bytes
  const u32* ca = a;
  EXPECT_EQ(inc_pointer(ca, 8), a + 2);  // const overload

  struct ChunkHeader {
    u32 type;
    u32 size;  // bytes of data after the header
  };
  alignas(ChunkHeader) std::byte file[64] = {};
  const u32 types[] = {0x11, 0x22, 0x33};
  const u32 sizes[] = {8, 0, 16};
  usize at = 0;
  for (usize i = 0; i < countof(types); ++i) {
    const ChunkHeader h{types[i], sizes[i]};
    std::memcpy(file + at, &h, sizeof h);
    at += sizeof h + sizes[i];
  }
  std::vector<u32> seen;
  const auto* header = reinterpret_cast<const ChunkHeader*>(file);
  for (usize i = 0; i < countof(types); ++i) {
    seen.push_back(header->type);
    header = inc_pointer(header, static_cast<std::ptrdiff_t>(sizeof(ChunkHeader) + header->size));
  }
  EXPECT_EQ(seen, (std::vector<u32>{0x11, 0x22, 0x33}));
}

template <typename T>
concept Countable = requires(const T& t) {
  countof(t);
};

TEST(GoldenRulesCh1, C1_04_CountofAndOffsetof) {
  int seventeen[17] = {};
  static_assert(countof(seventeen) == 17);
  static_assert(countof(std::array<int, 5>{}) == 5);
  static_assert(Countable<int[3]>);
  static_assert(!Countable<int*>, "countof must reject pointers");
  struct S {
    u8 a;
    u32 b;
  };
  EXPECT_EQ(offsetof(S, b), 4u);
  (void)seventeen;
}

// The book's three MIN macros, here only to show why Keel uses std::min.
#define MIN_FIRST(a, b) (a < b) ? a : b
#define MIN_FINAL(a, b) (((a) < (b)) ? (a) : (b))

TEST(GoldenRulesCh1, C1_05_MinMacroPitfalls) {
  EXPECT_EQ(MIN_FINAL(10, 100) * 50, 500);
  EXPECT_EQ(MIN_FIRST(10, 100) * 50, 10);  // the body's precedence bug
  const int b = 3;
  const int a = 7;
  EXPECT_EQ(MIN_FINAL(b, a), 3);
  int calls = 0;
  auto next = [&] { return ++calls; };
  (void)MIN_FINAL(next(), 100);
  EXPECT_EQ(calls, 2);  // a macro argument is evaluated twice
  calls = 0;
  (void)std::min(next(), 100);
  EXPECT_EQ(calls, 1);
}

// Stand-in D3D codes for the book's error-text tables.
enum StandInResult : s32 {
  D3D_OK = 0,
  D3DERR_INVALIDCALL = -2005530516,
  D3DERR_OUTOFVIDEOMEMORY = -2005532292,
  D3DERR_DEVICELOST = -2005530520,
};
const char* error_text_full(s32 code) {
  switch (code) {
    KEEL_NAME_CASE(D3D_OK)
    KEEL_NAME_CASE(D3DERR_INVALIDCALL)
    KEEL_NAME_CASE(D3DERR_OUTOFVIDEOMEMORY)
    KEEL_NAME_CASE(D3DERR_DEVICELOST)
    default: return "Unknown error";
  }
}
const char* error_text_short(s32 code) {
  switch (code) {
    KEEL_NAME_CASE_PREFIXED(D3DERR_, INVALIDCALL)
    KEEL_NAME_CASE_PREFIXED(D3DERR_, OUTOFVIDEOMEMORY)
    KEEL_NAME_CASE_PREFIXED(D3DERR_, DEVICELOST)
    case D3D_OK: return "No error";
    default: return "Unknown error";
  }
}

#define KEEL_TEST_LOAD_ERRORS(X) X(kOk) X(kNoFile) X(kBadMagic) X(kTruncated)
KEEL_ENUM_WITH_NAMES(LoadError, u8, KEEL_TEST_LOAD_ERRORS)

TEST(GoldenRulesCh1, C1_06_ErrorTextTablesWithStringizeAndPaste) {
  EXPECT_STREQ(error_text_full(D3DERR_INVALIDCALL), "D3DERR_INVALIDCALL");
  EXPECT_STREQ(error_text_full(12345), "Unknown error");
  EXPECT_STREQ(error_text_short(D3DERR_INVALIDCALL), "INVALIDCALL");
  EXPECT_STREQ(error_text_short(D3D_OK), "No error");
  EXPECT_STREQ(error_text_short(12345), "Unknown error");
  // The X-macro: enumerators and names from one list.
  static_assert(static_cast<int>(LoadError::kTruncated) == 3);
  EXPECT_STREQ(to_string(LoadError::kBadMagic), "kBadMagic");
  EXPECT_STREQ(to_string(static_cast<LoadError>(9)), "unknown");
}

struct Seen {
  int calls = 0;
  std::string condition;
  std::string file;
  int line = 0;
};
Seen g_seen;

TEST(GoldenRulesCh1, C1_07_AssertReportsConditionFileAndLineAndIsAStatement) {
  g_seen = {};
  const ScopedAssertHandler handler([](const AssertInfo& info) {
    ++g_seen.calls;
    g_seen.condition = std::string(info.condition);
    g_seen.file = std::string(info.file);
    g_seen.line = info.line;
  });
  int counter = 0;
#if KEEL_ASSERTS_ENABLED
  const int* p = nullptr;
  const int line = __LINE__ + 1;
  KEEL_ASSERT(p != 0);
  EXPECT_EQ(g_seen.calls, 1);
  EXPECT_EQ(g_seen.condition, "p != 0");
  EXPECT_EQ(g_seen.file, __FILE__);
  EXPECT_EQ(g_seen.line, line);
  KEEL_ASSERT(++counter);  // evaluated in debug builds...
  EXPECT_EQ(counter, 1);
#else
  KEEL_ASSERT(++counter);  // ...never in release builds
  EXPECT_EQ(counter, 0);
#endif
  bool else_ran = false;
  const bool c = false;
  if (c)
    KEEL_ASSERT(counter == 99);
  else
    else_ran = true;
  EXPECT_TRUE(else_ran);
}

struct Parent {
  virtual ~Parent() = default;
  virtual std::string who() const { return "parent"; }
};
struct Middle : Parent {
  KEEL_SUPER(Parent);

 public:
  std::string who() const override { return "middle"; }
};
struct Child : Middle {
  KEEL_SUPER(Middle);  // was KEEL_SUPER(Parent) before Middle was inserted: one line changed

 public:
  std::string who() const override { return "child"; }
  std::string parent_who() const { return super::who(); }
  std::string grandparent_who() const { return super::super::who(); }
};

TEST(GoldenRulesCh1, C1_08_VirtualDispatchAndSuper) {
  Child temp;
  const Parent* p = &temp;
  EXPECT_EQ(p->who(), "child");
  EXPECT_EQ(p->Parent::who(), "parent");
  EXPECT_EQ(temp.parent_who(), "middle");
  EXPECT_EQ(temp.grandparent_who(), "parent");
}

enum class Kind : u8 { kGoodGuy, kBadGuy, kNeutral, kInert };
class Object {
 public:
  bool is_good_guy() const { return kinds_.has(Kind::kGoodGuy); }
  bool is_bad_guy() const { return kinds_.has(Kind::kBadGuy); }
  bool is_neutral() const { return kinds_.has(Kind::kNeutral); }
  bool is_inert() const { return kinds_.has(Kind::kInert); }

 protected:
  Flags<Kind> kinds_;
};
struct Player : Object {
  Player() { kinds_.set(Kind::kGoodGuy); }
};
struct BadGuy : Object {
  BadGuy() { kinds_.set(Kind::kBadGuy); }
};
struct TreeObject : Object {
  TreeObject() { kinds_ = {Kind::kInert}; }
};

TEST(GoldenRulesCh1, C1_09_FlagBasedTypeQueries) {
  static_assert(!std::is_polymorphic_v<Object>, "the queries are not virtual");
  static_assert(sizeof(Flags<Kind>) == 8);
  const Player player;
  const BadGuy bad;
  const TreeObject tree;
  EXPECT_TRUE(player.is_good_guy());
  EXPECT_FALSE(bad.is_good_guy());
  EXPECT_FALSE(tree.is_good_guy());
  EXPECT_TRUE(bad.is_bad_guy());
  EXPECT_FALSE(player.is_bad_guy());
  EXPECT_TRUE(tree.is_inert());
  EXPECT_FALSE(player.is_inert());
  EXPECT_FALSE(tree.is_neutral());
}

struct Foo {
  explicit Foo(int v) : value(v) {}
  virtual ~Foo() = default;
  int value;
};
struct Bar : Foo {
  Bar() : Foo(2) {}
  std::vector<int> more = {1, 2, 3};
};

TEST(GoldenRulesCh1, C1_10_AllocationHooksRecordTheCallSite) {
  const usize before = memory::outstanding_count();
  const int line = __LINE__ + 1;
  Foo* foo = KEEL_TRACKED_NEW Foo(7);
  ASSERT_EQ(memory::outstanding_count(), before + 1);
  const auto list = memory::outstanding();
  const memory::Allocation& last = list.back();
  EXPECT_EQ(last.address, foo);
  EXPECT_EQ(last.size, sizeof(Foo));
  EXPECT_STREQ(last.file, __FILE__);
  EXPECT_EQ(last.line, line);
  EXPECT_NE(memory::outstanding_report().find(fmt::format("utility_test.cpp:{}", line)),
            std::string::npos)
      << memory::outstanding_report();
  KEEL_TRACKED_DELETE(foo);
  EXPECT_EQ(memory::outstanding_count(), before);
  // Through a base pointer, and the raw form.
  Foo* bar = KEEL_TRACKED_NEW Bar;
  void* block = memory::allocate(100, __FILE__, __LINE__);
  EXPECT_EQ(memory::outstanding_count(), before + 2);
  KEEL_TRACKED_DELETE(bar);
  memory::deallocate(block);
  EXPECT_EQ(memory::outstanding_count(), before);
  // KEEL_NEW is tracked exactly in debug-memory builds, plain new otherwise.
  Foo* plain = KEEL_NEW Foo(1);
  EXPECT_EQ(memory::outstanding_count(), before + (KEEL_DEBUG_MEMORY ? 1 : 0));
  KEEL_DELETE(plain);
  EXPECT_EQ(memory::outstanding_count(), before);
}

struct Loaded {
  explicit Loaded(u32 v) : value(v) {}
  virtual ~Loaded() = default;
  virtual u32 twice() const { return value * 2; }
  u32 value;
};

TEST(GoldenRulesCh1, C1_11_PlacementConstructionInALoadedBuffer) {
  alignas(Loaded) std::byte buffer[64] = {};
  testing::AllocationScope scope;
  Loaded* object = construct_in<Loaded>(MutableByteSpan(buffer), 21u);
  EXPECT_EQ(scope.count(), 0u);
  ASSERT_EQ(static_cast<void*>(object), static_cast<void*>(buffer));
  const Loaded* base = object;
  EXPECT_EQ(base->twice(), 42u);  // the vtable works
  std::destroy_at(object);
}

int g_expensive_runs = 0;
int language_id() {
  return once([] {
    ++g_expensive_runs;  // the slow search for the language, run once
    return 7;
  });
}

TEST(GoldenRulesCh1, C1_12_OneShotStaticInitialisation) {
  int sum = 0;
  for (int i = 0; i < 100; ++i) sum += language_id();
  EXPECT_EQ(sum, 700);
  EXPECT_EQ(g_expensive_runs, 1);
  // Another call site has its own value.
  EXPECT_EQ(once([] { return 3; }), 3);
  EXPECT_EQ(g_expensive_runs, 1);
}

#if KEEL_ASSERTS_ENABLED
TEST(EntryPoints, UtilityMistakesAreNamed) {
  static std::string message;
  const ScopedAssertHandler handler([](const AssertInfo& info) { message = info.message; });
  alignas(Loaded) std::byte small[4] = {};
  EXPECT_EQ(construct_in<Loaded>(MutableByteSpan(small), 1u), nullptr);
  EXPECT_NE(message.find("cannot hold"), std::string::npos) << message;
  int local = 0;
  memory::deallocate(&local);
  EXPECT_NE(message.find("not allocated by the tracking allocator"), std::string::npos) << message;
}
#endif

}  // namespace
}  // namespace keel

TEST(Utility, StableSortKeepsTheOrderOfEqualElements) {
  struct Row {
    int key;
    std::string name;
  };
  std::vector<Row> rows = {{2, "a"}, {1, "b"}, {2, "c"}, {1, "d"}, {0, "e"}, {2, "f"}};
  keel::stable_sort(rows, [](const Row& x, const Row& y) { return x.key < y.key; });
  std::string order;
  for (const Row& r : rows) order += r.name;
  EXPECT_EQ(order, "ebdacf");
  std::vector<Row> none;
  keel::stable_sort(none, [](const Row& x, const Row& y) { return x.key < y.key; });
  EXPECT_TRUE(none.empty());
}
