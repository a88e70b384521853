#include "demo_tasks.h"

#include "keel/core/log.h"
#include "keel/profile/profile.h"

#include <cmath>

namespace demo {

using keel::kernel::Frame;

InputTask::InputTask(World& world, keel::ObjectRegistry& objects, u32 seed)
    : Task("input", 1000), world_(world), objects_(objects), rng_(seed) {}

void InputTask::update(const Frame&) {
  KEEL_PROFILE("Input");
  // Age the live effects; releasing the last handle queues an effect for the frame-end collect.
  for (auto& effect : live_) {
    if (effect && --effect->frames_left == 0) effect = nullptr;
  }
  std::erase_if(live_, [](const keel::Ref<Effect>& e) { return !e; });
  if (rng_() % 8 == 0) {  // a key press
    ++world_.presses;
    live_.push_back(objects_.make<Effect>(1 + rng_() % 10));
    ++world_.effects_spawned;
  }
}

PhysicsTask::PhysicsTask(World& world, u32 particles, u32 seed)
    : Task("physics", 2000), world_(world), particles_(particles), seed_(seed) {}

bool PhysicsTask::start() {
  if (particles_ == 0) return false;  // nothing to simulate: refuse to start
  std::mt19937 rng(seed_);
  std::uniform_real_distribution<f32> pos(0.0f, 100.0f);
  std::uniform_real_distribution<f32> vel(-5.0f, 5.0f);
  world_.x.resize(particles_);
  world_.y.resize(particles_);
  world_.vx.resize(particles_);
  world_.vy.resize(particles_);
  for (u32 i = 0; i < particles_; ++i) {
    world_.x[i] = pos(rng);
    world_.y[i] = pos(rng);
    world_.vx[i] = vel(rng);
    world_.vy[i] = vel(rng);
  }
  return true;
}

void PhysicsTask::fixed_update(const Frame& frame) {
  KEEL_PROFILE("Physics step");
  const auto dt = static_cast<f32>(frame.fixed_dt);
  const usize n = world_.x.size();
  KEEL_PROFILE_VALUE("particles", n);
  for (usize i = 0; i < n; ++i) {
    world_.vy[i] -= 9.81f * dt;
    world_.x[i] += world_.vx[i] * dt;
    world_.y[i] += world_.vy[i] * dt;
    if (world_.y[i] < 0.0f) {  // bounce off the floor, losing a little energy
      world_.y[i] = -world_.y[i];
      world_.vy[i] = -world_.vy[i] * 0.9f;
    }
    if (world_.x[i] < 0.0f || world_.x[i] > 100.0f) world_.vx[i] = -world_.vx[i];
  }
}

void PhysicsTask::update(const Frame&) {}

AiTask::AiTask(World& world) : Task("ai", 3000), world_(world) {}

void AiTask::plan_path() {
  KEEL_PROFILE("Plan path");  // called from two contexts: two nodes in the tree
  for (int i = 0; i < 200; ++i) thought_ = std::sin(thought_ + static_cast<f32>(i));
}

void AiTask::think() {
  KEEL_PROFILE("Think");
  plan_path();
}

void AiTask::update(const Frame& frame) {
  KEEL_PROFILE("AI");
  think();
  if (frame.number % 4 == 0) plan_path();
  if (!world_.waves.empty() && frame.number % 60 == 59) {
    world_.wave = (world_.wave + 1) % static_cast<u32>(world_.waves.size());
    KEEL_LOG_DEBUG(keel::log::Channel::kClient, "wave {}: {}", world_.wave,
                   world_.waves[world_.wave]);
  }
}

RenderTask::RenderTask(World& world) : Task("render", 9000), world_(world) {}

void RenderTask::update(const Frame&) {
  KEEL_PROFILE("Render");
  // Headless: "draw" into a 64x32 character grid and fold it into a checksum.
  char grid[32][64] = {};
  for (usize i = 0; i < world_.x.size(); ++i) {
    const int cx = static_cast<int>(world_.x[i] * 0.63f);
    const int cy = static_cast<int>(world_.y[i] * 0.31f);
    if (cx >= 0 && cx < 64 && cy >= 0 && cy < 32) grid[cy][cx] = '*';
  }
  u64 sum = world_.render_checksum;
  for (const auto& row : grid) {
    for (char c : row) sum = sum * 31 + static_cast<unsigned char>(c);
  }
  world_.render_checksum = sum;
}

}  // namespace demo
