// keel::world::PhysicsState: everything Physics needs to rebuild its b2World, as a savable object
// for keel/save (physics.h: save_state() and restore()).
//
//   // once: the game's SaveSystem lists the class
//   save::SaveSystem saves({..., save::type<world::PhysicsState>()});
//   // save: the state is an object of the set (its bodies travel as its custom data)
//   std::unique_ptr<PhysicsState> state = physics.save_state();
//   file.declare_object(state.get());
//   // load: find it among the loaded objects
//   for (auto& object : file.take_objects())
//     if (auto* s = dynamic_cast<PhysicsState*>(object.get())) status = physics.restore(*s);
//
// The records are written as they are in memory (little-endian, 64-bit; the save format refuses
// other layouts) after a count each; restore() checks every value before it changes anything.
#pragma once

#include "keel/core/types.h"
#include "keel/save/save_object.h"
#include "keel/world/entity.h"
#include "keel/world/physics_types.h"
#include "keel/world/transform.h"

#include <vector>

namespace keel::world {

// The save id of PhysicsState; games keep their own ids away from it.
inline constexpr u32 kPhysicsStateSaveId = 0x4B570001;  // "KW" 1

struct PhysicsBodyRecord {
  Entity entity;
  BodyDef def;         // def.start: the body's transform at the save point
  Transform previous;  // the transform before the last step (interpolation)
  SteeringCommand steering;
  u8 steering_on = 0;
  u8 awake = 1;
};

struct PhysicsTurretRecord {
  Entity turret;
  Entity ship;
  TurretDef def;
  f32 reference_angle = 0;  // turret angle - ship angle at attachment
};

struct PhysicsContactRecord {
  Entity a;
  Entity b;
};

class PhysicsState : public save::SaveObject {
  KEEL_SAVABLE(PhysicsState, kPhysicsStateSaveId)

  f64 accumulator = 0;
  u64 steps = 0;
  std::vector<PhysicsBodyRecord> bodies;       // dense order of the Physics
  std::vector<PhysicsTurretRecord> turrets;    // attachment order
  std::vector<PhysicsContactRecord> touching;  // sorted, a < b

  // Every flag byte is 0 or 1 (load() checks this before anything reads the bools).
  Status check_flags() const;

  Status save(save::SaveFile& file) override;
  Status load(save::SaveFile& file) override;
};

}  // namespace keel::world
