// BSP point (segment) query: per-query time at 1k, 10k and 100k faces (it should grow like
// log n) and, at 100k faces, against brute force over every face (goal: at least 50x faster).
// The scenes keep the face density constant (the box grows with n), so a query of the same length
// meets about as many faces at every size; only the tree depth grows.
#include "bench_support.h"

#include "keel/spatial/bsp.h"
#include "keel/spatial/testing/bsp_scenes.h"

#include <cmath>
#include <cstdio>
#include <map>
#include <random>
#include <vector>

namespace {

using namespace keel;
using namespace keel::spatial;

struct Scene {
  std::vector<Triangle> triangles;
  BspTree tree;
  std::vector<std::pair<Vec3, Vec3>> queries;
};

const Scene& scene(u32 faces) {
  static std::map<u32, Scene> scenes;
  auto it = scenes.find(faces);
  if (it != scenes.end()) return it->second;
  const float extent = 10.0f * std::cbrt(static_cast<float>(faces) / 1000.0f);
  const auto input = testing::random_scene(faces, extent, 0.5f, 42);
  Scene s;
  s.triangles = testing::triangles_of(input);
  BspBuildOptions options;
  options.max_candidates = 16;  // O(16 n) per node instead of the book's O(n^2)
  s.tree = build_bsp(input, options);
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> pos(-extent, extent);
  std::uniform_real_distribution<float> step(-1.5f, 1.5f);
  for (u32 i = 0; i < 1024; ++i) {
    const Vec3 a{pos(rng), pos(rng), pos(rng)};
    s.queries.push_back({a, a + Vec3{step(rng), step(rng), step(rng)}});
  }
  std::fprintf(stderr, "bsp bench: %u faces -> %u nodes, %u faces, %u splits, depth %u\n", faces,
               s.tree.stats.nodes, s.tree.stats.faces, s.tree.stats.splits, s.tree.stats.depth);
  return scenes.emplace(faces, std::move(s)).first->second;
}

void BM_BspSegment(benchmark::State& state) {
  const Scene& s = scene(static_cast<u32>(state.range(0)));
  const BspView view = s.tree.view();
  u32 i = 0;
  BspQueryStats work;
  for (auto _ : state) {
    const auto& q = s.queries[i++ & 1023];
    benchmark::DoNotOptimize(view.segment(q.first, q.second, &work));
  }
  // The work per query (deterministic, unlike the time): nodes visited and faces tested.
  const double n = static_cast<double>(state.iterations());
  state.counters["nodes"] = work.nodes_visited / n;
  state.counters["faces"] = work.faces_tested / n;
}
BENCHMARK(BM_BspSegment)->Arg(1000)->Arg(10000)->Arg(100000);

void BM_BruteSegment(benchmark::State& state) {
  const Scene& s = scene(static_cast<u32>(state.range(0)));
  u32 i = 0;
  for (auto _ : state) {
    const auto& q = s.queries[i++ & 1023];
    benchmark::DoNotOptimize(brute_segment(s.triangles, q.first, q.second));
  }
}
BENCHMARK(BM_BruteSegment)->Arg(100000);

KEEL_BENCH_RATIO("bsp point query vs brute force, 100k faces (goal <= 0.02)",
                 "BM_BspSegment/100000", "BM_BruteSegment/100000");
KEEL_BENCH_RATIO("bsp point query 100k vs 1k faces (log2 ratio 1.67)", "BM_BspSegment/100000",
                 "BM_BspSegment/1000");

}  // namespace

int main(int argc, char** argv) {
  const int rc = keel::bench::run_main(argc, argv);
  const double t1 = keel::bench::measured_ns("BM_BspSegment/1000");
  const double t10 = keel::bench::measured_ns("BM_BspSegment/10000");
  const double t100 = keel::bench::measured_ns("BM_BspSegment/100000");
  if (t1 > 0 && t10 > 0 && t100 > 0) {
    std::printf(
        "growth: 1k %.1f ns, 10k %.1f ns (x%.2f), 100k %.1f ns (x%.2f); log2 n: %.2f, %.2f "
        "(x%.2f), %.2f (x%.2f)\n",
        t1, t10, t10 / t1, t100, t100 / t10, std::log2(1e3), std::log2(1e4),
        std::log2(1e4) / std::log2(1e3), std::log2(1e5), std::log2(1e5) / std::log2(1e4));
  }
  const double brute = keel::bench::measured_ns("BM_BruteSegment/100000");
  if (t100 > 0 && brute > 0) {
    std::printf("speedup: 100k faces, bsp %.1f ns vs brute force %.1f ns = %.0fx (goal >= 50x)\n",
                t100, brute, brute / t100);
  }
  // The work per query, which does not depend on the machine: it is what grows like log n.
  for (const u32 faces : {1000u, 10000u, 100000u}) {
    const Scene& s = scene(faces);
    BspQueryStats work;
    for (const auto& q : s.queries) (void)s.tree.view().segment(q.first, q.second, &work);
    std::printf("work: %u faces: %.1f nodes visited, %.1f faces tested per query (depth %u)\n",
                faces, work.nodes_visited / 1024.0, work.faces_tested / 1024.0, s.tree.stats.depth);
  }
  return rc;
}
