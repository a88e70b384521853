#include "keel/world/physics_steering.h"

#include <algorithm>
#include <cmath>

namespace keel::world {

SteeringForce steering_force(const Transform& state, f32 mass, f32 inertia,
                             const SteeringCommand& command, f32 dt) {
  SteeringForce out;
  const SteeringLimits& lim = command.limits;
  const bool usable = std::isfinite(mass) && mass > 0 && std::isfinite(dt) && dt > 0 &&
                      std::isfinite(lim.max_force) && lim.max_force >= 0;
  if (!usable) return out;
  const f32 tv = std::max(std::isfinite(lim.velocity_time) ? lim.velocity_time : 0.0f, dt);
  const Vec2 error = command.desired_velocity - state.velocity;
  const Vec2 force = error * (mass / tv);
  if (std::isfinite(force.x) && std::isfinite(force.y))
    out.force = clamp_length(force, lim.max_force);

  const bool turn = command.steer_heading && std::isfinite(inertia) && inertia > 0 &&
                    std::isfinite(lim.max_torque) && lim.max_torque >= 0 &&
                    std::isfinite(command.desired_heading) && std::isfinite(state.angle);
  if (!turn) return out;
  const f32 th = std::max(std::isfinite(lim.heading_time) ? lim.heading_time : 0.0f, dt);
  const f32 wanted_w = angle_difference(state.angle, command.desired_heading) / th;
  const f32 torque = (wanted_w - state.angular_velocity) * (inertia / th);
  if (std::isfinite(torque)) out.torque = std::clamp(torque, -lim.max_torque, lim.max_torque);
  return out;
}

}  // namespace keel::world
