#include "keel/core/ref.h"

#include "keel/core/log.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

namespace keel {
namespace {

struct Counted : RefCounted {
  Counted(std::atomic<int>* destroyed, int value) : destroyed_(destroyed), value_(value) {}
  ~Counted() override { destroyed_->fetch_add(1); }
  std::atomic<int>* destroyed_;
  int value_;
};

struct Fixture {
  log::Logger logger;  // no sinks: leak warnings are not expected here
  ObjectRegistry registry{logger};
};

constexpr int kRefThreads = 4;

TEST(RefThreads, CopyAndDropOnManyThreadsThenCollectOnMain) {
  Fixture f;
  std::atomic<int> destroyed{0};
  constexpr int kObjects = 64;
  std::vector<Ref<Counted>> objects;
  std::vector<WeakRef<Counted>> weak;
  for (int i = 0; i < kObjects; ++i) {
    objects.push_back(f.registry.make<Counted>(&destroyed, i));
    weak.push_back(objects.back());
  }

  std::atomic<int> ready{0};
  std::atomic<long> sum{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kRefThreads; ++t) {
    // Each thread starts with its own copies, so the main thread can drop its handles at once
    // and the last release of each object happens on some worker.
    std::vector<Ref<Counted>> mine = objects;
    threads.emplace_back([&, mine = std::move(mine)]() mutable {
      ready.fetch_add(1);
      long local = 0;
      for (int round = 0; round < 200; ++round) {
        std::vector<Ref<Counted>> copies(mine.begin(), mine.end());
        for (const auto& w : weak) {
          if (Ref<Counted> r = w.lock()) local += r->value_;
        }
        copies.clear();
      }
      for (const auto& r : mine) local += r->value_;
      mine.clear();  // last releases from worker threads go onto the lock-free queue
      sum.fetch_add(local);
    });
  }
  objects.clear();
  for (auto& th : threads) th.join();
  EXPECT_EQ(ready.load(), kRefThreads);
  EXPECT_GT(sum.load(), 0);

  EXPECT_EQ(destroyed.load(), 0);  // nothing destroyed off the owning thread
  EXPECT_EQ(f.registry.pending_count(), static_cast<usize>(kObjects));
  EXPECT_EQ(f.registry.collect(), static_cast<usize>(kObjects));
  EXPECT_EQ(destroyed.load(), kObjects);
  for (const auto& w : weak) EXPECT_FALSE(w.lock());
  EXPECT_TRUE(f.registry.shutdown().empty());
  EXPECT_EQ(destroyed.load(), kObjects);
}

TEST(RefThreads, WeakLockRacesWithReleaseAndCollect) {
  Fixture f;
  std::atomic<int> destroyed{0};
  for (int trial = 0; trial < 50; ++trial) {
    Ref<Counted> strong = f.registry.make<Counted>(&destroyed, trial);
    WeakRef<Counted> weak = strong;
    std::atomic<bool> go{false};
    std::vector<std::thread> lockers;
    for (int t = 0; t < 2; ++t) {
      lockers.emplace_back([&, weak] {
        while (!go.load()) std::this_thread::yield();
        // Lock until the object is dead; a successful lock always sees it intact.
        while (Ref<Counted> r = weak.lock()) {
          EXPECT_EQ(r->value_, trial);
        }
      });
    }
    go.store(true);
    strong.reset();
    // The lockers may hold the last reference; collect until it is gone.
    while (destroyed.load() <= trial) {
      f.registry.collect();
      std::this_thread::yield();
    }
    for (auto& th : lockers) th.join();
    EXPECT_FALSE(weak.lock());
    EXPECT_EQ(destroyed.load(), trial + 1);
  }
}

TEST(RefThreads, MakeFromManyThreads) {
  Fixture f;
  std::atomic<int> destroyed{0};
  constexpr int kPerThread = 300;
  std::vector<std::thread> threads;
  std::vector<std::vector<Ref<Counted>>> kept(kRefThreads);
  for (int t = 0; t < kRefThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kPerThread; ++i) {
        Ref<Counted> r = f.registry.make<Counted>(&destroyed, i);
        if (i % 3 == 0) kept[t].push_back(std::move(r));  // the rest are released at once
        if (i % 50 == 0) (void)f.registry.memory_report();
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(f.registry.live_count(), static_cast<usize>(kRefThreads * kPerThread));
  const usize kept_count = static_cast<usize>(kRefThreads) * ((kPerThread + 2) / 3);
  EXPECT_EQ(f.registry.collect(), kRefThreads * kPerThread - kept_count);
  EXPECT_EQ(f.registry.live_count(), kept_count);
  kept.clear();
  f.registry.collect();
  EXPECT_EQ(destroyed.load(), kRefThreads * kPerThread);
  EXPECT_EQ(f.registry.live_count(), 0u);
}

}  // namespace
}  // namespace keel
