// Steering fleets: 2,000 agents with seek, cohesion and separation per frame, neighbour queries
// included (keel::world::FleetSteering), with neighbours from spatial's NeighbourGrid against the
// brute-force search over all pairs (the same steering code; the two give identical results to
// the bit). One iteration is one frame. The frames are precomputed (64 steps of a fleet closing
// in on the player from a wide start, played forwards then backwards) and both sides read the
// same positions, so the neighbour counts match (counter `neighbours`).
//
// Also measured: the same 2,000 agents as World entities (Vehicle + Transform) through
// SteeringSystem::update — steering, neighbour grid and the motion model, per frame.
#include "bench_support.h"
#include "keel/world/fleet.h"
#include "keel/world/motion.h"
#include "keel/world/steering_system.h"
#include "keel/world/world.h"

#include <random>
#include <vector>

namespace {

using keel::f32;
using keel::u32;
using keel::usize;
using namespace keel::world;

constexpr usize kAgents = 2000;
constexpr int kSteps = 64;
constexpr f32 kDt = 1.0f / 30;

std::vector<Vec2> start_positions(usize n) {
  std::mt19937 rng(2026);
  std::uniform_real_distribution<f32> where(-900, 900);
  std::vector<Vec2> p(n);
  for (Vec2& v : p) v = {where(rng) - 1200, where(rng)};
  return p;
}

const std::vector<std::vector<Vec2>>& frames() {
  static const std::vector<std::vector<Vec2>> all = [] {
    std::vector<Vec2> positions = start_positions(kAgents);
    std::vector<Motion> motion(kAgents);
    std::vector<Vec2> desired(kAgents);
    const FleetParams params;
    const MotionParams mp{.max_speed = params.max_speed,
                          .mass = 1,
                          .accel_rate = 3,
                          .turn_rate = 6,
                          .mode = SpeedMode::kDelicate};
    const MotionWeights w = motion_weights(mp, kDt);
    FleetSteering fleet;
    std::vector<std::vector<Vec2>> forward;
    // Let the fleet gather for a while first, so the frames show a fleet, not a random scatter.
    for (int s = 0; s < 30 * 8 + kSteps; ++s) {
      if (s >= 30 * 8) forward.push_back(positions);
      fleet.steer(positions, fleet_goal({}, centre_of(positions), params.goal_distance), params,
                  desired);
      for (usize i = 0; i < kAgents; ++i) {
        motion[i] = step_motion(motion[i], desired[i], w, mp);
        positions[i] += velocity_of(motion[i]) * kDt;
      }
    }
    std::vector<std::vector<Vec2>> cycle = forward;
    for (int s = kSteps - 2; s > 0; --s) cycle.push_back(forward[static_cast<usize>(s)]);
    return cycle;
  }();
  return all;
}

void run_fleet(benchmark::State& state, NeighbourSearch search) {
  const auto& all = frames();
  const FleetParams params;
  FleetSteering fleet;
  std::vector<Vec2> desired(kAgents);
  // Neighbours per agent over the whole cycle (both sides see the same frames, whatever their
  // iteration counts), counted once outside the timed loop.
  double neighbours = 0;
  for (const std::vector<Vec2>& positions : all) {
    fleet.steer(positions, {}, params, desired, search);
    neighbours += static_cast<double>(fleet.neighbours_found());
  }
  state.counters["neighbours_per_agent"] = neighbours / static_cast<double>(all.size() * kAgents);
  usize frame = 0;
  for (auto _ : state) {
    const std::vector<Vec2>& positions = all[frame];
    frame = (frame + 1) % all.size();
    fleet.steer(positions, fleet_goal({}, centre_of(positions), params.goal_distance), params,
                desired, search);
    benchmark::DoNotOptimize(desired.data());
  }
}

void BM_FleetGrid2000(benchmark::State& state) { run_fleet(state, NeighbourSearch::kGrid); }
void BM_FleetBruteForce2000(benchmark::State& state) {
  run_fleet(state, NeighbourSearch::kBruteForce);
}
BENCHMARK(BM_FleetGrid2000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_FleetBruteForce2000)->Unit(benchmark::kMicrosecond);

KEEL_BENCH_RATIO("steering 2,000 agents, separation + cohesion per frame: grid vs brute force",
                 "BM_FleetGrid2000", "BM_FleetBruteForce2000");

void BM_SteeringSystemWorld2000(benchmark::State& state) {
  World world;
  const std::vector<Vec2>& first = frames().front();
  for (usize i = 0; i < kAgents; ++i) {
    const Entity e = world.create();
    Transform t;
    t.position = first[i];
    world.create<Transform>(e, t);
    Vehicle v;
    v.motion = {
        .max_speed = 120, .mass = 1, .accel_rate = 3, .turn_rate = 6, .mode = SpeedMode::kDelicate};
    v.weights.seek = 1;
    v.weights.cohesion = 0.4f;
    v.weights.separation = 2;
    v.has_target = true;
    world.create<Vehicle>(e, v);
  }
  world.group<Vehicle, Transform>();
  SteeringSystem steering;
  for (auto _ : state) {
    // The fleet's goal: half a screen from a player at the origin.
    Vec2 sum;
    for (auto [e, t] : world.view<Transform>()) sum += t.position;
    const Vec2 goal = fleet_goal({}, sum / static_cast<f32>(kAgents), 400);
    world.view<Vehicle>().each([goal](Vehicle& v) { v.target = goal; });
    steering.update(world, kDt);
  }
}
BENCHMARK(BM_SteeringSystemWorld2000)->Unit(benchmark::kMicrosecond);

KEEL_BENCH_RATIO("steering 2,000 World vehicles (steer + move) vs the bare fleet kernel",
                 "BM_SteeringSystemWorld2000", "BM_FleetGrid2000");

}  // namespace

KEEL_BENCH_MAIN()
