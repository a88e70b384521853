// Every supported type, the wire layout of containers, user extension points, length-field
// validation and sticky errors.
#include "keel/serial/serial.h"
#include "keel/serial/testing/wire.h"

#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace game {

// A user type with a free serialize() found by ADL; Keel is not touched.
struct Vec3 {
  keel::f32 x = 0, y = 0, z = 0;
  friend bool operator==(const Vec3&, const Vec3&) = default;
};
template <class Archive>
void serialize(Archive& ar, Vec3& v) {
  ar(v.x, v.y, v.z);
}

enum class Team : keel::u8 { kRed = 1, kBlue = 2 };

}  // namespace game

// A "third-party" type with no serialize of its own, adapted from outside.
namespace thirdparty {
struct Rgba {
  keel::u8 r = 0, g = 0, b = 0, a = 0;
  friend bool operator==(const Rgba&, const Rgba&) = default;
};
}  // namespace thirdparty

template <>
struct keel::serial::Adapter<thirdparty::Rgba> {
  template <class Archive>
  static void serialize(Archive& ar, thirdparty::Rgba& c) {
    ar(c.r, c.g, c.b, c.a);
  }
};

namespace keel::serial {
namespace {

using serial::testing::wire;

enum Plain : s16 { kMinusOne = -1, kSeven = 7 };

struct Everything {
  bool flag = false;
  u8 a = 0;
  u16 b = 0;
  u32 c = 0;
  u64 d = 0;
  s8 e = 0;
  s16 f = 0;
  s32 g = 0;
  s64 h = 0;
  f32 i = 0;
  f64 j = 0;
  char k = 0;
  game::Team team = game::Team::kRed;
  Plain plain = kSeven;
  std::string name;
  std::vector<s32> numbers;
  std::vector<std::string> words;
  std::vector<game::Vec3> points;
  std::vector<bool> bits;
  std::vector<std::vector<u16>> nested;
  std::array<f32, 3> fixed{};
  u16 c_array[2] = {0, 0};
  std::optional<u32> maybe;
  std::optional<std::string> maybe_name;
  std::pair<u8, std::string> pair;
  std::tuple<u16, bool, f64> tuple;
  thirdparty::Rgba colour;
  game::Vec3 position;

  template <class Archive>
  void serialize(Archive& ar) {
    ar(flag, a, b, c, d, e, f, g, h, i, j, k, team, plain, name, numbers, words, points, bits,
       nested, fixed, c_array, maybe, maybe_name, pair, tuple, colour, position);
  }
  friend bool operator==(const Everything&, const Everything&) = default;
};

Everything sample() {
  Everything v;
  v.flag = true;
  v.a = 200;
  v.b = 0xBEEF;
  v.c = 0xDEADBEEF;
  v.d = 0xFEDCBA9876543210ull;
  v.e = -100;
  v.f = -30000;
  v.g = std::numeric_limits<s32>::min();
  v.h = std::numeric_limits<s64>::min() + 1;
  v.i = 3.25f;
  v.j = -1e300;
  v.k = 'K';
  v.team = game::Team::kBlue;
  v.plain = kMinusOne;
  v.name = "Big Level";
  v.numbers = {1, -2, 3, std::numeric_limits<s32>::max()};
  v.words = {"", "one", "two words"};
  v.points = {{1, 2, 3}, {-4, 5.5f, 6}};
  v.bits = {true, false, true, true};
  v.nested = {{}, {1, 2}, {3}};
  v.fixed = {0.5f, -0.5f, 8};
  v.c_array[0] = 11;
  v.c_array[1] = 12;
  v.maybe = 42;
  v.maybe_name = std::nullopt;
  v.pair = {9, "nine"};
  v.tuple = {7, true, 0.125};
  v.colour = {1, 2, 3, 4};
  v.position = {7, 8, 9};
  return v;
}

TEST(SerialTypes, EverySupportedTypeRoundTrips) {
  const Everything original = sample();
  auto bytes = save_to_bytes(original);
  ASSERT_TRUE(bytes) << bytes.error().to_string();
  EXPECT_EQ(bytes->size(), *serialized_size(original));
  Everything loaded;
  ASSERT_TRUE(load_from_bytes(*bytes, loaded));
  EXPECT_EQ(loaded, original);
  // Saving what was loaded gives the same bytes: the format is canonical.
  EXPECT_EQ(*save_to_bytes(loaded), *bytes);
}

template <class T>
ByteBuffer bytes_of(const T& value) {
  auto bytes = save_to_bytes(value);
  EXPECT_TRUE(bytes);
  return bytes ? *bytes : ByteBuffer{};
}

TEST(SerialTypes, WireLayoutOfEachKind) {
  EXPECT_EQ(bytes_of(true), (wire({1})));
  EXPECT_EQ(bytes_of(std::string("hi")), (wire({0, 0, 0, 2, 'h', 'i'})));
  EXPECT_EQ(bytes_of(std::vector<u16>{1, 0x0203}), (wire({0, 0, 0, 2, 0, 1, 2, 3})));
  EXPECT_EQ(bytes_of(std::vector<bool>{true, false}), (wire({0, 0, 0, 2, 1, 0})));
  EXPECT_EQ(bytes_of(std::array<u8, 3>{7, 8, 9}), (wire({7, 8, 9})));  // no count
  EXPECT_EQ(bytes_of(std::optional<u16>{}), (wire({0})));
  EXPECT_EQ(bytes_of(std::optional<u16>{0x0102}), (wire({1, 1, 2})));
  EXPECT_EQ(bytes_of(game::Team::kBlue), (wire({2})));  // the underlying u8
  EXPECT_EQ(bytes_of(kMinusOne), (wire({0xFF, 0xFF})));
  EXPECT_EQ(bytes_of(game::Vec3{1, 0, 0}), (wire({0x3F, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0})));
  EXPECT_EQ(bytes_of(std::pair<u8, u16>{1, 2}), (wire({1, 0, 2})));
  EXPECT_EQ(bytes_of(thirdparty::Rgba{1, 2, 3, 4}), (wire({1, 2, 3, 4})));
  EXPECT_EQ(bytes_of(std::vector<std::string>{"a", ""}),
            (wire({0, 0, 0, 2, 0, 0, 0, 1, 'a', 0, 0, 0, 0})));
}

TEST(SerialTypes, FloatsKeepTheirExactBits) {
  const std::vector<f32> floats = {-0.0f, std::numeric_limits<f32>::infinity(),
                                   std::bit_cast<f32>(u32{0x7FC12345}),  // NaN with a payload
                                   std::numeric_limits<f32>::denorm_min()};
  const std::vector<f64> doubles = {-0.0, std::bit_cast<f64>(u64{0x7FF8000000ABCDEFull}),
                                    std::numeric_limits<f64>::lowest()};
  std::vector<f32> f_loaded;
  std::vector<f64> d_loaded;
  ASSERT_TRUE(load_from_bytes(bytes_of(floats), f_loaded));
  ASSERT_TRUE(load_from_bytes(bytes_of(doubles), d_loaded));
  ASSERT_EQ(f_loaded.size(), floats.size());
  ASSERT_EQ(d_loaded.size(), doubles.size());
  for (usize n = 0; n < floats.size(); ++n) {
    EXPECT_EQ(std::bit_cast<u32>(f_loaded[n]), std::bit_cast<u32>(floats[n]));
  }
  for (usize n = 0; n < doubles.size(); ++n) {
    EXPECT_EQ(std::bit_cast<u64>(d_loaded[n]), std::bit_cast<u64>(doubles[n]));
  }
}

TEST(SerialTypes, ConstValuesCanBeSavedAndSized) {
  const u32 tag = 0x0A0B0C0D;
  ByteBuffer buffer(4);
  BufferSaver saver(buffer);
  saver.io(tag);
  Sizer sizer;
  sizer(tag, tag);
  EXPECT_EQ(buffer, (wire({0x0A, 0x0B, 0x0C, 0x0D})));
  EXPECT_EQ(sizer.size(), 8u);
}

// Counts the largest single allocation a loader asks for.
inline usize g_largest_allocation = 0;
template <class T>
struct CountingAllocator {
  using value_type = T;
  CountingAllocator() = default;
  template <class U>
  CountingAllocator(const CountingAllocator<U>&) {}
  T* allocate(usize n) {
    g_largest_allocation = std::max(g_largest_allocation, n * sizeof(T));
    return std::allocator<T>().allocate(n);
  }
  void deallocate(T* p, usize n) { std::allocator<T>().deallocate(p, n); }
  friend bool operator==(const CountingAllocator&, const CountingAllocator&) = default;
};

template <class T>
Status load_garbage_length(ByteBuffer bytes, LoadLimits limits = {}) {
  T value{};
  BufferLoader loader(bytes, limits);
  loader.io(value);
  return loader.finish();
}

TEST(SerialTypes, FourBillionLengthIsAnErrorNotAnAllocation) {
  const ByteBuffer huge = wire({0xFF, 0xFF, 0xFF, 0xFF, 1, 2, 3, 4, 5, 6, 7, 8});
  const LoadLimits unlimited{std::numeric_limits<u32>::max(), std::numeric_limits<u32>::max()};
  g_largest_allocation = 0;
  for (const LoadLimits& limits : {LoadLimits{}, unlimited}) {
    const ErrorCode expected = limits.max_elements == unlimited.max_elements
                                   ? ErrorCode::kUnderflow
                                   : ErrorCode::kOutOfRange;
    auto s1 = load_garbage_length<std::string>(huge, limits);
    auto s2 = load_garbage_length<std::vector<u64, CountingAllocator<u64>>>(huge, limits);
    auto s3 =
        load_garbage_length<std::vector<game::Vec3, CountingAllocator<game::Vec3>>>(huge, limits);
    auto s4 =
        load_garbage_length<std::vector<std::string, CountingAllocator<std::string>>>(huge, limits);
    auto s5 = load_garbage_length<std::vector<bool, CountingAllocator<bool>>>(huge, limits);
    for (const Status* s : {&s1, &s2, &s3, &s4, &s5}) {
      ASSERT_FALSE(*s);
      EXPECT_EQ(s->error().code(), expected);
      EXPECT_EQ(s->error().where().offset, 0u);  // the length field
    }
  }
  EXPECT_EQ(g_largest_allocation, 0u);
}

TEST(SerialTypes, PlausibleButWrongCountAllocatesOnlyWhatTheDataCanHold) {
  // A vector of user objects claims 8 elements; 2 bytes follow. At most one element is built.
  ByteBuffer bytes = wire({0, 0, 0, 2, 0xAA, 0xBB});
  g_largest_allocation = 0;
  auto s = load_garbage_length<std::vector<game::Vec3, CountingAllocator<game::Vec3>>>(bytes);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code(), ErrorCode::kUnderflow);
  EXPECT_LE(g_largest_allocation, 2 * sizeof(game::Vec3));
}

TEST(SerialTypes, LimitsAreConfigurable) {
  const ByteBuffer bytes = bytes_of(std::string("0123456789"));
  std::string s;
  EXPECT_TRUE(load_from_bytes(bytes, s, LoadLimits{10, 10}));
  auto refused = load_from_bytes(bytes, s, LoadLimits{9, 10});
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code(), ErrorCode::kOutOfRange);
  std::vector<u8> v;
  auto too_many = load_from_bytes(bytes, v, LoadLimits{100, 5});
  ASSERT_FALSE(too_many);
  EXPECT_EQ(too_many.error().code(), ErrorCode::kOutOfRange);
}

TEST(SerialTypes, BadFlagBytesAreCorrupt) {
  bool b = false;
  auto bad_bool = load_from_bytes(wire({2}), b);
  ASSERT_FALSE(bad_bool);
  EXPECT_EQ(bad_bool.error().code(), ErrorCode::kCorrupt);
  EXPECT_EQ(bad_bool.error().where().offset, 0u);
  std::optional<u8> o;
  auto bad_optional = load_from_bytes(wire({7, 1}), o);
  ASSERT_FALSE(bad_optional);
  EXPECT_EQ(bad_optional.error().code(), ErrorCode::kCorrupt);
  std::vector<bool> bits;
  auto bad_bit = load_from_bytes(wire({0, 0, 0, 2, 1, 9}), bits);
  ASSERT_FALSE(bad_bit);
  EXPECT_EQ(bad_bit.error().where().offset, 5u);
}

struct Unit {
  game::Team team = game::Team::kRed;
  u32 hp = 0;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(team);
    if constexpr (Archive::kLoading) {
      if (team != game::Team::kRed && team != game::Team::kBlue) {
        ar.fail(ErrorCode::kCorrupt, "bad team");
      }
    }
    ar(hp);
  }
};

TEST(SerialTypes, UserFailStopsTheArchive) {
  const ByteBuffer bytes = wire({3, 0, 0, 0, 5});
  Unit unit;
  BufferLoader loader(bytes);
  loader.io(unit);
  EXPECT_EQ(unit.hp, 0u);  // nothing read after the failure
  EXPECT_EQ(loader.offset(), 1u);
  Status status = loader.finish();  // the first error wins over the left-over bytes
  ASSERT_FALSE(status);
  EXPECT_EQ(status.error().code(), ErrorCode::kCorrupt);
  EXPECT_EQ(status.error().message(), "bad team");
  EXPECT_EQ(status.error().where().offset, 1u);
}

TEST(SerialTypes, LoadingReusesAndResizesContainers) {
  std::vector<std::string> words = {"a", "b", "c", "d"};
  ASSERT_TRUE(load_from_bytes(bytes_of(std::vector<std::string>{"x", "y"}), words));
  EXPECT_EQ(words, (std::vector<std::string>{"x", "y"}));
  ASSERT_TRUE(load_from_bytes(bytes_of(std::vector<std::string>{"1", "2", "3"}), words));
  EXPECT_EQ(words, (std::vector<std::string>{"1", "2", "3"}));
  std::optional<std::string> maybe = "old";
  ASSERT_TRUE(load_from_bytes(bytes_of(std::optional<std::string>{}), maybe));
  EXPECT_FALSE(maybe.has_value());
}

TEST(SerialTypes, LoadHelpersAreAllOrNothing) {
  const Everything original = sample();
  ByteBuffer bytes = bytes_of(original);
  bytes.resize(bytes.size() - 3);
  Everything target;
  target.name = "untouched";
  auto status = load_from_bytes(bytes, target);
  ASSERT_FALSE(status);
  EXPECT_EQ(status.error().code(), ErrorCode::kUnderflow);
  EXPECT_EQ(target.name, "untouched");
  EXPECT_TRUE(target.numbers.empty());
}

TEST(SerialTypes, SaverErrorsAreSticky) {
  ByteBuffer buffer(6, std::byte{0xEE});
  BufferSaver saver(buffer);
  std::string s = "toolong";
  u8 one = 1;
  saver.io(s);  // length fits (4 bytes), the 7 bytes do not
  ASSERT_FALSE(saver.ok());
  saver.fail(ErrorCode::kCorrupt, "second error");  // ignored: the first one stays
  saver.io(one);
  EXPECT_EQ(saver.status().error().code(), ErrorCode::kOverflow);
  EXPECT_EQ(saver.status().error().where().offset, 4u);
  EXPECT_EQ(saver.used(), 4u);
  EXPECT_EQ(buffer[4], std::byte{0xEE});
  EXPECT_EQ(buffer[5], std::byte{0xEE});
}

TEST(SerialTypes, SizerMatchesSaverForEveryPrefixOfAnObject) {
  // The same description drives all three: sizes agree value by value.
  const Everything v = sample();
  Sizer sizer;
  ByteBuffer buffer(*serialized_size(v));
  BufferSaver saver(buffer);
  Everything copy = v;
  auto step = [&](auto& member) {
    sizer.io(member);
    saver.io(member);
    EXPECT_EQ(sizer.size(), saver.used());
  };
  step(copy.name);
  step(copy.points);
  step(copy.nested);
  step(copy.maybe);
  step(copy.tuple);
}

TEST(SerialTypes, GrowingSaverWritesTheSameBytesInOnePass) {
  const Everything v = sample();
  const ByteBuffer expected = bytes_of(v);
  GrowingSaver saver(16);  // forces several growths, including inside bulk arrays
  saver.io(v);
  ASSERT_TRUE(saver.finish());
  EXPECT_EQ(saver.to_vector(), expected);
  EXPECT_GE(saver.capacity(), expected.size());

  // Reuse: clear() rewinds and forgets errors, keeping the buffer.
  const usize capacity = saver.capacity();
  saver.fail(ErrorCode::kCorrupt, "oops");
  u8 ignored = 1;
  saver.io(ignored);
  EXPECT_EQ(saver.used(), expected.size());
  saver.clear();
  EXPECT_TRUE(saver.ok());
  EXPECT_EQ(saver.used(), 0u);
  saver.io(v);
  EXPECT_EQ(saver.to_vector(), expected);
  EXPECT_EQ(saver.capacity(), capacity);
}

TEST(SerialTypes, ScalarRunsBehaveExactlyLikeSingleValues) {
  // ar(a, b, c) checks a run of scalars once; when the run does not fit, the values that do fit
  // are still written/read and the error is at the first that does not, as with ar.io() each.
  u32 a = 0x01020304, b = 0x05060708, c = 0x090A0B0C;
  const f32 d = 2.0f;
  Sizer sizer;
  sizer(a, b, c, d);
  EXPECT_EQ(sizer.size(), 16u);

  std::array<u8, 10> buffer{};
  buffer[9] = 0xAB;  // guard
  BufferSaver saver(as_writable_bytes(std::span<u8>(buffer)).first(9));
  saver(a, b, c);
  ASSERT_FALSE(saver.ok());
  EXPECT_EQ(saver.status().error().code(), ErrorCode::kOverflow);
  EXPECT_EQ(saver.status().error().where().offset, 8u);
  EXPECT_EQ(saver.used(), 8u);
  EXPECT_EQ(buffer, (std::array<u8, 10>{1, 2, 3, 4, 5, 6, 7, 8, 0, 0xAB}));

  u32 x = 0, y = 0, z = 99;
  BufferLoader loader(as_bytes(std::span<const u8>(buffer)).first(9));
  loader(x, y, z);
  EXPECT_EQ(x, a);
  EXPECT_EQ(y, b);
  EXPECT_EQ(z, 99u);  // untouched
  ASSERT_FALSE(loader.ok());
  EXPECT_EQ(loader.status().error().code(), ErrorCode::kUnderflow);
  EXPECT_EQ(loader.status().error().where().offset, 8u);

  GrowingSaver growing(16);
  growing(a, b, c, d, a, b);  // 24 bytes: grows inside the run
  ASSERT_TRUE(growing.ok());
  EXPECT_EQ(growing.used(), 24u);
  ByteBuffer full(24);
  BufferSaver exact(full);
  exact(a, b, c, d, a, b);
  EXPECT_EQ(growing.to_vector(), full);
  u32 r1 = 0, r2 = 0, r3 = 0, r5 = 0, r6 = 0;
  f32 r4 = 0;
  BufferLoader back(full);
  back(r1, r2, r3, r4, r5, r6);
  ASSERT_TRUE(back.finish());
  EXPECT_EQ(std::tie(r1, r2, r3, r4, r5, r6), std::tie(a, b, c, d, a, b));
}

}  // namespace
}  // namespace keel::serial
