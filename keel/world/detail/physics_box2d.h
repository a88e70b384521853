// Internals of keel::world::Physics: unit conversion, entity <-> Box2D user data, the contact
// queue that Box2D's callbacks fill, and the checks of definitions (also run on restored saves).
#pragma once

#include "keel/core/error.h"
#include "keel/core/types.h"
#include "keel/world/entity.h"
#include "keel/world/physics_types.h"

#include <box2d/b2_math.h>
#include <box2d/b2_world_callbacks.h>

#include <vector>

namespace keel::world::detail {

inline constexpr f32 kUnitsPerMetre = 1.0f / kMetresPerUnit;

inline b2Vec2 to_b2(Vec2 v) { return {v.x * kMetresPerUnit, v.y * kMetresPerUnit}; }
inline Vec2 from_b2(const b2Vec2& v) { return {v.x * kUnitsPerMetre, v.y * kUnitsPerMetre}; }

inline uintptr_t pack_entity(Entity e) { return (uintptr_t{e.index} << 32) | e.generation; }
inline Entity unpack_entity(uintptr_t bits) {
  return Entity{static_cast<u32>(bits >> 32), static_cast<u32>(bits & 0xFFFFFFFFu)};
}
inline bool entity_less(Entity a, Entity b) {
  return a.index != b.index ? a.index < b.index : a.generation < b.generation;
}

// Box2D calls these inside Step (and DestroyBody); they only append to the queue.
class ContactQueue final : public b2ContactListener {
 public:
  void BeginContact(b2Contact* contact) override { push(contact, ContactPhase::kBegin); }
  void EndContact(b2Contact* contact) override { push(contact, ContactPhase::kEnd); }

  std::vector<ContactEvent> pending;

 private:
  void push(b2Contact* contact, ContactPhase phase);
};

// Errors for bodies, turrets and commands that Box2D would assert on (or that make no sense).
Status check_body_def(const BodyDef& def);
Status check_transform(const Transform& t, const char* what);
Status check_turret_def(const TurretDef& def);
bool steering_is_finite(const SteeringCommand& command);
bool force_ok(Vec2 force, f32 torque);

}  // namespace keel::world::detail
