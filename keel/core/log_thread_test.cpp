#include "keel/core/log.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

namespace keel::log {
namespace {

constexpr int kThreads = 4;
constexpr int kMessagesPerThread = 400;

TEST(LogThreads, ConcurrentMessagesArriveWholeAndInOrderPerThread) {
  Logger logger;
  MemorySink& memory = logger.add_sink(std::make_unique<MemorySink>());
  std::FILE* f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  logger.add_sink(std::make_unique<ConsoleSink>(f, ColorMode::kNever));

  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&logger, t] {
      for (int i = 0; i < kMessagesPerThread; ++i) {
        KEEL_LOG_TO(logger, i % 10 == 0 ? Level::kWarn : Level::kInfo, Channel::kApp,
                    "thread {} message {} {}", t, i, std::string(20, static_cast<char>('a' + t)));
      }
    });
  }
  for (auto& th : threads) th.join();

  const auto messages = memory.messages();
  ASSERT_EQ(messages.size(), static_cast<usize>(kThreads * kMessagesPerThread));
  std::vector<int> next(kThreads, 0);
  for (const std::string& m : messages) {
    int t = -1;
    int i = -1;
    ASSERT_EQ(std::sscanf(m.c_str(), "thread %d message %d", &t, &i), 2) << m;
    ASSERT_GE(t, 0);
    ASSERT_LT(t, kThreads);
    EXPECT_EQ(i, next[t]) << "messages of one thread out of order";
    next[t] = i + 1;
    // The payload is intact (no interleaving inside a message).
    EXPECT_EQ(m.substr(m.rfind(' ') + 1), std::string(20, static_cast<char>('a' + t)));
  }

  // The console stream got the same number of whole lines.
  std::fflush(f);
  std::rewind(f);
  int lines = 0;
  char buffer[512];
  while (std::fgets(buffer, sizeof buffer, f) != nullptr) {
    const std::string line(buffer);
    EXPECT_EQ(line.back(), '\n');
    EXPECT_NE(line.find("[app] thread "), std::string::npos) << line;
    ++lines;
  }
  EXPECT_EQ(lines, kThreads * kMessagesPerThread);
  std::fclose(f);
}

TEST(LogThreads, LevelsChannelsAndSinksChangeWhileLogging) {
  Logger logger;
  MemorySink& memory = logger.add_sink(std::make_unique<MemorySink>());
  std::atomic<bool> stop{false};

  std::thread toggler([&] {
    for (int i = 0; !stop.load(); ++i) {
      logger.set_level(Channel::kClient, i % 2 == 0 ? Level::kOff : Level::kTrace);
    }
  });
  std::thread registrar([&] {
    for (int i = 0; i < 40; ++i) {
      const Channel c = logger.register_channel(fmt::format("dyn{}", i));
      KEEL_LOG_TO(logger, Level::kInfo, c, "registered {}", i);
    }
  });
  std::thread sink_churn([&] {
    for (int i = 0; i < 200; ++i) {
      MemorySink& extra = logger.add_sink(std::make_unique<MemorySink>());
      logger.remove_sink(extra);
    }
  });
  std::vector<std::thread> writers;
  for (int t = 0; t < 2; ++t) {
    writers.emplace_back([&] {
      for (int i = 0; i < 500; ++i) {
        KEEL_LOG_TO(logger, Level::kInfo, Channel::kClient, "client {}", i);
        KEEL_LOG_TO(logger, Level::kInfo, Channel::kApp, "app {}", i);
      }
    });
  }
  for (auto& w : writers) w.join();
  registrar.join();
  sink_churn.join();
  stop.store(true);
  toggler.join();

  usize app = 0;
  usize registered = 0;
  for (const auto& e : memory.entries()) {
    if (e.channel == Channel::kApp) ++app;
    if (e.message.starts_with("registered ")) {
      ++registered;
      EXPECT_EQ(e.channel_name, "dyn" + e.message.substr(11));
    }
  }
  EXPECT_EQ(app, 1000u);  // the app channel was never toggled
  EXPECT_EQ(registered, 40u);
  EXPECT_EQ(logger.channel_count(), 43u);
}

}  // namespace
}  // namespace keel::log
