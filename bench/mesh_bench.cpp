// The book's triangle stripper (keel/assets/build/strip.h) against meshoptimizer's
// meshopt_stripify on a grid, a UV sphere and a torus knot (no Debian package ships a real
// model): indices per triangle and ACMR in a FIFO cache of 16 and 32 entries, with
// meshoptimizer's own vertex-cache optimiser (a triangle list) as the reference ACMR. The
// quality lines are printed first (ratio = Keel / meshoptimizer, goal <= 1.1); then the timings.
#include "bench_support.h"
#include "keel/assets/build/strip.h"

#include <meshoptimizer.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace {

using keel::u32;
using keel::assets::CacheKind;
using keel::assets::CacheModel;
using keel::assets::Strip;
using keel::assets::StripOptions;

struct TestMesh {
  std::string name;
  std::vector<u32> indices;
  u32 vertices = 0;
};

TestMesh grid(u32 n) {
  TestMesh m{"grid", {}, (n + 1) * (n + 1)};
  for (u32 y = 0; y < n; ++y) {
    for (u32 x = 0; x < n; ++x) {
      const u32 a = y * (n + 1) + x, b = a + 1, c = a + n + 1, d = c + 1;
      m.indices.insert(m.indices.end(), {a, c, b, b, c, d});
    }
  }
  return m;
}

// A closed (u, v) surface: `rows` x `columns` quads, wrapping in both directions.
TestMesh wrapped(std::string name, u32 rows, u32 columns) {
  TestMesh m{std::move(name), {}, rows * columns};
  for (u32 i = 0; i < rows; ++i) {
    for (u32 j = 0; j < columns; ++j) {
      const u32 a = i * columns + j, b = ((i + 1) % rows) * columns + j;
      const u32 c = ((i + 1) % rows) * columns + (j + 1) % columns,
                d = i * columns + (j + 1) % columns;
      m.indices.insert(m.indices.end(), {a, b, c, a, c, d});
    }
  }
  return m;
}

TestMesh sphere(u32 rings, u32 segments) {
  // Poles as single vertices: fans at the ends, quads between.
  TestMesh m{"sphere", {}, 2 + (rings - 1) * segments};
  const u32 top = 0, bottom = 1;
  const auto at = [&](u32 ring, u32 s) { return 2 + (ring - 1) * segments + s % segments; };
  for (u32 s = 0; s < segments; ++s)
    m.indices.insert(m.indices.end(), {top, at(1, s + 1), at(1, s)});
  for (u32 r = 1; r + 1 < rings; ++r) {
    for (u32 s = 0; s < segments; ++s) {
      m.indices.insert(m.indices.end(), {at(r, s), at(r, s + 1), at(r + 1, s)});
      m.indices.insert(m.indices.end(), {at(r, s + 1), at(r + 1, s + 1), at(r + 1, s)});
    }
  }
  for (u32 s = 0; s < segments; ++s) {
    m.indices.insert(m.indices.end(), {bottom, at(rings - 1, s), at(rings - 1, s + 1)});
  }
  return m;
}

const std::vector<TestMesh>& meshes() {
  static const std::vector<TestMesh> all{grid(96), sphere(64, 128), wrapped("torus knot", 512, 16)};
  return all;
}

StripOptions book_options(u32 cache) {
  StripOptions o;
  o.cache = {.kind = CacheKind::kFifo, .size = cache};
  return o;
}

std::vector<u32> meshopt_strip(const TestMesh& m) {
  std::vector<u32> list(m.indices.size());
  meshopt_optimizeVertexCache(list.data(), m.indices.data(), m.indices.size(), m.vertices);
  std::vector<u32> strip(meshopt_stripifyBound(list.size()));
  strip.resize(meshopt_stripify(strip.data(), list.data(), list.size(), m.vertices, 0));
  return strip;
}

std::vector<u32> book_strip(const TestMesh& m, u32 cache) {
  std::vector<Strip> strips = keel::assets::make_strips(m.indices, book_options(cache));
  std::vector<u32> out;
  for (const Strip& s : strips) keel::assets::stitch_onto(out, s);
  return out;
}

double acmr_fifo(const std::vector<u32>& indices, bool strip, u32 size) {
  return keel::assets::acmr(indices, strip, CacheModel{.kind = CacheKind::kFifo, .size = size});
}

void print_quality() {
  for (const TestMesh& m : meshes()) {
    const double triangles = static_cast<double>(m.indices.size() / 3);
    std::vector<u32> reference(m.indices.size());
    meshopt_optimizeVertexCache(reference.data(), m.indices.data(), m.indices.size(), m.vertices);
    const std::vector<u32> peer = meshopt_strip(m);
    const std::vector<u32> book16 = book_strip(m, 16);
    const std::vector<u32> book32 = book_strip(m, 32);
    const double ipt_book = static_cast<double>(book16.size()) / triangles;
    const double ipt_book32 = static_cast<double>(book32.size()) / triangles;
    const double ipt_peer = static_cast<double>(peer.size()) / triangles;
    // The first line is the strip tuned for a 16-entry cache (its name predates the second line).
    std::printf(
        "ratio=%.3f mesh strip indices/triangle book vs meshopt_stripify on %s (%.3f / %.3f)\n",
        ipt_book / ipt_peer, m.name.c_str(), ipt_book, ipt_peer);
    std::printf(
        "ratio=%.3f mesh strip indices/triangle book (FIFO32 strip) vs meshopt_stripify on %s "
        "(%.3f / %.3f)\n",
        ipt_book32 / ipt_peer, m.name.c_str(), ipt_book32, ipt_peer);
    for (u32 size : {16u, 32u}) {
      const double book = acmr_fifo(size == 16 ? book16 : book32, true, size);
      const double peer_acmr = acmr_fifo(peer, true, size);
      const double ref = acmr_fifo(reference, false, size);
      std::printf(
          "ratio=%.3f mesh strip ACMR FIFO%u book vs meshopt_stripify on %s (%.3f / %.3f; "
          "meshopt_optimizeVertexCache list %.3f)\n",
          book / peer_acmr, size, m.name.c_str(), book, peer_acmr, ref);
    }
  }
  std::fflush(stdout);
}

void BM_BookStripper(benchmark::State& state) {
  const TestMesh& m = meshes()[static_cast<std::size_t>(state.range(0))];
  for (auto _ : state) benchmark::DoNotOptimize(book_strip(m, 16));
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * m.indices.size() / 3));
}
BENCHMARK(BM_BookStripper)->Arg(2)->Unit(benchmark::kMillisecond);

void BM_MeshoptStripify(benchmark::State& state) {
  const TestMesh& m = meshes()[static_cast<std::size_t>(state.range(0))];
  for (auto _ : state) benchmark::DoNotOptimize(meshopt_strip(m));
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * m.indices.size() / 3));
}
BENCHMARK(BM_MeshoptStripify)->Arg(2)->Unit(benchmark::kMillisecond);

KEEL_BENCH_RATIO("mesh book stripper vs meshopt cache optimiser + stripify (torus knot time)",
                 "BM_BookStripper/2", "BM_MeshoptStripify/2");

}  // namespace

int main(int argc, char** argv) {
  print_quality();
  return keel::bench::run_main(argc, argv);
}
