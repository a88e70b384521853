// Entities and components (keel/world) against a plain structure-of-arrays loop on the same work
// in the same run: 1,000,000 entities with a position and a velocity, position += velocity * dt.
// - grouped view (World::group<Position, Velocity>: parallel dense arrays), with each() and with
//   range-for; the same view without a group (a sparse-set walk in blocks: its entities were made
//   one after the other, so the stores' runs of consecutive ids prove the blocks' order); the
//   same with every other entity id skipped (no runs: each block's order is proved by comparing
//   the two stores' entity ids);
// - a third, sparse component (10% of the entities) in the view;
// - creating and destroying 1,000,000 entities with two components (kill + flush);
// - adding and removing one component on an entity of a 1,000,000-entity world.
#include "bench_support.h"
#include "keel/world/world.h"

#include <vector>

namespace {

using keel::f32;
using keel::u32;
using keel::usize;
using keel::world::Entity;
using keel::world::World;

constexpr usize kCount = 1'000'000;
constexpr f32 kDt = 1.0f / 60.0f;

struct Position {
  f32 x = 0, y = 0;
};
struct Velocity {
  f32 x = 0, y = 0;
};
struct Sparse {
  f32 drag = 0.99f;
};
struct Marker {
  u32 value = 0;
};

// `gaps`: an entity with no component after each one with them (ids not consecutive).
void fill(World& world, bool grouped, bool sparse, bool gaps = false) {
  if (grouped) world.group<Position, Velocity>();
  world.reserve(gaps ? 2 * kCount : kCount);
  world.store<Position>().reserve(kCount);
  world.store<Velocity>().reserve(kCount);
  for (usize i = 0; i < kCount; ++i) {
    if (gaps) world.create();
    const Entity e = world.create();
    world.create<Position>(e, f32(i), 0.f);
    world.create<Velocity>(e, 1.f, f32(i % 7));
    if (sparse && i % 10 == 0) world.create<Sparse>(e);
  }
}

void BM_PlainSoA(benchmark::State& state) {
  std::vector<f32> px(kCount), py(kCount, 0.f), vx(kCount, 1.f), vy(kCount);
  for (usize i = 0; i < kCount; ++i) {
    px[i] = f32(i);
    vy[i] = f32(i % 7);
  }
  for (auto _ : state) {
    for (usize i = 0; i < kCount; ++i) {
      px[i] += vx[i] * kDt;
      py[i] += vy[i] * kDt;
    }
    benchmark::DoNotOptimize(px.data());
    benchmark::DoNotOptimize(py.data());
    benchmark::ClobberMemory();
  }
}
BENCHMARK(BM_PlainSoA)->Unit(benchmark::kMicrosecond);

void BM_GroupedViewEach(benchmark::State& state) {
  World world;
  fill(world, true, false);
  auto view = world.view<Position, Velocity>();
  for (auto _ : state) {
    view.each([](Position& p, const Velocity& v) {
      p.x += v.x * kDt;
      p.y += v.y * kDt;
    });
    benchmark::ClobberMemory();
  }
}
BENCHMARK(BM_GroupedViewEach)->Unit(benchmark::kMicrosecond);

void BM_GroupedViewRangeFor(benchmark::State& state) {
  World world;
  fill(world, true, false);
  for (auto _ : state) {
    for (auto [e, p, v] : world.view<Position, Velocity>()) {
      p.x += v.x * kDt;
      p.y += v.y * kDt;
    }
    benchmark::ClobberMemory();
  }
}
BENCHMARK(BM_GroupedViewRangeFor)->Unit(benchmark::kMicrosecond);

void BM_SparseView(benchmark::State& state) {
  World world;
  fill(world, false, false);
  for (auto _ : state) {
    world.view<Position, Velocity>().each([](Position& p, const Velocity& v) {
      p.x += v.x * kDt;
      p.y += v.y * kDt;
    });
    benchmark::ClobberMemory();
  }
}
BENCHMARK(BM_SparseView)->Unit(benchmark::kMicrosecond);

void BM_SparseViewNoRuns(benchmark::State& state) {
  World world;
  fill(world, false, false, true);
  for (auto _ : state) {
    world.view<Position, Velocity>().each([](Position& p, const Velocity& v) {
      p.x += v.x * kDt;
      p.y += v.y * kDt;
    });
    benchmark::ClobberMemory();
  }
}
BENCHMARK(BM_SparseViewNoRuns)->Unit(benchmark::kMicrosecond);

void BM_ThirdSparseComponent(benchmark::State& state) {
  World world;
  fill(world, true, true);
  for (auto _ : state) {
    world.view<Position, Velocity, Sparse>().each([](Position& p, Velocity& v, const Sparse& s) {
      v.x *= s.drag;
      v.y *= s.drag;
      p.x += v.x * kDt;
      p.y += v.y * kDt;
    });
    benchmark::ClobberMemory();
  }
}
BENCHMARK(BM_ThirdSparseComponent)->Unit(benchmark::kMicrosecond);

void BM_CreateDestroy1M(benchmark::State& state) {
  World world;
  world.group<Position, Velocity>();
  std::vector<Entity> entities(kCount);
  for (auto _ : state) {
    for (usize i = 0; i < kCount; ++i) {
      const Entity e = world.create();
      world.create<Position>(e, f32(i), 0.f);
      world.create<Velocity>(e, 1.f, 0.f);
      entities[i] = e;
    }
    for (const Entity e : entities) world.kill(e);
    world.flush();
    benchmark::DoNotOptimize(world.size());
  }
}
BENCHMARK(BM_CreateDestroy1M)->Unit(benchmark::kMillisecond);

void BM_AddRemoveComponent(benchmark::State& state) {
  World world;
  fill(world, true, false);
  std::vector<Entity> entities;
  entities.reserve(kCount);
  world.for_each_entity([&](Entity e) { entities.push_back(e); });
  usize i = 0;
  for (auto _ : state) {
    const Entity e = entities[(i += 7919) % kCount];
    world.create<Marker>(e, u32(i));
    world.remove<Marker>(e);
    world.flush();
  }
}
BENCHMARK(BM_AddRemoveComponent);

}  // namespace

KEEL_BENCH_RATIO("ecs grouped view each, 1M x 2 components vs plain SoA loop", "BM_GroupedViewEach",
                 "BM_PlainSoA");
KEEL_BENCH_RATIO("ecs grouped view range-for, 1M x 2 components vs plain SoA loop",
                 "BM_GroupedViewRangeFor", "BM_PlainSoA");
KEEL_BENCH_RATIO("ecs sparse-set view (no group), 1M x 2 components vs plain SoA loop",
                 "BM_SparseView", "BM_PlainSoA");
KEEL_BENCH_RATIO("ecs sparse-set view, entity ids not consecutive (blocks compared), vs plain SoA",
                 "BM_SparseViewNoRuns", "BM_PlainSoA");
KEEL_BENCH_RATIO("ecs view with a third 10% component vs plain SoA loop over all 1M",
                 "BM_ThirdSparseComponent", "BM_PlainSoA");

KEEL_BENCH_MAIN()
