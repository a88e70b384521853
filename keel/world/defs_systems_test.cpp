// Spawning the systems' components (Body, Vehicle, Emitter) from definitions, and the steering ->
// physics bridge (vehicle_bodies.h).
#include "keel/world/defs_spawn.h"
#include "keel/world/particles.h"
#include "keel/world/physics_world.h"
#include "keel/world/steering_system.h"
#include "keel/world/vehicle_bodies.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>

namespace keel::world {
namespace {

template <typename T>
T& systems_must(T* p) {
  if (p == nullptr) std::abort();
  return *p;
}

ComponentDef systems_component(std::string name, Params params) {
  return ComponentDef{.name = std::move(name), .params = std::move(params)};
}

// data/world.kcmd's fighter, as the Entity handler compiles it.
EntityDef systems_fighter() {
  Params body;
  body.set_number("radius", 12).set_number("mass", 3).set_number("damping", 0.5);
  body.set_number("angular_damping", 2).set_number("group", 1);
  Params vehicle;
  vehicle.set_number("max_speed", 160).set_number("turn_rate", 6).set_number("accel_rate", 3);
  vehicle.set_text("mode", "reckless").set_number("seek", 1).set_number("cohesion", 0.6);
  vehicle.set_number("separation", 1.4).set_number("neighbour_radius", 80);
  vehicle.set_number("separation_radius", 30).set_number("look_ahead", 90);
  Params emitter;
  emitter.set_text("name", "ship_trail").set_vec2("offset", {-12, 0});
  emitter.set_number("burst_on_shoot", 1);
  return EntityDef{
      .name = "fighter",
      .components = {systems_component("Body", body), systems_component("Vehicle", vehicle),
                     systems_component("Emitter", emitter)}};
}

class SystemComponents : public ::testing::Test {
 protected:
  SystemComponents() {
    EffectDef trail;
    trail.rate = 30;
    EXPECT_TRUE(particles.add_effect("ship_trail", trail));
    register_system_components(registry, particles);
    EXPECT_TRUE(defs.add(systems_fighter()));
  }
  World world;
  ParticleSystem particles{7};
  SpawnRegistry registry;
  EntityDefs defs;
};

TEST_F(SystemComponents, SpawningAFighterGivesItsBodyVehicleAndEmitterTheDataValues) {
  Result<Entity> e = spawn(world, registry, defs, "fighter", {100, 50}, 0.5f);
  ASSERT_TRUE(e) << e.error().message();
  const BodyDef& b = systems_must(world.get<Body>(*e)).def;
  EXPECT_EQ(b.shape.kind, ShapeKind::kCircle);
  EXPECT_FLOAT_EQ(b.shape.radius, 12);
  EXPECT_NEAR(b.density * 3.14159265f * 144, 3, 1e-4);  // mass 3 over the circle's area
  EXPECT_FLOAT_EQ(b.linear_damping, 0.5f);
  EXPECT_FLOAT_EQ(b.angular_damping, 2);
  EXPECT_EQ(b.group, 1);
  EXPECT_EQ(b.start.position, (Vec2{100, 50}));  // starts at the spawn position
  EXPECT_FLOAT_EQ(b.start.angle, 0.5f);
  const Vehicle& v = systems_must(world.get<Vehicle>(*e));
  EXPECT_FLOAT_EQ(v.motion.max_speed, 160);
  EXPECT_FLOAT_EQ(v.motion.turn_rate, 6);
  EXPECT_FLOAT_EQ(v.motion.accel_rate, 3);
  EXPECT_EQ(v.motion.mode, SpeedMode::kReckless);
  EXPECT_FLOAT_EQ(v.weights.seek, 1);
  EXPECT_FLOAT_EQ(v.weights.cohesion, 0.6f);
  EXPECT_FLOAT_EQ(v.weights.separation, 1.4f);
  EXPECT_FLOAT_EQ(v.neighbour_radius, 80);
  EXPECT_FLOAT_EQ(v.separation_radius, 30);
  EXPECT_FLOAT_EQ(v.look_ahead, 90);
  EXPECT_FALSE(v.drive_transform);  // Body came first: physics moves it
  const Emitter& em = systems_must(world.get<Emitter>(*e));
  EXPECT_EQ(em.effect, particles.find_effect("ship_trail"));
  EXPECT_EQ(em.offset, (Vec2{-12, 0}));
  EXPECT_TRUE(em.burst_on_shoot);
  EXPECT_TRUE(em.on);
}

TEST_F(SystemComponents, EntryPointsBadDataIsAnErrorNotACrash) {
  Params unknown_effect;
  unknown_effect.set_text("name", "nope");
  Params bad_shape;
  bad_shape.set_text("shape", "blob");
  Params bad_mode;
  bad_mode.set_text("mode", "sideways");
  ASSERT_TRUE(defs.add(
      EntityDef{.name = "a", .components = {systems_component("Emitter", unknown_effect)}}));
  ASSERT_TRUE(
      defs.add(EntityDef{.name = "b", .components = {systems_component("Body", bad_shape)}}));
  ASSERT_TRUE(
      defs.add(EntityDef{.name = "c", .components = {systems_component("Vehicle", bad_mode)}}));
  for (const char* name : {"a", "b", "c"}) {
    Result<Entity> e = spawn(world, registry, defs, name, {});
    EXPECT_FALSE(e) << name;
  }
}

TEST_F(SystemComponents, DriveBodiesSteersTheBodyTowardTheVehiclesDesiredVelocity) {
  PhysicsSystem physics(world, {.fixed_dt = 1.0f / 60},
                        *collision_filters(spatial::citizen_group_table()));
  Result<Entity> e = spawn(world, registry, defs, "fighter", {0, 0});
  ASSERT_TRUE(e);
  physics.update(0);  // makes the b2Body
  ASSERT_TRUE(physics.physics().has_body(*e));
  SteeringSystem steering;
  Vehicle& v = systems_must(world.get<Vehicle>(*e));
  v.target = {1000, 0};
  v.has_target = true;
  for (int frame = 0; frame < 120; ++frame) {
    steering.update(world, 1.0f / 60);
    EXPECT_EQ(drive_bodies(world, physics), 1u);
    physics.update(1.0 / 60);
    world.flush();
  }
  const Transform& t = systems_must(world.get<Transform>(*e));
  EXPECT_GT(t.position.x, 100);                 // it flew toward the target under forces
  EXPECT_GT(t.velocity.x, 100);                 // near its max speed of 160
  EXPECT_LE(spatial::length(t.velocity), 170);  // never much beyond it
  EXPECT_LT(std::abs(t.position.y), 5);         // straight
}

TEST(VehicleBodies, CommandLimitsFollowTheMotionParameters) {
  Vehicle v;
  v.motion.max_speed = 100;
  v.motion.accel_rate = 2;
  v.motion.turn_rate = 4;
  v.desired_velocity = {3, 4};
  v.desired_heading = 1;
  const SteeringCommand c = steering_command(v, 5, 10);
  EXPECT_EQ(c.desired_velocity, (Vec2{3, 4}));
  EXPECT_FLOAT_EQ(c.desired_heading, 1);
  EXPECT_FLOAT_EQ(c.limits.max_force, 5 * 100 * 2);
  EXPECT_FLOAT_EQ(c.limits.velocity_time, 0.5f);
  EXPECT_FLOAT_EQ(c.limits.heading_time, 0.25f);
  EXPECT_GT(c.limits.max_torque, 0);
}

}  // namespace
}  // namespace keel::world
