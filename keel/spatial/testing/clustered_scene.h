// Test and benchmark scenes for the group culler: n moving circles in Citizen's six groups, each
// group gathered in a few clusters (obstacles gang up: the case where the seed's quadtree lost).
// Deterministic for a seed. Header-only, not installed.
#pragma once

#include "keel/spatial/group_culling.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <random>
#include <vector>

namespace keel::spatial::testing {

struct ClusteredScene {
  std::vector<Obstacle> obstacles;
  Box bounds;
};

// Share of each CitizenGroup in the scene (sums to 1).
inline constexpr std::array<f32, 6> kGroupShare = {0.10f, 0.25f, 0.10f, 0.25f, 0.25f, 0.05f};

inline ClusteredScene clustered_scene(usize n, u32 seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<f32> unit(0.0f, 1.0f);
  std::normal_distribution<f32> spread(0.0f, 1.0f);
  ClusteredScene scene;
  // Density stays about the same at every size: the world grows with sqrt(n).
  const f32 side = 60.0f * std::sqrt(static_cast<f32>(std::max<usize>(n, 1)));
  scene.bounds = Box{{0, 0}, {side, side}};
  scene.obstacles.reserve(n);
  usize made = 0;
  for (usize g = 0; g < kGroupShare.size(); ++g) {
    const usize count = g + 1 == kGroupShare.size()
                            ? n - made
                            : std::min(n - made, static_cast<usize>(kGroupShare[g] * n + 0.5f));
    const usize clusters = std::max<usize>(1, count / 40);
    std::vector<Vec2> centres(clusters);
    for (Vec2& c : centres)
      c = {side * (0.1f + 0.8f * unit(rng)), side * (0.1f + 0.8f * unit(rng))};
    const bool fire = g == kAlliedFire || g == kEnemyFire || g == kNeutralFire;
    const f32 sigma = 6.0f * std::sqrt(static_cast<f32>(count / clusters + 1));
    for (usize i = 0; i < count; ++i) {
      const Vec2 c = centres[i % clusters];
      Obstacle o;
      o.group = static_cast<GroupId>(g);
      o.radius = fire ? 1.0f + unit(rng) : 2.0f + 3.0f * unit(rng);
      o.position = {std::clamp(c.x + sigma * spread(rng), o.radius, side - o.radius),
                    std::clamp(c.y + sigma * spread(rng), o.radius, side - o.radius)};
      const f32 speed = fire ? 40.0f : 10.0f;
      o.velocity = {speed * (2 * unit(rng) - 1), speed * (2 * unit(rng) - 1)};
      scene.obstacles.push_back(o);
    }
    made += count;
  }
  std::shuffle(scene.obstacles.begin(), scene.obstacles.end(), rng);  // groups interleaved
  return scene;
}

}  // namespace keel::spatial::testing
