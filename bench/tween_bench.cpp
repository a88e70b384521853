// Interpolator throughput: one TweenSystem::update over 100,000 active float tweens, against a
// plain loop computing the same formula over arrays (elapsed += dt; b = min(elapsed / duration,
// 1); w = ease(b); *target = from * (1 - w) + to * w). The plain loop writes through the same
// target pointers (targets are scattered in a game); a second floor writes a contiguous output
// array instead. The difference is the system's own cost: the delay test, the end-of-play
// bookkeeping and the frame's event pass. Durations are long so no tween ends mid-benchmark;
// BM_TweenPingPong100k has every tween loop back and forth (about 1,700 turn round per update).
#include "bench_support.h"
#include "keel/tween/easing.h"
#include "keel/tween/trigger_system.h"
#include "keel/tween/tween_system.h"

#include <algorithm>
#include <vector>

namespace {

using keel::f32;
using keel::usize;
using keel::tween::Ease;
using keel::tween::TweenSystem;

constexpr usize kCount = 100'000;
constexpr f32 kDt = 1.0f / 60.0f;

f32 duration_of(usize i) { return 1000.0f + static_cast<f32>(i % 97); }
f32 from_of(usize i) { return static_cast<f32>(i % 13); }
f32 to_of(usize i) { return 100.0f - static_cast<f32>(i % 7); }

template <Ease E>
void system_bench(benchmark::State& state) {
  std::vector<f32> targets(kCount);
  TweenSystem tweens;
  tweens.reserve(kCount, E);
  for (usize i = 0; i < kCount; ++i) {
    tweens.tween(targets[i], duration_of(i), from_of(i), to_of(i), {.ease = E});
  }
  for (auto _ : state) {
    tweens.update(kDt);
    benchmark::ClobberMemory();
  }
  benchmark::DoNotOptimize(targets[kCount / 2]);
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * kCount));
}

struct Arrays {
  std::vector<f32> targets = std::vector<f32>(kCount);
  std::vector<f32*> target;
  std::vector<f32> from, to, elapsed, duration;
  Arrays() {
    for (usize i = 0; i < kCount; ++i) {
      target.push_back(&targets[i]);
      from.push_back(from_of(i));
      to.push_back(to_of(i));
      elapsed.push_back(0.0f);
      duration.push_back(duration_of(i));
    }
  }
};

template <Ease E>
void plain_bench(benchmark::State& state) {
  Arrays a;
  for (auto _ : state) {
    for (usize i = 0; i < kCount; ++i) {
      const f32 e = a.elapsed[i] + kDt;
      a.elapsed[i] = e;
      const f32 w = keel::tween::ease_at<E>(std::min(e / a.duration[i], 1.0f));
      *a.target[i] = a.from[i] * (1.0f - w) + a.to[i] * w;
    }
    benchmark::ClobberMemory();
  }
  benchmark::DoNotOptimize(a.targets[kCount / 2]);
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * kCount));
}

template <Ease E>
void plain_contiguous_bench(benchmark::State& state) {
  Arrays a;
  f32* out = a.targets.data();
  for (auto _ : state) {
    for (usize i = 0; i < kCount; ++i) {
      const f32 e = a.elapsed[i] + kDt;
      a.elapsed[i] = e;
      const f32 w = keel::tween::ease_at<E>(std::min(e / a.duration[i], 1.0f));
      out[i] = a.from[i] * (1.0f - w) + a.to[i] * w;
    }
    benchmark::ClobberMemory();
  }
  benchmark::DoNotOptimize(a.targets[kCount / 2]);
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * kCount));
}

void BM_TweenLinear100k(benchmark::State& state) { system_bench<Ease::kLinear>(state); }
void BM_PlainLinear100k(benchmark::State& state) { plain_bench<Ease::kLinear>(state); }
void BM_PlainLinearContiguous100k(benchmark::State& state) {
  plain_contiguous_bench<Ease::kLinear>(state);
}
void BM_TweenOutQuad100k(benchmark::State& state) { system_bench<Ease::kOutQuad>(state); }
void BM_PlainOutQuad100k(benchmark::State& state) { plain_bench<Ease::kOutQuad>(state); }
void BM_TweenOutBounce100k(benchmark::State& state) { system_bench<Ease::kOutBounce>(state); }
void BM_PlainOutBounce100k(benchmark::State& state) { plain_bench<Ease::kOutBounce>(state); }
BENCHMARK(BM_TweenLinear100k);
BENCHMARK(BM_PlainLinear100k);
BENCHMARK(BM_PlainLinearContiguous100k);
BENCHMARK(BM_TweenOutQuad100k);
BENCHMARK(BM_PlainOutQuad100k);
BENCHMARK(BM_TweenOutBounce100k);
BENCHMARK(BM_PlainOutBounce100k);

// 100,000 ping-pong tweens of 0.5-1.5 s in an ease with a distinct mirror: every update some
// reach the end of a play, loop, turn round and move to the mirrored curve's pool.
void BM_TweenPingPong100k(benchmark::State& state) {
  std::vector<f32> targets(kCount);
  TweenSystem tweens;
  for (usize i = 0; i < kCount; ++i) {
    tweens.tween(targets[i], 0.5f + static_cast<f32>(i % 101) / 100.0f, 0.0f, 1.0f,
                 {.ease = Ease::kInQuad, .loops = keel::tween::kForever, .ping_pong = true});
  }
  for (auto _ : state) {
    tweens.update(kDt);
    benchmark::ClobberMemory();
  }
  benchmark::DoNotOptimize(targets[kCount / 2]);
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * kCount));
}
BENCHMARK(BM_TweenPingPong100k);

// Triggers: 10,000 `less` triggers in level mode that do not fire (the common steady state).
void BM_Triggers10k(benchmark::State& state) {
  constexpr usize kTriggers = 10'000;
  std::vector<int> values(kTriggers, 100);
  keel::tween::TriggerSystem triggers;
  int fired = 0;
  for (usize i = 0; i < kTriggers; ++i) {
    triggers.less(values[i], 50, [&] { ++fired; }, {.once = false});
  }
  for (auto _ : state) {
    triggers.update();
    benchmark::ClobberMemory();
  }
  benchmark::DoNotOptimize(fired);
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * kTriggers));
}
BENCHMARK(BM_Triggers10k);

KEEL_BENCH_RATIO("tween update, 100k linear floats vs plain loop (same pointers)",
                 "BM_TweenLinear100k", "BM_PlainLinear100k");
KEEL_BENCH_RATIO("tween update, 100k linear floats vs plain loop (contiguous output)",
                 "BM_TweenLinear100k", "BM_PlainLinearContiguous100k");
KEEL_BENCH_RATIO("tween update, 100k out-quad floats vs plain loop", "BM_TweenOutQuad100k",
                 "BM_PlainOutQuad100k");
KEEL_BENCH_RATIO("tween update, 100k out-bounce floats vs plain loop", "BM_TweenOutBounce100k",
                 "BM_PlainOutBounce100k");

}  // namespace

KEEL_BENCH_MAIN();
