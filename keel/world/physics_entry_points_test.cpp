// EntryPoints.Physics*: bad caller input returns an error or false and never crashes.
#include "keel/world/physics.h"

#include <gtest/gtest.h>

#include <cmath>

namespace keel::world {
namespace {

Physics make_entry_physics(PhysicsConfig config = {}) {
  auto filters = collision_filters(spatial::citizen_group_table());
  EXPECT_TRUE(filters.has_value());
  return Physics(std::move(config), *filters);
}

TEST(EntryPoints, PhysicsBodiesOfDeadEntities) {
  const Entity dead{7, 3};
  Physics p = make_entry_physics({.entity_alive = [&](Entity e) { return e != dead; }});
  auto st = p.add_body(dead, {});
  ASSERT_FALSE(st);
  EXPECT_EQ(st.error().code(), ErrorCode::kNotFound);
  EXPECT_FALSE(p.add_body(Entity{}, {}));             // null
  EXPECT_FALSE(p.add_body(Entity{1u << 30, 1}, {}));  // beyond the index table
  EXPECT_FALSE(p.has_body(dead));
  EXPECT_EQ(p.transform(dead), nullptr);
  EXPECT_EQ(p.interpolated(dead, 0.5f).position, Vec2{});
  EXPECT_FALSE(p.remove_body(dead));
  EXPECT_FALSE(p.steer(dead, {}));
  EXPECT_FALSE(p.clear_steering(dead));
  EXPECT_FALSE(p.apply_force(dead, {1, 0}));
  EXPECT_FALSE(p.apply_impulse(dead, {1, 0}));
  EXPECT_FALSE(p.set_transform(dead, {}));
  EXPECT_EQ(p.mass(dead), 0);
  EXPECT_EQ(p.inertia(dead), 0);
  // A body whose entity ended stays until removed; the same index with a new generation is
  // another entity.
  ASSERT_TRUE(p.add_body(Entity{7, 5}, {}));
  EXPECT_FALSE(p.has_body(Entity{7, 1}));
  EXPECT_FALSE(p.add_body(Entity{7, 5}, {}));  // twice
  EXPECT_TRUE(p.remove_body(Entity{7, 5}));
  EXPECT_FALSE(p.remove_body(Entity{7, 5}));
}

TEST(EntryPoints, PhysicsZeroSizesAndBadDefinitions) {
  Physics p = make_entry_physics();
  const Entity e{1, 1};
  auto refused = [&](BodyDef def) { return !p.add_body(e, def).has_value(); };
  BodyDef def;
  def.shape = ShapeDef::circle(0);
  EXPECT_TRUE(refused(def));
  def.shape = ShapeDef::circle(std::nanf(""));
  EXPECT_TRUE(refused(def));
  def.shape = ShapeDef::box(0, 5);
  EXPECT_TRUE(refused(def));
  def.shape = ShapeDef::polygon({});
  EXPECT_TRUE(refused(def));
  const Vec2 line[3] = {{0, 0}, {1, 0}, {2, 0}};
  def.shape = ShapeDef::polygon(line);
  EXPECT_TRUE(refused(def));
  const Vec2 clockwise[3] = {{0, 0}, {0, 4}, {4, 0}};
  def.shape = ShapeDef::polygon(clockwise);
  EXPECT_TRUE(refused(def));
  const Vec2 close[4] = {{0, 0}, {4, 0}, {4, 4}, {4.01f, 4.0f}};
  def.shape = ShapeDef::polygon(close);
  EXPECT_TRUE(refused(def));
  def.shape = ShapeDef::circle(1);
  def.density = -1;
  EXPECT_TRUE(refused(def));
  def.density = 1;
  def.linear_damping = std::nanf("");
  EXPECT_TRUE(refused(def));
  def.linear_damping = 0;
  def.start.velocity.x = INFINITY;
  EXPECT_TRUE(refused(def));
  def.start.velocity.x = 0;
  def.type = static_cast<BodyType>(9);
  EXPECT_TRUE(refused(def));
  def.type = BodyType::kDynamic;
  EXPECT_FALSE(refused(def));
  EXPECT_EQ(p.body_count(), 1u);
}

TEST(EntryPoints, PhysicsTooManyGroups) {
  spatial::GroupTable table;
  table.allow(0, 31);
  auto filters = collision_filters(table);
  ASSERT_FALSE(filters);
  EXPECT_EQ(filters.error().code(), ErrorCode::kOutOfRange);
  Physics p = make_entry_physics();
  BodyDef def;
  def.group = 16;
  auto st = p.add_body(Entity{1, 1}, def);
  ASSERT_FALSE(st);
  EXPECT_EQ(st.error().code(), ErrorCode::kOutOfRange);
}

TEST(EntryPoints, PhysicsTurretsAndCommands) {
  Physics p = make_entry_physics();
  const Entity ship{1, 1}, gun{2, 1}, nobody{3, 1};
  ASSERT_TRUE(p.add_body(ship, {}));
  ASSERT_TRUE(p.add_body(gun, {}));
  EXPECT_FALSE(p.attach_turret(gun, nobody, {}));
  EXPECT_FALSE(p.attach_turret(nobody, ship, {}));
  EXPECT_FALSE(p.attach_turret(ship, ship, {}));
  EXPECT_FALSE(p.attach_turret(gun, ship, {.max_motor_torque = -1}));
  EXPECT_FALSE(
      p.attach_turret(gun, ship, {.limit_angle = true, .lower_angle = 1, .upper_angle = 0}));
  ASSERT_TRUE(p.attach_turret(gun, ship, {}));
  EXPECT_FALSE(p.attach_turret(gun, ship, {}));  // twice
  EXPECT_FALSE(p.set_turret_motor(nobody, 1, 1));
  EXPECT_FALSE(p.set_turret_motor(gun, std::nanf(""), 1));
  EXPECT_FALSE(p.detach_turret(nobody));
  SteeringCommand c;
  c.desired_velocity.x = std::nanf("");
  EXPECT_FALSE(p.steer(ship, c));
  c.desired_velocity.x = 0;
  c.limits.max_force = -1;
  EXPECT_FALSE(p.steer(ship, c));
  EXPECT_FALSE(p.apply_force(ship, {INFINITY, 0}));
  Transform bad;
  bad.position.x = std::nanf("");
  EXPECT_FALSE(p.set_transform(ship, bad));
  EXPECT_EQ(p.advance(std::nan("")), 0u);
  EXPECT_EQ(p.advance(-5), 0u);
  p.step();  // still fine
  EXPECT_EQ(p.steps(), 1u);
}

}  // namespace
}  // namespace keel::world
