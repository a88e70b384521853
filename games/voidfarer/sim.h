// Voidfarer's simulation: the player's ship, driven by Controls (a person's input, a replay or
// the autopilot), against the "waves" chain's enemy fleets, everything defined in the game's pack
// (entity definitions, the chain, particle effects, AI). Fixed step, deterministic: the same
// pack, options and Controls per frame give the same state_hash() on every run.
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

#include "controls.h"

#include <array>
#include <filesystem>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

namespace keel::voidfarer {

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

// Citizen's difficulty: a harder level takes abilities away from the player (settings
// "difficulty"), it does not make enemies spongier.
enum class Difficulty : u8 { kEasy, kNormal, kHard };

struct SimOptions {
  Difficulty difficulty = Difficulty::kNormal;
  u64 seed = 1;
};

// A sound the frame asks for (gun shots, hits, deaths), taken by the presentation each frame.
struct SoundEvent {
  u32 sound = 0;  // runtime_id of the Sound asset's name
  world::Vec2 position{0, 0};
  f32 volume = 1;
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
  u64 score = 0;
  f32 hull = 0;      // the player's hit points left (0: destroyed)
  f32 hull_max = 0;  // the player's hit points at spawn
  bool player_alive = true;
};

class Sim {
 public:
  static constexpr f32 kDt = 1.0f / 60;
  static constexpr f32 kBulletDamage = 10;

  // Loads the pack, spawns the player and starts the "waves" chain.
  static Result<std::unique_ptr<Sim>> create(const std::filesystem::path& pack_path,
                                             const SimOptions& options = {});
  Sim(const Sim&) = delete;
  Sim& operator=(const Sim&) = delete;

  // One fixed frame of kDt: the player's controls, fleets, guns, steering, physics, lifetimes,
  // particles, the flush (contacts -> damage, shots -> bullets, kills -> explosions), the chain.
  Status step(const Controls& controls);
  // What the autopilot would press this frame (steering + firing): the game plays itself.
  Controls autopilot() const;

  // The sounds asked for since the last call (moved out).
  std::vector<SoundEvent> take_sounds();

  // Spawns an entity definition of the pack at `at` (benchmarks and tests fill the world).
  Result<world::Entity> spawn(std::string_view definition, world::Vec2 at);
  // Starts the particle effect `effect` at `at` for two seconds (an explosion by default).
  void burst(world::Vec2 at, std::string_view effect = "blast");

  // Quick-save and quick-load (keel/save files, written atomically): world, physics, particles,
  // AI state machines, the chain and the score. A load either restores everything or changes
  // nothing; a loaded run continues to the same state_hash() as the saving one.
  Status save(const std::filesystem::path& path) const;
  Status load_save(const std::filesystem::path& path);

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
  Sim(const SimOptions& options);
  Status load(const std::filesystem::path& pack_path);
  void register_components();
  void connect_events();
  void apply_controls(const Controls& controls);
  void find_enemies();
  void steer_fleet();
  void on_contact(world::Entity a, world::Entity b);
  void hit(world::Entity shot, world::Entity ship);

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
  SimOptions options_;
  std::vector<SoundEvent> sounds_;
  u64 frame_ = 0;
  u32 killed_ = 0;
  f32 hull_max_ = 0;
  u32 failed_shots_ = 0;
};

}  // namespace keel::voidfarer
