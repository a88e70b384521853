// Steering as forces (Citizen's dev blog, after the move to Box2D): the steering behaviours say
// where a body wants to go (a desired velocity and heading); this controller turns that into a
// force and a torque within limits, so behaviours never set velocities directly.
//
//   SteeringForce f = steering_force(body_state, mass, inertia, command, dt);
//   // f.force, f.torque: apply for one step of dt
//
// The force closes the velocity error in `velocity_time` seconds (at least one step): applied
// for one step it brings the velocity at most all the way to the desired one, never past it, so
// a fixed step cannot overshoot (a proportional controller with gain mass / max(T, dt)). The
// torque does the same for the angular velocity that would close the heading error (along the
// shorter arc) in `heading_time`: it aims at error / heading_time and so slows down as the
// heading arrives. Both are clamped to the limits (the force by length).
#pragma once

#include "keel/core/types.h"
#include "keel/world/motion.h"  // angle_difference
#include "keel/world/physics_types.h"
#include "keel/world/transform.h"

namespace keel::world {

struct SteeringForce {
  Vec2 force;      // kg * units / s^2
  f32 torque = 0;  // kg * units^2 / s^2
};

// `state` is the body now (velocity, angle, angular velocity), `mass` in kg and `inertia` in
// kg * units^2 about the centre of mass, dt > 0 the step. Non-finite or negative inputs give a
// zero force.
SteeringForce steering_force(const Transform& state, f32 mass, f32 inertia,
                             const SteeringCommand& command, f32 dt);

}  // namespace keel::world
