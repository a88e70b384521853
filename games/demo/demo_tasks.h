// The demo's tasks: simulated input, a particle physics task on the fixed step, a small AI
// task whose helper is called from two places (two nodes in the profiler's call tree), a
// headless "renderer", and short-lived ref-counted effects collected by the frame-end hook.
#pragma once

#include "keel/core/ref.h"
#include "keel/core/types.h"
#include "keel/kernel/task.h"

#include <random>
#include <string>
#include <vector>

namespace demo {

using keel::f32;
using keel::u32;
using keel::u64;
using keel::usize;

// What the tasks share for one run.
struct World {
  std::vector<f32> x, y, vx, vy;  // particles
  u32 presses = 0;                // simulated key presses so far
  u32 effects_spawned = 0;
  u64 render_checksum = 0;
  std::vector<std::string> waves;
  u32 wave = 0;
};

// A short-lived effect: made on a key press, released a few frames later, destroyed by the
// object registry's collect() in the frame-end hook.
class Effect : public keel::RefCounted {
 public:
  explicit Effect(u32 frames) : frames_left(frames) {}
  u32 frames_left;
};

class InputTask final : public keel::kernel::Task {
 public:
  InputTask(World& world, keel::ObjectRegistry& objects, u32 seed);
  void update(const keel::kernel::Frame& frame) override;

 private:
  World& world_;
  keel::ObjectRegistry& objects_;
  std::mt19937 rng_;
  std::vector<keel::Ref<Effect>> live_;
};

class PhysicsTask final : public keel::kernel::Task {
 public:
  PhysicsTask(World& world, u32 particles, u32 seed);
  bool start() override;
  void update(const keel::kernel::Frame& frame) override;
  void fixed_update(const keel::kernel::Frame& frame) override;

 private:
  World& world_;
  u32 particles_;
  u32 seed_;
};

class AiTask final : public keel::kernel::Task {
 public:
  explicit AiTask(World& world);
  void update(const keel::kernel::Frame& frame) override;

 private:
  void think();
  void plan_path();
  World& world_;
  f32 thought_ = 0;
};

class RenderTask final : public keel::kernel::Task {
 public:
  explicit RenderTask(World& world);
  void update(const keel::kernel::Frame& frame) override;

 private:
  World& world_;
};

}  // namespace demo
