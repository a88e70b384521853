// The world module's headless scene: a player on autopilot against the "waves" chain's fleets,
// everything defined in the sample pack (entity definitions, the chain, particle effects).
#pragma once

#include "keel/core/error.h"
#include "keel/core/types.h"
#include "keel/pack/loader.h"
#include "keel/world/chain_runner.h"
#include "keel/world/defs.h"
#include "keel/world/defs_spawn.h"
#include "keel/world/fleet.h"
#include "keel/world/particles.h"
#include "keel/world/physics_world.h"
#include "keel/world/steering_system.h"
#include "keel/world/world.h"

#include <array>
#include <filesystem>
#include <memory>
#include <optional>
#include <vector>

namespace keel::scene {

// The game's own component (declared in data/assets/world/citizen.kschema).
struct Health {
  f32 hp = 1;
  f32 armour = 0;
};

// Seconds spent per system since the last reset (summed over frames).
struct SystemTimes {
  f64 steering = 0;
  f64 physics = 0;
  f64 particles = 0;
  f64 events = 0;
};

struct FrameSummary {
  u64 frame = 0;
  usize wave_step = 0;
  usize live_entities = 0;
  usize bullets = 0;
  usize enemies = 0;
  u32 killed = 0;
  usize particles = 0;
  bool chain_finished = false;
};

class Scene {
 public:
  static constexpr f32 kDt = 1.0f / 60;
  static constexpr f32 kBulletDamage = 10;

  // Loads the pack, spawns the player and starts the "waves" chain.
  static Result<std::unique_ptr<Scene>> create(const std::filesystem::path& pack_path);
  Scene(const Scene&) = delete;
  Scene& operator=(const Scene&) = delete;

  // One fixed frame of kDt: autopilot, fleets, guns, steering, physics, lifetimes, particles,
  // the flush (contacts -> damage, shots -> bullets, kills -> explosions), the chain.
  Status step();

  FrameSummary summary() const;
  const SystemTimes& times() const { return times_; }
  void reset_times() { times_ = {}; }
  // World (entities and tracked components), Box2D bodies and live particles, combined.
  u64 state_hash() const;
  // Its three parts: world, physics, particles.
  std::array<u64, 3> hash_parts() const;

  const world::World& world() const { return world_; }
  const world::ParticleSystem& particles() const { return particles_; }
  world::Entity player() const { return player_; }
  const pack::LoadedPack& pack() const { return *pack_; }

 private:
  Scene();
  Status load(const std::filesystem::path& pack_path);
  void register_components();
  void connect_events();
  void autopilot();
  void steer_fleet();
  void on_contact(world::Entity a, world::Entity b);
  void hit(world::Entity shot, world::Entity ship);
  void explode(world::Vec2 at);

  // Declaration order matters: the pack's effects live in particles_ (which must outlive it).
  world::ParticleSystem particles_{7};
  pack::Loader loader_;
  std::optional<pack::LoadedPack> pack_;
  world::World world_;
  world::PhysicsSystem physics_;
  world::SteeringSystem steering_;
  world::SpawnRegistry registry_;
  world::EntityDefs defs_;
  std::unique_ptr<world::ChainRunner> chain_;
  world::Entity player_;
  std::vector<world::Vec2> enemy_positions_;
  std::vector<world::Entity> enemies_;
  std::vector<world::Vec2> desired_;
  SystemTimes times_;
  u64 frame_ = 0;
  u32 killed_ = 0;
  u32 failed_shots_ = 0;
};

}  // namespace keel::scene
