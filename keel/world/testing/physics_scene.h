// A scripted fight for Physics tests and benchmarks: two fleets of ships (circles and boxes) with
// turrets, steering toward points that move with the step number, shots spawned and removed on a
// schedule, shots removed when they hit (the game's reaction to contact events) and ships
// killed at fixed steps. Every action is a function of the step number and the Physics state,
// so a run restored from a save continues with the same calls. Entities are minted from fixed
// numbers (generation 1): the scene needs no entity manager.
#pragma once

#include "keel/core/assert.h"
#include "keel/core/types.h"
#include "keel/world/physics.h"

#include <cmath>

namespace keel::world::testing {

struct FightOptions {
  u32 ships_per_side = 12;
  Vec2 perturb{};  // added to the first ship's start position
};

inline Entity ship_entity(u32 i) { return Entity{i, 1}; }
inline Entity turret_entity(u32 i) { return Entity{10'000 + i, 1}; }
inline Entity shot_entity(u64 n) { return Entity{static_cast<u32>(20'000 + n), 1}; }

namespace fight_detail {

constexpr u64 kShotEvery = 7;   // steps between shots
constexpr u64 kShotLife = 90;   // steps a shot lives unless it hits
constexpr u64 kKillEvery = 97;  // a ship dies every so many steps

inline bool is_shot(Entity e) { return e.index >= 20'000; }
inline bool is_ship(Entity e) { return e.index < 10'000; }

}  // namespace fight_detail

// Adds the fleets (ships, then turrets attached to them).
inline void setup_fight(Physics& physics, const FightOptions& options = {}) {
  const u32 n = options.ships_per_side;
  for (u32 i = 0; i < 2 * n; ++i) {
    const bool ally = i < n;
    const f32 row = static_cast<f32>(i % n);
    BodyDef def;
    def.group = ally ? spatial::kAllies : spatial::kEnemies;
    def.shape = ally ? ShapeDef::circle(10) : ShapeDef::box(9, 6);
    def.linear_damping = 0.1f;
    def.angular_damping = 0.5f;
    def.start.position = {ally ? -300.0f : 300.0f, (row - static_cast<f32>(n) / 2) * 40};
    def.start.angle = ally ? 0.0f : 3.14159265f;
    if (i == 0) def.start.position += options.perturb;
    [[maybe_unused]] const bool ship_ok = physics.add_body(ship_entity(i), def).has_value();
    KEEL_ASSERT(ship_ok, "fight: ship");
    BodyDef gun;
    gun.group = def.group;
    gun.shape = ShapeDef::circle(3);
    gun.density = 0.5f;
    gun.start.position = def.start.position;
    gun.start.angle = def.start.angle;
    [[maybe_unused]] const bool gun_ok = physics.add_body(turret_entity(i), gun).has_value();
    KEEL_ASSERT(gun_ok, "fight: turret");
    TurretDef mount;
    mount.max_motor_torque = 2000;
    mount.motor_speed = ally ? 1.0f : -1.0f;
    [[maybe_unused]] const bool mount_ok =
        physics.attach_turret(turret_entity(i), ship_entity(i), mount).has_value();
    KEEL_ASSERT(mount_ok, "fight: mount");
  }
}

// The game's part of one step: reacts to the last delivery of contacts, kills, spawns, steers.
// Call before each physics.step().
inline void drive_fight(Physics& physics, const FightOptions& options = {}) {
  const u64 step = physics.steps();
  const u32 n = options.ships_per_side;
  // Shots that hit a ship end (after the step that reported it, never inside Box2D).
  for (const ContactEvent& e : physics.contacts()) {
    if (e.phase != ContactPhase::kBegin) continue;
    if (fight_detail::is_shot(e.a) && fight_detail::is_ship(e.b)) physics.remove_body(e.a);
    if (fight_detail::is_shot(e.b) && fight_detail::is_ship(e.a)) physics.remove_body(e.b);
  }
  if (step >= fight_detail::kShotLife && step % fight_detail::kShotEvery == 0)
    physics.remove_body(shot_entity(step / fight_detail::kShotEvery -
                                    fight_detail::kShotLife / fight_detail::kShotEvery));
  if (step > 0 && step % fight_detail::kKillEvery == 0) {
    const u32 victim = static_cast<u32>((step / fight_detail::kKillEvery * 5) % (2 * n));
    physics.remove_body(turret_entity(victim));
    physics.remove_body(ship_entity(victim));
  }
  if (step % fight_detail::kShotEvery == 0) {
    const u32 shooter = static_cast<u32>((step / fight_detail::kShotEvery) % (2 * n));
    if (const Transform* t = physics.transform(ship_entity(shooter))) {
      const bool ally = shooter < n;
      BodyDef shot;
      shot.group = ally ? spatial::kAlliedFire : spatial::kEnemyFire;
      shot.shape = ShapeDef::circle(1.5f);
      shot.bullet = true;
      shot.density = 0.2f;
      const Vec2 dir = spatial::from_angle(t->angle);
      shot.start.position = t->position + dir * 16;
      shot.start.velocity = t->velocity + dir * 400;
      shot.start.angle = t->angle;
      (void)physics.add_body(shot_entity(step / fight_detail::kShotEvery), shot);
    }
  }
  if (step % 10 == 0) {
    const f32 s = static_cast<f32>(step) * 0.01f;
    for (u32 i = 0; i < 2 * n; ++i) {
      const Transform* t = physics.transform(ship_entity(i));
      if (t == nullptr) continue;
      const bool ally = i < n;
      const Vec2 goal = Vec2{std::cos(s + static_cast<f32>(i)), std::sin(s * 1.3f)} * 120 +
                        Vec2{ally ? 60.0f : -60.0f, 0};
      SteeringCommand c;
      c.desired_velocity = clamp_length(goal - t->position, 80);
      c.desired_heading = angle_of(c.desired_velocity);
      c.limits = {.max_force = 4000, .max_torque = 40000};
      physics.steer(ship_entity(i), c);
    }
  }
}

}  // namespace keel::world::testing
