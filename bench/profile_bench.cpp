// Cost of one profile scope, against the physical floor and the seed's design.
//
// Every benchmark runs the same shape per iteration: 50 distinct sites, 3 levels deep (1 top
// sample, 7 middle samples, 6 leaves under each = 50 scopes), with a frame boundary every 100
// iterations (5000 scopes). Per-iteration times are for 50 scopes; the cpu_per_scope counter
// divides the CPU time by 50. The ratios use real time per iteration, so they are per scope too.
//
//   BM_KeelScope_50Sites         KEEL_PROFILE on the thread's profiler (rdtsc, trace ring on)
//   BM_KeelScope_50Sites_NoTrace the same without recording the Chrome-trace events
//   BM_RdtscFloor_50             the floor: two __rdtsc() reads around an empty block, 50 times
//   BM_SeedLinearSearch_50Sites  the seed's design (Enginuity CProfileSample): a fixed array of
//                                samples found by a linear search comparing std::string names,
//                                timed with the same rdtsc so only the design differs
#include "keel/profile/profile.h"
#include "keel/profile/report.h"

#include <bench_support.h>
#include <benchmark/benchmark.h>

#include <array>
#include <cassert>
#include <string>
#include <utility>
#include <vector>

#if KEEL_PROFILE_HAS_RDTSC
#include <x86intrin.h>
#endif

namespace {

#if defined(KEEL_ENABLE_PROFILING) && KEEL_ENABLE_PROFILING
constexpr bool kProfilingCompiledIn = true;
#else
constexpr bool kProfilingCompiledIn = false;
#endif

using keel::u32;
using keel::u64;
using keel::usize;

constexpr int kMids = 7;
constexpr int kLeavesPerMid = 6;
constexpr int kScopesPerIteration = 1 + kMids + kMids * kLeavesPerMid;  // 50
constexpr int kIterationsPerFrame = 100;

constexpr const char* kMidNames[kMids] = {"mid 0", "mid 1", "mid 2", "mid 3",
                                          "mid 4", "mid 5", "mid 6"};
constexpr const char* kLeafNames[kMids * kLeavesPerMid] = {
    "leaf 0",  "leaf 1",  "leaf 2",  "leaf 3",  "leaf 4",  "leaf 5",  "leaf 6",
    "leaf 7",  "leaf 8",  "leaf 9",  "leaf 10", "leaf 11", "leaf 12", "leaf 13",
    "leaf 14", "leaf 15", "leaf 16", "leaf 17", "leaf 18", "leaf 19", "leaf 20",
    "leaf 21", "leaf 22", "leaf 23", "leaf 24", "leaf 25", "leaf 26", "leaf 27",
    "leaf 28", "leaf 29", "leaf 30", "leaf 31", "leaf 32", "leaf 33", "leaf 34",
    "leaf 35", "leaf 36", "leaf 37", "leaf 38", "leaf 39", "leaf 40", "leaf 41"};

u64 ticks() {
#if KEEL_PROFILE_HAS_RDTSC
  return __rdtsc();
#else
  return keel::profile::read_cpu_ticks();
#endif
}

// CPU time per scope (Google Benchmark prints it with a unit, e.g. "21.3ns").
void set_ns_per_scope(benchmark::State& state) {
  state.counters["cpu_per_scope"] =
      benchmark::Counter(kScopesPerIteration, benchmark::Counter::kIsIterationInvariantRate |
                                                  benchmark::Counter::kInvert);
}

// ---- Keel -------------------------------------------------------------------------------------

template <int M, int L>
inline __attribute__((always_inline)) void keel_leaf() {
  KEEL_PROFILE(kLeafNames[M * kLeavesPerMid + L]);
}

template <int M, int... L>
inline __attribute__((always_inline)) void keel_mid(std::integer_sequence<int, L...>) {
  KEEL_PROFILE(kMidNames[M]);
  (keel_leaf<M, L>(), ...);
}

template <int... M>
inline __attribute__((always_inline)) void keel_top(std::integer_sequence<int, M...>) {
  KEEL_PROFILE("top");
  (keel_mid<M>(std::make_integer_sequence<int, kLeavesPerMid>{}), ...);
}

void run_keel(benchmark::State& state, bool trace) {
  keel::profile::Profiler& profiler = keel::profile::this_thread();
  profiler.set_tracing(trace);
  profiler.begin_frame();
  int in_frame = 0;
  for (auto _ : state) {
    keel_top(std::make_integer_sequence<int, kMids>{});
    if (++in_frame == kIterationsPerFrame) {
      profiler.end_frame();
      profiler.begin_frame();
      in_frame = 0;
    }
  }
  profiler.end_frame();
  profiler.set_tracing(true);
  if (profiler.error_count() != 0 || profiler.node_count() != kScopesPerIteration + 1) {
    state.SkipWithError(kProfilingCompiledIn ? "unexpected profiler state"
                                             : "profiling is compiled out");
  }
  set_ns_per_scope(state);
}

void BM_KeelScope_50Sites(benchmark::State& state) { run_keel(state, true); }
BENCHMARK(BM_KeelScope_50Sites);

void BM_KeelScope_50Sites_NoTrace(benchmark::State& state) { run_keel(state, false); }
BENCHMARK(BM_KeelScope_50Sites_NoTrace);

// The flat view of a frame of the same 50 sites (profile/report.h), as an on-screen report would
// ask for it every frame: contexts merged by site, rows ordered by self time.
void BM_FlatView_50Sites(benchmark::State& state) {
  keel::profile::Profiler& profiler = keel::profile::this_thread();
  profiler.begin_frame();
  keel_top(std::make_integer_sequence<int, kMids>{});
  profiler.end_frame();
  usize rows = 0;
  for (auto _ : state) {
    const std::vector<keel::profile::FlatRow> view = keel::profile::flat_view(profiler);
    rows = view.size();
    benchmark::DoNotOptimize(view.data());
  }
  if (kProfilingCompiledIn && rows != kScopesPerIteration + 1) {
    state.SkipWithError("unexpected flat view");
  }
}
BENCHMARK(BM_FlatView_50Sites);

// ---- the floor --------------------------------------------------------------------------------

void BM_RdtscFloor_50(benchmark::State& state) {
  u64 sum = 0;
  for (auto _ : state) {
    for (int i = 0; i < kScopesPerIteration; ++i) {
      const u64 start = ticks();
      {
        // the empty profiled block
      }
      sum += ticks() - start;
    }
    benchmark::DoNotOptimize(sum);
  }
  set_ns_per_scope(state);
}
BENCHMARK(BM_RdtscFloor_50);

// ---- the seed's design ------------------------------------------------------------------------

// A fixed array of samples identified by name; each construction searches it linearly comparing
// std::string names, as Enginuity's CProfileSample does (with its out-of-range parentCount write
// fixed, and the same rdtsc clock instead of its float-seconds millisecond tick).
struct SeedRecord {
  bool valid = false;
  bool open = false;
  u32 call_count = 0;
  std::string name;
  u64 start = 0;
  u64 total_time = 0;
  u64 child_time = 0;
  int parent = -1;
  int parent_count = 0;
};
constexpr int kSeedMaxSamples = 64;
std::array<SeedRecord, kSeedMaxSamples> g_seed_samples;
int g_seed_last_opened = -1;
int g_seed_open_count = 0;

class SeedSample {
 public:
  explicit SeedSample(std::string name) {
    int found = -1;
    int free_slot = -1;
    for (int i = 0; i < kSeedMaxSamples; ++i) {
      if (!g_seed_samples[i].valid) {
        if (free_slot < 0) free_slot = i;
      } else if (g_seed_samples[i].name == name) {
        found = i;
        break;
      }
    }
    if (found < 0) {
      assert(free_slot >= 0 && "profiler has run out of sample slots");
      found = free_slot;
      SeedRecord& r = g_seed_samples[found];
      r.valid = true;
      r.name = std::move(name);
      r.parent_count = g_seed_open_count;
      r.parent = g_seed_last_opened;
    }
    SeedRecord& r = g_seed_samples[found];
    assert(!r.open && "sample already open");
    r.open = true;
    ++r.call_count;
    index_ = found;
    parent_ = g_seed_last_opened;
    g_seed_last_opened = found;
    ++g_seed_open_count;
    r.start = ticks();
  }
  ~SeedSample() {
    const u64 end = ticks();
    SeedRecord& r = g_seed_samples[index_];
    r.open = false;
    const u64 elapsed = end - r.start;
    if (parent_ >= 0) g_seed_samples[parent_].child_time += elapsed;
    r.total_time += elapsed;
    g_seed_last_opened = parent_;
    --g_seed_open_count;
  }
  SeedSample(const SeedSample&) = delete;
  SeedSample& operator=(const SeedSample&) = delete;

  static void end_frame() {
    for (SeedRecord& r : g_seed_samples) {
      r.call_count = 0;
      r.total_time = 0;
      r.child_time = 0;
    }
  }
  static int valid_samples() {
    int n = 0;
    for (const SeedRecord& r : g_seed_samples) n += r.valid ? 1 : 0;
    return n;
  }

 private:
  int index_ = -1;
  int parent_ = -1;
};

template <int M, int L>
inline __attribute__((always_inline)) void seed_leaf() {
  const SeedSample sample(kLeafNames[M * kLeavesPerMid + L]);
}

template <int M, int... L>
inline __attribute__((always_inline)) void seed_mid(std::integer_sequence<int, L...>) {
  const SeedSample sample(kMidNames[M]);
  (seed_leaf<M, L>(), ...);
}

template <int... M>
inline __attribute__((always_inline)) void seed_top(std::integer_sequence<int, M...>) {
  const SeedSample sample("top");
  (seed_mid<M>(std::make_integer_sequence<int, kLeavesPerMid>{}), ...);
}

void BM_SeedLinearSearch_50Sites(benchmark::State& state) {
  int in_frame = 0;
  for (auto _ : state) {
    seed_top(std::make_integer_sequence<int, kMids>{});
    if (++in_frame == kIterationsPerFrame) {
      SeedSample::end_frame();
      in_frame = 0;
    }
  }
  if (SeedSample::valid_samples() != kScopesPerIteration) {
    state.SkipWithError("unexpected seed profiler state");
  }
  set_ns_per_scope(state);
}
BENCHMARK(BM_SeedLinearSearch_50Sites);

}  // namespace

KEEL_BENCH_RATIO("profile scope vs rdtsc floor", "BM_KeelScope_50Sites", "BM_RdtscFloor_50");
KEEL_BENCH_RATIO("profile scope (no trace) vs rdtsc floor", "BM_KeelScope_50Sites_NoTrace",
                 "BM_RdtscFloor_50");
KEEL_BENCH_RATIO("seed linear-search scope vs rdtsc floor", "BM_SeedLinearSearch_50Sites",
                 "BM_RdtscFloor_50");
KEEL_BENCH_RATIO("profile scope vs seed linear search", "BM_KeelScope_50Sites",
                 "BM_SeedLinearSearch_50Sites");

KEEL_BENCH_MAIN()
