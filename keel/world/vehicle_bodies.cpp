#include "keel/world/vehicle_bodies.h"

#include "keel/world/physics_world.h"
#include "keel/world/steering_system.h"
#include "keel/world/world.h"

#include <algorithm>
#include <numbers>

namespace keel::world {

SteeringCommand steering_command(const Vehicle& v, f32 mass, f32 inertia) {
  const f32 accel = std::max(v.motion.accel_rate, 1e-3f);
  const f32 turn = std::max(v.motion.turn_rate, 1e-3f);
  SteeringCommand c;
  c.desired_velocity = v.desired_velocity;
  c.desired_heading = v.desired_heading;
  c.steer_heading = true;
  c.limits.velocity_time = 1 / accel;
  c.limits.heading_time = 1 / turn;
  c.limits.max_force = std::min(mass * v.motion.max_speed * accel, kMaxForce);
  c.limits.max_torque = std::min(inertia * std::numbers::pi_v<f32> * turn * turn, kMaxForce);
  return c;
}

u32 drive_bodies(World& world, PhysicsSystem& physics) {
  ComponentStore<Vehicle>& vehicles = world.store<Vehicle>();
  const ComponentStore<Body>& bodies = world.store<Body>();
  Physics& p = physics.physics();
  u32 steered = 0;
  for (u32 d = 0; d < vehicles.size(); ++d) {
    const Entity e = vehicles.entities()[d];
    if (!bodies.contains(e) || !p.has_body(e)) continue;
    Vehicle& v = vehicles.at_dense(d);
    v.drive_transform = false;
    if (p.steer(e, steering_command(v, p.mass(e), p.inertia(e)))) ++steered;
  }
  return steered;
}

}  // namespace keel::world
