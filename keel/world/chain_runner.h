// Runs an event chain (chain.h) against a World: the current step's start actions run when it
// begins; each update() checks its end condition, and when it holds the end actions run and the
// next step begins (several steps may pass in one update when their conditions already hold).
//
//   world::ChainRunner waves(world, registry, defs);
//   waves.on_call("boss_music", [&] { music.play("boss"); });
//   waves.set_placer([&](const ChainAction&, u32 i, u32 n) { return ring_around(player, i, n); });
//   if (Status s = waves.start(*world::find_chain(pack, "waves")); !s) { ... }
//   each frame: waves.update(dt); ... world.flush();
//
// Dead(n) counts the entities the step's Spawn actions made that are dead or dying (killed,
// ending at the next flush); Dead(all) holds when every one of them is. The chain is borrowed
// and must outlive the runner's use of it.
#pragma once

#include "keel/core/error.h"
#include "keel/core/types.h"
#include "keel/world/chain.h"
#include "keel/world/defs_spawn.h"

#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

namespace keel::world {

class ChainRunner {
 public:
  // Where the i-th of n entities of a Spawn goes. The default: the action's position (or the
  // origin), on a ring of the action's spread radius.
  using Placer = std::function<Vec2(const ChainAction& action, u32 index, u32 count)>;

  ChainRunner(World& world, const SpawnRegistry& registry, const EntityDefs& defs);

  void set_placer(Placer placer);
  // Game functions for Call("name") actions and Check("name") conditions.
  void on_call(std::string_view name, std::function<void()> fn);
  void on_check(std::string_view name, std::function<bool()> fn);

  // Checks the chain first (every Spawn's definition is loaded and buildable, every Call and
  // Check registered: kNotFound naming each missing one), then begins step 0.
  Status start(const ChainDef& chain);
  // Advances time; ends steps whose condition holds. A failed Spawn is returned (the chain stays
  // on its step). Does nothing before start() or after the last step.
  Status update(f32 dt);

  // Save games: where the runner is (the step, its time, what it spawned), and resume(), which
  // puts a runner back there without running any action (start()'s checks first; a step past
  // the end, or a step time that is negative or not finite, is kInvalidArgument).
  struct Progress {
    usize step = 0;
    f32 step_time = 0;
    std::vector<Entity> spawned;
  };
  Progress progress() const { return {step_, step_time_, spawned_}; }
  Status resume(const ChainDef& chain, Progress progress);

  bool running() const { return chain_ != nullptr && step_ < chain_->steps.size(); }
  bool finished() const { return chain_ != nullptr && step_ >= chain_->steps.size(); }
  usize step() const { return step_; }                             // index of the current step
  const std::vector<Entity>& spawned() const { return spawned_; }  // by the current step
  u32 dead() const;                                                // of spawned(): dead or dying
  f32 step_time() const { return step_time_; }

 private:
  Status run_actions(const std::vector<ChainAction>& actions);
  Status begin_step();
  bool condition_holds() const;
  Status check(const ChainDef& chain) const;

  World& world_;
  const SpawnRegistry& registry_;
  const EntityDefs& defs_;
  Placer placer_;
  std::unordered_map<std::string, std::function<void()>> calls_;
  std::unordered_map<std::string, std::function<bool()>> checks_;
  const ChainDef* chain_ = nullptr;
  usize step_ = 0;
  f32 step_time_ = 0;
  std::vector<Entity> spawned_;
};

}  // namespace keel::world
