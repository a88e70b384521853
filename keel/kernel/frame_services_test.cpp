#include "keel/kernel/frame_services.h"

#include "keel/core/clock.h"
#include "keel/core/ref.h"
#include "keel/kernel/kernel.h"
#include "keel/profile/profile.h"

#include <gtest/gtest.h>

#include <thread>

namespace keel::kernel {
namespace {

struct Probe : RefCounted {
  explicit Probe(int& destroyed) : destroyed_(destroyed) {}
  ~Probe() override { ++destroyed_; }
  int& destroyed_;
};

// Releases its only handle to a probe during its update in frame 1.
class Releaser final : public Task {
 public:
  Releaser(ObjectRegistry& objects, int& destroyed, int& destroyed_seen_in_frame)
      : Task("releaser"),
        probe_(objects.make<Probe>(destroyed)),
        destroyed_(destroyed),
        seen_(destroyed_seen_in_frame) {}
  void update(const Frame& frame) override {
    static constexpr profile::Site kSite{"Releaser", __FILE__, __LINE__};
    profile::this_thread().enter(kSite);
    if (frame.number == 1) {
      probe_ = nullptr;
      seen_ = destroyed_;  // still alive: collection happens at the end of the frame
    }
    profile::this_thread().leave(kSite);
  }

 private:
  Ref<Probe> probe_;
  int& destroyed_;
  int& seen_;
};

// Runs on a fresh thread so the thread's profiler starts empty.
TEST(FrameServices, ProfilerFramesAndCollectionEveryFrame) {
  std::thread([] {
    FakeClock clock;
    Kernel kernel(clock);
    ObjectRegistry objects;
    int destroyed = 0;
    int seen_in_frame = -1;
    attach_frame_services(kernel, &objects);
    kernel.create<Releaser>(objects, destroyed, seen_in_frame);
    kernel.add_frame_end_hook([&] { clock.advance_ns(1000); });

    kernel.run_frames(3);
    EXPECT_EQ(seen_in_frame, 0);  // alive during the frame that released it
    EXPECT_EQ(destroyed, 1);      // destroyed once, by the frame-end collect
    const profile::Profiler& p = profile::this_thread();
    EXPECT_EQ(p.frame_count(), 3u);
    EXPECT_NE(p.find("Kernel task loop/Releaser"), profile::kNoNode);
    EXPECT_NE(p.find("Collect objects"), profile::kNoNode);
    EXPECT_EQ(p.error_count(), 0u);
    kernel.shutdown();
    EXPECT_TRUE(objects.shutdown().empty());
  }).join();
}

TEST(FrameServices, DetachStopsTheHooks) {
  std::thread([] {
    FakeClock clock;
    Kernel kernel(clock);
    struct Idle final : Task {
      void update(const Frame&) override {}
    };
    kernel.create<Idle>();
    const FrameServiceHooks hooks = attach_frame_services(kernel, nullptr);
    kernel.run_frames(2);
    detach_frame_services(kernel, hooks);
    kernel.run_frames(2);
    EXPECT_EQ(profile::this_thread().frame_count(), 2u);
  }).join();
}

// The standard setting `profiler` off: objects are still collected, no profiler frames are made.
TEST(FrameServices, ProfilerOffStillCollectsObjects) {
  std::thread([] {
    FakeClock clock;
    Kernel kernel(clock);
    ObjectRegistry objects;
    int destroyed = 0;
    int seen_in_frame = -1;
    attach_frame_services(kernel, &objects, {.profile = false});
    kernel.create<Releaser>(objects, destroyed, seen_in_frame);
    kernel.run_frames(3);
    EXPECT_EQ(destroyed, 1);
    EXPECT_EQ(profile::this_thread().frame_count(), 0u);
    EXPECT_EQ(profile::this_thread().trace(), nullptr);
    kernel.shutdown();
    EXPECT_TRUE(objects.shutdown().empty());
  }).join();
}

}  // namespace
}  // namespace keel::kernel
