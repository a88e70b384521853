// The compiled file: round trips, atomic saves, and a loader that rejects corrupted files
// with a located error instead of crashing (the fuzz target fsm_binary_fuzz.cpp goes further).
#include "keel/core/file.h"
#include "keel/fsm/testing/exercise.h"
#include "keel/fsm/testing/fsm_fixture.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

namespace keel::fsm {
namespace {

using ::testing::HasSubstr;

CompiledFsms example(std::string_view file, const TypeRegistry& types) {
  std::string errors;
  std::optional<CompiledFsms> image =
      testing::compile_file(testing::example_path(file), types, &errors);
  EXPECT_TRUE(image.has_value()) << errors;
  return image ? std::move(*image) : CompiledFsms();
}

void put(ByteBuffer& bytes, u32 word, u32 value) {
  for (u32 b = 0; b < 4; ++b)
    bytes[word * 4 + b] = static_cast<std::byte>((value >> (8 * b)) & 0xFF);
}

std::string load_error(const ByteBuffer& bytes) {
  const Result<CompiledFsms> r = CompiledFsms::from_bytes(bytes, "bad.kfsm");
  EXPECT_FALSE(r.has_value());
  return r ? std::string() : r.error().to_string();
}

TEST(FsmBinary, RoundTripAndAtomicSave) {
  const CompiledFsms image = example("default_character.fsm", testing::character_types());
  const ByteBuffer bytes = image.to_bytes();
  EXPECT_EQ(bytes.size() % 4, 0u);
  EXPECT_EQ(std::to_integer<char>(bytes[0]), 'K');
  EXPECT_EQ(std::to_integer<char>(bytes[3]), 'M');
  const Result<CompiledFsms> loaded = CompiledFsms::from_bytes(bytes);
  ASSERT_TRUE(loaded) << loaded.error().to_string();
  EXPECT_TRUE(std::ranges::equal(loaded->words(), image.words()));
  EXPECT_EQ(loaded->fsm(0).name(), "DefaultCharacter");

  const std::filesystem::path dir = std::filesystem::path(KEEL_TEST_TMPDIR) / "fsm_binary";
  std::filesystem::create_directories(dir);
  const std::filesystem::path path = dir / "character.kfsm";
  ASSERT_TRUE(image.save_file(path));
  const Result<CompiledFsms> from_disk = CompiledFsms::load_file(path);
  ASSERT_TRUE(from_disk) << from_disk.error().to_string();
  EXPECT_TRUE(std::ranges::equal(from_disk->words(), image.words()));
  // No temporary left behind.
  usize files = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir)) ++files;
  EXPECT_EQ(files, 1u);
}

TEST(FsmBinary, IdenticalHandlersAreStoredOnce) {
  const CompiledFsms image = example("default_character.fsm", testing::character_types());
  const FsmView f = image.fsm(0);
  // Attack and Attack2 both say On("event_death") Transition("Die").
  const StateView attack = *f.find_state(string_hash("Attack"));
  const StateView attack2 = *f.find_state(string_hash("Attack2"));
  const auto a = attack.find_handler(string_hash("event_death"));
  const auto b = attack2.find_handler(string_hash("event_death"));
  ASSERT_TRUE(a && b);
  EXPECT_EQ(a->data(), b->data());
}

TEST(FsmBinary, CorruptionsAreRejectedWithALocation) {
  const CompiledFsms image = example("atm.fsm", TypeRegistry());
  const ByteBuffer good = image.to_bytes();
  const StateView idle = *image.fsm(0).find_state(string_hash("Idle"));
  const u32 handler = idle.handler_offset(0);

  ByteBuffer bytes = good;
  put(bytes, 0, 0x12345678);
  EXPECT_THAT(load_error(bytes), HasSubstr("bad.kfsm: byte 0: error: not an FSM file (bad magic)"));

  bytes = good;
  put(bytes, 1, 99);
  EXPECT_THAT(load_error(bytes), HasSubstr("FSM file version 99"));

  bytes = good;
  bytes.resize(bytes.size() - 4);
  EXPECT_THAT(load_error(bytes), HasSubstr("word count"));
  bytes.resize(bytes.size() - 1);
  EXPECT_THAT(load_error(bytes), HasSubstr("not a multiple of 4"));

  bytes = good;  // Transition with a length of 2
  put(bytes, handler, make_header(Opcode::kTransition, 2, 1));
  EXPECT_THAT(load_error(bytes),
              HasSubstr(fmt::format("byte {}: error: malformed Transition", handler * 4)));

  bytes = good;  // an opcode that does not exist
  put(bytes, handler, make_header(static_cast<u8>(20), 1));
  EXPECT_THAT(load_error(bytes), HasSubstr("unknown command opcode 20"));

  bytes = good;                                             // a name that does not match its hash
  put(bytes, image.words()[image.words()[4]], 0xDEADBEEF);  // the first FSM record's name hash
  EXPECT_THAT(load_error(bytes), HasSubstr("does not match its hash"));

  bytes = good;  // the pool's last byte is not NUL
  bytes[image.words()[5] * 4 + image.words()[6] - 1] = std::byte{'x'};
  EXPECT_THAT(load_error(bytes), HasSubstr("does not end with a NUL"));

  EXPECT_THAT(load_error({}), HasSubstr("too short"));
}

TEST(FsmBinary, EveryTruncationIsRejected) {
  const ByteBuffer good = example("atm.fsm", TypeRegistry()).to_bytes();
  for (usize size = 0; size < good.size(); ++size) {
    const ByteBuffer cut(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(size));
    EXPECT_FALSE(CompiledFsms::from_bytes(cut)) << size;
  }
}

TEST(FsmBinary, BitFlipsAreRejectedOrHarmless) {
  const ByteBuffer good = example("atm.fsm", TypeRegistry()).to_bytes();
  usize accepted = 0;
  for (usize bit = 0; bit < good.size() * 8; ++bit) {
    ByteBuffer bytes = good;
    bytes[bit / 8] ^= static_cast<std::byte>(1u << (bit % 8));
    const Result<CompiledFsms> r = CompiledFsms::from_bytes(bytes);
    if (!r) continue;
    ++accepted;  // e.g. a flipped behaviour-free padding byte or event hash: still consistent
    testing::exercise(*r, 1);
  }
  EXPECT_LT(accepted, good.size() * 8 / 4) << accepted;  // most flips are caught
}

}  // namespace
}  // namespace keel::fsm
