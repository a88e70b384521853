// The steering -> physics bridge: vehicles that have a Body steer it with forces.
//
//   each frame:  steering.update(world, dt);        // desired velocities and headings
//                drive_bodies(world, physics);      // -> the bodies' steering commands
//                physics.update(dt);                // forces and torques at every fixed step
//
// For every entity with a Vehicle and a Body (whose b2Body exists), drive_bodies hands the
// vehicle's desired_velocity and desired_heading to PhysicsSystem's steering command
// (physics_steering.h turns it into a force and a torque) and clears the vehicle's
// drive_transform, so the motion model no longer moves that Transform (physics writes it). The
// limits come from the vehicle's motion parameters and the body's mass and inertia: the force
// reaches max_speed in about 1/accel_rate seconds, the torque closes a heading error in about
// 1/turn_rate seconds.
#pragma once

#include "keel/core/types.h"
#include "keel/world/physics_types.h"

namespace keel::world {

class World;
class PhysicsSystem;
struct Vehicle;

// The steering command for one vehicle on a body of `mass` (kg) and `inertia` (kg * units^2).
SteeringCommand steering_command(const Vehicle& vehicle, f32 mass, f32 inertia);

// Returns the number of bodies steered.
u32 drive_bodies(World& world, PhysicsSystem& physics);

}  // namespace keel::world
