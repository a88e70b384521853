// Issue 17 section 4: core's public entry points given bad input return an error or assert with a
// message naming the mistake; none crashes. (File: file_test.cpp; building blocks: their tests.)
#include "keel/core/assert.h"
#include "keel/core/error.h"
#include "keel/core/hash.h"
#include "keel/core/log.h"
#include "keel/core/ref.h"
#include "keel/core/testing/assert_recorder.h"

#include <gtest/gtest.h>

namespace keel {
namespace {

using testing::AssertRecorder;

TEST(EntryPoints, ErrorCodesOutsideTheListPrintAsUnknown) {
  EXPECT_EQ(to_string(ErrorCode{}), "unknown error");
  EXPECT_EQ(to_string(static_cast<ErrorCode>(999)), "unknown error");
  const Error e(static_cast<ErrorCode>(999), "");
  EXPECT_EQ(e.to_string(), "error: ");  // no location, no message: still a line
  const Status s = fail(ErrorCode::kNotFound, "plain");
  ASSERT_FALSE(s);
  EXPECT_FALSE(s.error().has_location());
}

TEST(EntryPoints, HashesOfEmptyInputAreDefinedAndNullDataIsNamed) {
  EXPECT_EQ(hash_bytes(std::span<const u8>{}), 0u);
  EXPECT_EQ(string_hash(""), 0u);
  EXPECT_EQ(filename_hash(""), 0u);
  EXPECT_EQ(hash64(nullptr, 0), hash64(std::string_view{}));
  Hasher64 incremental;
  incremental.update(nullptr, 0);
  EXPECT_EQ(incremental.digest(), hash64(std::string_view{}));
  AssertRecorder asserts;
  EXPECT_EQ(hash_bytes(nullptr, 4), 0u);
  asserts.expect_asserted("null pointer");
  EXPECT_EQ(hash64(nullptr, 4), hash64(std::string_view{}));
  asserts.expect_asserted("hash64");
  incremental.update(nullptr, 4);
  asserts.expect_asserted("Hasher64::update");
  asserts.expect_assert_count(3);
}

TEST(EntryPoints, LogWithoutSinksOrWithUnknownChannelsDoesNothing) {
  log::Logger logger;  // no sinks
  EXPECT_EQ(logger.sink_count(), 0u);
  KEEL_LOG_TO(logger, log::Level::kError, log::Channel::kApp, "dropped {}", 1);
  logger.write(log::Channel::kApp, log::Level::kError, "dropped");
  logger.flush();
  auto& sink = logger.add_sink(std::make_unique<log::MemorySink>());
  const log::Channel never_registered(static_cast<u16>(40));
  logger.write(never_registered, log::Level::kError, "to nowhere");
  EXPECT_EQ(logger.channel_name(never_registered), "?");
  EXPECT_TRUE(sink.entries().empty());
  AssertRecorder asserts;
  EXPECT_EQ(logger.register_channel(""), log::Channel::kApp);
  asserts.expect_asserted("needs a name");
  logger.add_sink(std::unique_ptr<log::MemorySink>());
  asserts.expect_asserted("null log sink");
  EXPECT_EQ(logger.sink_count(), 2u);  // a default MemorySink stood in
}

struct Ship : RefCounted {};

TEST(EntryPoints, RefsOfAnotherRegistryAreRecognised) {
  ObjectRegistry mine(log::default_logger());
  ObjectRegistry theirs(log::default_logger());
  Ref<Ship> a = mine.make<Ship>();
  Ref<Ship> b = theirs.make<Ship>();
  EXPECT_TRUE(mine.owns(a));
  EXPECT_FALSE(mine.owns(b));
  EXPECT_FALSE(mine.owns(Ref<Ship>()));
  a.reset();
  b.reset();
  mine.collect();
  theirs.collect();
#if KEEL_ASSERTS_ENABLED  // an empty Ref's operator-> is only checked with asserts compiled in
  AssertRecorder asserts;
  Ref<Ship> empty;
  (void)empty.operator->();
  asserts.expect_asserted("empty Ref");
#endif
}

}  // namespace
}  // namespace keel
