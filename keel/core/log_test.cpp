#include "keel/core/log.h"

#include "keel/core/assert.h"
#include "keel/core/file.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <regex>

namespace keel::log {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

// Each test gets its own directory: ctest runs tests in parallel.
fs::path log_scratch(const char* name) {
  const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
  fs::path dir = fs::path(KEEL_TEST_TMPDIR) / "log_test" / test->name();
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir / name;
}

// Everything written to a stdio stream that is certainly not a terminal.
std::string read_stream(std::FILE* f) {
  std::fflush(f);
  std::rewind(f);
  std::string out;
  char buffer[256];
  while (usize n = std::fread(buffer, 1, sizeof buffer, f)) out.append(buffer, n);
  return out;
}

struct LoggerWithMemory {
  Logger logger;
  MemorySink& memory = logger.add_sink(std::make_unique<MemorySink>());
};

TEST(Log, LevelNamesRoundTrip) {
  for (Level l :
       {Level::kTrace, Level::kDebug, Level::kInfo, Level::kWarn, Level::kError, Level::kOff}) {
    EXPECT_EQ(parse_level(to_string(l)), l);
  }
  EXPECT_EQ(to_string(Level::kWarn), "warn");
  EXPECT_EQ(parse_level("WARNING"), Level::kWarn);
  EXPECT_EQ(parse_level("Error"), Level::kError);
  EXPECT_EQ(parse_level("loud"), std::nullopt);
}

TEST(Log, BuiltInAndRegisteredChannels) {
  Logger logger;
  EXPECT_EQ(logger.channel_name(Channel::kApp), "app");
  EXPECT_EQ(logger.channel_name(Channel::kClient), "client");
  EXPECT_EQ(logger.channel_name(Channel::kUser), "user");
  EXPECT_EQ(logger.channel_count(), 3u);

  const Channel audio = logger.register_channel("audio", Level::kDebug);
  EXPECT_EQ(audio.id(), 3u);
  EXPECT_EQ(logger.channel_name(audio), "audio");
  EXPECT_EQ(logger.level(audio), Level::kDebug);
  // Registering again returns the same channel and keeps its level.
  EXPECT_EQ(logger.register_channel("audio", Level::kError), audio);
  EXPECT_EQ(logger.level(audio), Level::kDebug);
  EXPECT_EQ(logger.find_channel("audio"), audio);
  EXPECT_EQ(logger.find_channel("app"), Channel::kApp);
  EXPECT_EQ(logger.find_channel("nope"), std::nullopt);

  // A channel id this logger never handed out is named "?" and never enabled.
  const Channel stranger(40);
  EXPECT_EQ(logger.channel_name(stranger), "?");
  EXPECT_FALSE(logger.enabled(stranger, Level::kError));
  logger.set_level(stranger, Level::kTrace);
  EXPECT_FALSE(logger.enabled(stranger, Level::kError));
}

TEST(Log, LevelFilteringPerChannel) {
  LoggerWithMemory t;
  const Channel audio = t.logger.register_channel("audio");
  t.logger.set_level(Channel::kApp, Level::kWarn);
  t.logger.set_level(audio, Level::kTrace);

  KEEL_LOG_TO(t.logger, Level::kInfo, Channel::kApp, "app info");
  KEEL_LOG_TO(t.logger, Level::kWarn, Channel::kApp, "app warn");
  KEEL_LOG_TO(t.logger, Level::kError, Channel::kApp, "app error");
  KEEL_LOG_TO(t.logger, Level::kTrace, audio, "audio trace");
  KEEL_LOG_TO(t.logger, Level::kDebug, Channel::kClient, "client debug");  // default: info
  KEEL_LOG_TO(t.logger, Level::kInfo, Channel::kClient, "client info");
  EXPECT_THAT(t.memory.messages(),
              ElementsAre("app warn", "app error", "audio trace", "client info"));

  t.memory.clear();
  t.logger.set_all_levels(Level::kOff);
  KEEL_LOG_TO(t.logger, Level::kError, Channel::kApp, "silenced");
  KEEL_LOG_TO(t.logger, Level::kError, audio, "silenced");
  EXPECT_EQ(t.memory.size(), 0u);

  // kOff is not a message level: it never passes, even on a channel at trace.
  t.logger.set_level(audio, Level::kTrace);
  EXPECT_FALSE(t.logger.enabled(audio, Level::kOff));
  EXPECT_TRUE(t.logger.enabled(audio, Level::kTrace));
}

TEST(Log, SinkHasItsOwnLevel) {
  LoggerWithMemory t;
  MemorySink& errors_only = t.logger.add_sink(std::make_unique<MemorySink>());
  errors_only.set_level(Level::kError);
  KEEL_LOG_TO(t.logger, Level::kInfo, Channel::kApp, "one");
  KEEL_LOG_TO(t.logger, Level::kError, Channel::kApp, "two");
  EXPECT_THAT(t.memory.messages(), ElementsAre("one", "two"));
  EXPECT_THAT(errors_only.messages(), ElementsAre("two"));
}

TEST(Log, RecordCarriesChannelLevelFileLineAndTime) {
  LoggerWithMemory t;
  const Channel net = t.logger.register_channel("net");
  const auto before = std::chrono::system_clock::now();
  const u32 line = __LINE__ + 1;
  KEEL_LOG_TO(t.logger, Level::kWarn, net, "lost {} packets of {}", 3, "state");
  const auto after = std::chrono::system_clock::now();

  const auto entries = t.memory.entries();
  ASSERT_EQ(entries.size(), 1u);
  const MemorySink::Entry& e = entries[0];
  EXPECT_EQ(e.message, "lost 3 packets of state");
  EXPECT_EQ(e.level, Level::kWarn);
  EXPECT_EQ(e.channel, net);
  EXPECT_EQ(e.channel_name, "net");
  EXPECT_THAT(e.file, HasSubstr("log_test.cpp"));
  EXPECT_EQ(e.line, line);
  EXPECT_GE(e.time, before);
  EXPECT_LE(e.time, after);
}

// Counts how often it is formatted.
struct Formatted {
  int* count;
};

}  // namespace
}  // namespace keel::log

template <>
struct fmt::formatter<keel::log::Formatted> : fmt::formatter<int> {
  auto format(const keel::log::Formatted& f, fmt::format_context& ctx) const {
    return fmt::formatter<int>::format(++*f.count, ctx);
  }
};

namespace keel::log {
namespace {

TEST(Log, LazyArgumentsNotEvaluatedBelowLevel) {
  LoggerWithMemory t;
  t.logger.set_level(Channel::kApp, Level::kWarn);
  int evaluated = 0;
  int formatted = 0;
  auto expensive = [&] {
    ++evaluated;
    return Formatted{&formatted};
  };

  KEEL_LOG_TO(t.logger, Level::kInfo, Channel::kApp, "value {}", expensive());
  KEEL_LOG_TO(t.logger, Level::kDebug, Channel::kApp, "value {}", expensive());
  EXPECT_EQ(evaluated, 0);
  EXPECT_EQ(formatted, 0);
  EXPECT_EQ(t.memory.size(), 0u);

  KEEL_LOG_TO(t.logger, Level::kError, Channel::kApp, "value {}", expensive());
  EXPECT_EQ(evaluated, 1);
  EXPECT_EQ(formatted, 1);
  EXPECT_THAT(t.memory.messages(), ElementsAre("value 1"));

  // The channel expression is evaluated exactly once, whatever the level.
  int channel_evaluated = 0;
  auto channel = [&] {
    ++channel_evaluated;
    return Channel::kApp;
  };
  KEEL_LOG_TO(t.logger, Level::kInfo, channel(), "x {}", expensive());
  KEEL_LOG_TO(t.logger, Level::kError, channel(), "y");
  EXPECT_EQ(channel_evaluated, 2);
  EXPECT_EQ(evaluated, 1);
}

TEST(Log, DefaultLoggerMacros) {
  Logger& logger = default_logger();
  EXPECT_EQ(&logger, &default_logger());
  EXPECT_GE(logger.sink_count(), 1u);  // starts with a console sink
  MemorySink& memory = logger.add_sink(std::make_unique<MemorySink>());

  const Channel gameplay = register_channel("gameplay");
  EXPECT_EQ(logger.find_channel("gameplay"), gameplay);
  logger.set_level(gameplay, Level::kDebug);
  int evaluated = 0;
  auto arg = [&] { return ++evaluated; };

  KEEL_LOG_TRACE(gameplay, "trace {}", arg());  // below debug: skipped
  KEEL_LOG_DEBUG(gameplay, "debug {}", arg());
  KEEL_LOG_INFO(Channel::kApp, "info {}", arg());
  KEEL_LOG_WARN(Channel::kClient, "warn {}", arg());
  KEEL_LOG_ERROR(Channel::kUser, "error {}", arg());
  EXPECT_EQ(evaluated, 4);
  EXPECT_THAT(memory.messages(), ElementsAre("debug 1", "info 2", "warn 3", "error 4"));
  const auto entries = memory.entries();
  ASSERT_EQ(entries.size(), 4u);
  EXPECT_EQ(entries[0].channel_name, "gameplay");
  EXPECT_EQ(entries[1].level, Level::kInfo);
  EXPECT_EQ(entries[3].channel_name, "user");

  std::unique_ptr<Sink> back = logger.remove_sink(memory);
  EXPECT_EQ(back.get(), &memory);
  EXPECT_EQ(logger.remove_sink(*back), nullptr);  // no longer ours
  KEEL_LOG_ERROR(Channel::kApp, "after removal");
  EXPECT_EQ(static_cast<MemorySink&>(*back).size(), 4u);
}

TEST(Log, FormatRecordLayout) {
  Record r;
  r.time = std::chrono::system_clock::now();
  r.level = Level::kWarn;
  r.channel = Channel::kApp;
  r.channel_name = "app";
  r.message = "disk nearly full";
  r.file = "/src/keel/core/file.cpp";
  r.line = 42;
  EXPECT_TRUE(std::regex_match(format_record(r),
                               std::regex(R"(\d\d:\d\d:\d\d\.\d{3} WARN  \[app\] disk nearly full )"
                                          R"(\(file\.cpp:42\))")))
      << format_record(r);
  EXPECT_TRUE(std::regex_match(format_record(r, true),
                               std::regex(R"(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} WARN  .*)")))
      << format_record(r, true);
  r.file = {};
  r.level = Level::kError;
  EXPECT_TRUE(
      std::regex_match(format_record(r), std::regex(R"(.{12} ERROR \[app\] disk nearly full)")))
      << format_record(r);
}

TEST(Log, ConsoleSinkHasNoColourWhenNotATerminal) {
  std::FILE* f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  {
    Logger logger;
    ConsoleSink& console = logger.add_sink(std::make_unique<ConsoleSink>(f, ColorMode::kAuto));
    EXPECT_FALSE(console.uses_color());
    KEEL_LOG_TO(logger, Level::kWarn, Channel::kApp, "plain {}", 1);
    KEEL_LOG_TO(logger, Level::kError, Channel::kApp, "plain {}", 2);
  }
  const std::string text = read_stream(f);
  EXPECT_THAT(text, HasSubstr("WARN  [app] plain 1"));
  EXPECT_THAT(text, HasSubstr("ERROR [app] plain 2"));
  EXPECT_THAT(text, Not(HasSubstr("\x1b[")));
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 2);
  std::fclose(f);
}

TEST(Log, ConsoleSinkColoursEachLevelWhenAsked) {
  std::FILE* f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  {
    Logger logger;
    logger.set_level(Channel::kApp, Level::kTrace);
    ConsoleSink& console = logger.add_sink(std::make_unique<ConsoleSink>(f, ColorMode::kAlways));
    EXPECT_TRUE(console.uses_color());
    KEEL_LOG_TO(logger, Level::kInfo, Channel::kApp, "green");
    KEEL_LOG_TO(logger, Level::kWarn, Channel::kApp, "yellow");
    KEEL_LOG_TO(logger, Level::kError, Channel::kApp, "red");
  }
  const std::string text = read_stream(f);
  EXPECT_THAT(text, HasSubstr("\x1b[32m"));
  EXPECT_THAT(text, HasSubstr("\x1b[33m"));
  EXPECT_THAT(text, HasSubstr("\x1b[1;31m"));
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 3);
  // Each line ends by resetting the colour.
  EXPECT_THAT(text, HasSubstr("red (log_test.cpp:"));
  EXPECT_THAT(text, HasSubstr("\x1b[0m\n"));
  std::fclose(f);

  std::FILE* g = std::tmpfile();
  ASSERT_NE(g, nullptr);
  EXPECT_FALSE(ConsoleSink(g, ColorMode::kNever).uses_color());
  std::fclose(g);
}

TEST(Log, FileSinkAppendsAndFlushesAtWarn) {
  const fs::path path = log_scratch("game.log");
  {
    auto sink = FileSink::open(path);
    ASSERT_TRUE(sink) << sink.error().to_string();
    Logger logger;
    FileSink& file = logger.add_sink(std::move(*sink));
    EXPECT_EQ(file.path(), path);
    KEEL_LOG_TO(logger, Level::kInfo, Channel::kApp, "first");
    KEEL_LOG_TO(logger, Level::kWarn, Channel::kApp, "second");
    // Still open: the warning forced both lines to disk.
    auto text = read_file(path);
    ASSERT_TRUE(text);
    EXPECT_THAT(*text, HasSubstr("INFO  [app] first"));
    EXPECT_THAT(*text, HasSubstr("WARN  [app] second"));
    EXPECT_TRUE(std::regex_search(*text, std::regex(R"(^\d{4}-\d\d-\d\d \d\d:)")));
  }
  {
    auto sink = FileSink::open(path);
    ASSERT_TRUE(sink);
    Logger logger;
    logger.add_sink(std::move(*sink));
    KEEL_LOG_TO(logger, Level::kInfo, Channel::kUser, "third");
  }  // closing flushes
  auto text = read_file(path);
  ASSERT_TRUE(text);
  EXPECT_EQ(std::count(text->begin(), text->end(), '\n'), 3);
  EXPECT_LT(text->find("first"), text->find("second"));
  EXPECT_LT(text->find("second"), text->find("[user] third"));
}

TEST(Log, FileSinkReportsOpenFailure) {
  const fs::path path = log_scratch("x") / "missing-dir" / "game.log";
  auto sink = FileSink::open(path);
  ASSERT_FALSE(sink);
  EXPECT_EQ(sink.error().code(), ErrorCode::kIo);
  EXPECT_THAT(sink.error().message(), HasSubstr("game.log"));
}

TEST(Log, ClearSinksStopsOutput) {
  Logger logger;
  logger.add_sink(std::make_unique<MemorySink>());
  logger.add_sink(std::make_unique<MemorySink>());
  EXPECT_EQ(logger.sink_count(), 2u);
  logger.clear_sinks();
  EXPECT_EQ(logger.sink_count(), 0u);
  logger.write(Channel::kApp, Level::kError, "nobody listens");  // must not crash
  logger.flush();
}

AssertInfo g_last_assert;
int g_asserts = 0;
void record_assert(const AssertInfo& info) {
  g_last_assert = AssertInfo{info.condition, info.file, info.line, info.message};
  ++g_asserts;
}

TEST(Log, TooManyChannelsIsAProgrammerError) {
  if (!KEEL_ASSERTS_ENABLED) GTEST_SKIP() << "asserts compiled out";
  ScopedAssertHandler guard(&record_assert);
  g_asserts = 0;
  Logger logger;
  for (usize i = logger.channel_count(); i < Logger::kMaxChannels; ++i) {
    logger.register_channel(fmt::format("ch{}", i));
  }
  EXPECT_EQ(g_asserts, 0);
  EXPECT_EQ(logger.register_channel("one-too-many"), Channel::kApp);
  EXPECT_EQ(g_asserts, 1);
  EXPECT_THAT(g_last_assert.message, HasSubstr("one-too-many"));
  EXPECT_EQ(logger.channel_count(), Logger::kMaxChannels);
}

}  // namespace
}  // namespace keel::log
