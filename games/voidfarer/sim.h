// Voidfarer's simulation: the player's ship, driven by Controls (a person's input, a replay or
// the autopilot), against the "waves" chain's enemy fleets, everything defined in the game's pack
// (entity definitions, the chain, particle effects, AI). Fixed step, deterministic: the same
// pack, options and Controls per frame give the same state_hash() on every run.
#pragma once

#include "keel/core/bytes.h"
#include "keel/core/error.h"
#include "keel/core/types.h"
#include "keel/fsm/environment.h"
#include "keel/fsm/functions.h"
#include "keel/fsm/library.h"
#include "keel/pack/loader.h"
#include "keel/script/commands.h"
#include "keel/script/library.h"
#include "keel/script/machine.h"
#include "keel/world/bindings.h"
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
#include <deque>
#include <filesystem>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

namespace keel::voidfarer {

// The game's own components (declared in data/assets/citizen.kschema). Plain data without
// padding: the world tracks them (state hash, saves).
struct Health {
  f32 hp = 1;
  f32 armour = 0;  // taken off every hit (a hit does at least 1)
  f32 max = 1;     // hp at spawn
};
struct Score {
  f32 points = 0;  // added to the score when it is destroyed
};
// Absorbs damage before the hull; recharges `regen` per second up to `capacity`.
struct Shield {
  f32 charge = 0;
  f32 capacity = 0;
  f32 regen = 0;
  StringId sound;
};

// Citizen's difficulty: a harder level takes abilities away from the player (settings
// "difficulty"), it does not make enemies spongier: enemies are the same on every level.
enum class Difficulty : u8 { kEasy, kNormal, kHard };

// What the player's ship can do on a difficulty (Sim::abilities_for):
//   Easy:   reverse thrust, the gun as defined, hull regeneration 6 hp/s, a shield of 100
//           (recharging 10 per second) in front of the hull
//   Normal: reverse thrust, the gun as defined, hull regeneration 1.5 hp/s, no shield
//   Hard:   no reverse thrust, a gun half as fast (cooldown x2), no regeneration, no shield
struct Abilities {
  bool reverse = true;         // Controls::reverse does something
  f32 gun_cooldown_scale = 1;  // the player's gun cooldown is multiplied by this
  f32 hull_regen = 0;          // hp per second, up to the hull at spawn
  f32 shield = 0;              // shield capacity (0: none)
  f32 shield_regen = 0;        // per second
};

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

class Game;

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
  // The player's ship under Controls: thrust and reverse accelerate along the heading (units/s^2;
  // the body's linear damping caps the speed), left and right turn at kTurnRate (rad/s; left is
  // counter-clockwise, the angle grows).
  static constexpr f32 kThrust = 420;
  static constexpr f32 kReverseThrust = 210;
  static constexpr f32 kTurnRate = 4;
  static constexpr f32 kEnemyRange = 600;  // enemies are "in range" (AI events, fire) inside it

  static Abilities abilities_for(Difficulty difficulty);

  // Loads the pack, spawns the player and starts the "waves" chain.
  static Result<std::unique_ptr<Sim>> create(const std::filesystem::path& pack_path,
                                             const SimOptions& options = {});
  Sim(const Sim&) = delete;
  Sim& operator=(const Sim&) = delete;

  // One fixed frame of kDt: the player's controls, the enemies' AI (FSMs, scripts, fleets), guns,
  // steering, physics, lifetimes, particles, the flush (contacts -> damage, shots -> bullets,
  // kills -> explosions, score, sounds), regeneration, the chain. Profiler scopes: "sim" around
  // it, "sim.ai", "sim.steering", "sim.physics", "sim.particles", "sim.events" inside.
  // After the player's death the world runs on without it (Controls are ignored).
  Status step(const Controls& controls);
  // What the autopilot would press this frame: turn toward the nearest enemy (its lead point),
  // thrust when that heading is roughly ahead and the enemy far, back off (reverse, or turn away
  // on Hard) when it is close, fire when an enemy is in range and roughly in front.
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
  // Saving rebuilds the Box2D world from the saved state (world/physics.h: both the saving run
  // and a loading one continue from identical b2Worlds), hence not const.
  Status save(const std::filesystem::path& path);
  Status load_save(const std::filesystem::path& path);

  FrameSummary summary() const;
  const SimOptions& options() const { return options_; }
  const Abilities& abilities() const { return abilities_; }
  // The state of an entity's state machine ("" when it has none): AI tests and debugging.
  std::string_view ai_state(world::Entity entity) const;
  // World (entities and tracked components), Box2D bodies and live particles, combined.
  u64 state_hash() const;
  // Its three parts: world, physics, particles.
  std::array<u64, 3> hash_parts() const;

  // The running game's world (a quick-load replaces it: take it again after load_save).
  const world::World& world() const;
  const world::ParticleSystem& particles() const { return particles_; }
  world::Entity player() const;
  const pack::LoadedPack& pack() const { return *pack_; }
  // The bytes of an asset the simulation does not use itself (StringTable, Blob, TileMap, Mesh,
  // BSP: the view reads the HUD's StringTable "hud_text"), or an empty span when the pack has no
  // asset of that name and type.
  ByteSpan raw_asset(std::string_view name, std::string_view type) const;

  ~Sim();

 private:
  friend class Game;
  explicit Sim(const SimOptions& options);
  Status load(const std::filesystem::path& pack_path);

  // What every game of this Sim shares (loaded once from the pack): particle effects and their
  // pools (the live particles: a load stages them and puts them back last), entity definitions,
  // the waves chain, the FSMs, the scripts and the FSM functions. Declaration order matters: the
  // pack's effects live in particles_ (which must outlive it), the Machine borrows scripts_.
  world::ParticleSystem particles_{7};
  pack::Loader loader_;
  fsm::FsmLibrary fsms_;
  std::vector<std::unique_ptr<script::Library>> scripts_;
  std::deque<ByteSpan> raw_assets_;  // what the pack's other assets point to (stable addresses)
  std::optional<pack::LoadedPack> pack_;
  world::EntityDefs defs_;
  fsm::FunctionRegistry functions_;
  const world::ChainDef* waves_ = nullptr;
  SimOptions options_;
  Abilities abilities_;
  // Everything a frame changes (game.h): a quick-load builds a new one and swaps it in.
  std::unique_ptr<Game> game_;
};

}  // namespace keel::voidfarer
