// keel::world::Physics against raw Box2D 2.4 on the same scene, in the same run.
//
// Scene: 2,000 dynamic bodies (circles and boxes, two collision groups that collide with each
// other and themselves) in a walled arena, each steered toward a swirl around the centre, so
// bodies keep moving and touching. One iteration is 60 fixed steps of a fresh scene (built with
// the timer paused). Keel's side: a World whose entities have Body components, driven by
// PhysicsSystem::update(fixed step) — Body/b2Body matching, the steering force of each body's
// standing command, b2World::Step, transforms read back and written to the Transform
// components, contact events queued and emitted as World events (flushed each step). The raw side
// does the same work by hand: the same b2BodyDefs in the same order, the same controller's force
// per body (ApplyForceToCenter/ApplyTorque), Step, positions read into an array, and a contact
// listener that queues begin/end pairs. Both sides end in the same state (checked once).
#include "bench_support.h"
#include "keel/world/physics.h"
#include "keel/world/physics_steering.h"
#include "keel/world/physics_world.h"
#include "keel/world/world.h"

#include <box2d/box2d.h>

#include <cmath>
#include <cstdio>
#include <vector>

namespace {

using namespace keel;
using namespace keel::world;

constexpr u32 kBodies = 2000;
constexpr int kStepsPerIteration = 60;
constexpr f32 kDt = 1.0f / 60;
constexpr f32 kArena = 400;  // half size, units

struct SceneBody {
  BodyDef def;
  SteeringCommand steer;
};

std::vector<SceneBody> scene() {
  std::vector<SceneBody> out;
  const u32 side = 45;
  for (u32 i = 0; i < kBodies; ++i) {
    SceneBody b;
    b.def.group = static_cast<spatial::GroupId>(i % 2);
    b.def.shape = i % 3 == 0 ? ShapeDef::box(4, 3) : ShapeDef::circle(4);
    b.def.linear_damping = 0.05f;
    b.def.angular_damping = 0.2f;
    const f32 x = (static_cast<f32>(i % side) - side / 2.0f) * 9;
    const f32 y = (static_cast<f32>(i / side) - side / 2.0f) * 9;
    b.def.start.position = {x, y};
    const Vec2 swirl = spatial::perp(spatial::normalized(Vec2{x, y} + Vec2{0.5f, 0.25f})) * 60;
    b.steer.desired_velocity = swirl - Vec2{x, y} * 0.05f;
    b.steer.desired_heading = spatial::angle_of(b.steer.desired_velocity);
    b.steer.limits = {.max_force = 3000, .max_torque = 30000};
    out.push_back(b);
  }
  return out;
}

spatial::GroupTable table() {
  spatial::GroupTable t;
  t.allow(0, 0);
  t.allow(0, 1);
  t.allow(1, 1);
  t.allow(0, 2);
  t.allow(1, 2);
  return t;
}

std::vector<BodyDef> walls() {
  std::vector<BodyDef> out;
  const Vec2 at[4] = {{kArena, 0}, {-kArena, 0}, {0, kArena}, {0, -kArena}};
  for (int i = 0; i < 4; ++i) {
    BodyDef w;
    w.type = BodyType::kStatic;
    w.group = 2;
    w.shape = i < 2 ? ShapeDef::box(10, kArena) : ShapeDef::box(kArena, 10);
    w.start.position = at[i];
    out.push_back(w);
  }
  return out;
}

// --- Keel -------------------------------------------------------------------------------------

struct KeelScene {
  World world;
  PhysicsSystem physics{world, PhysicsConfig{}, *collision_filters(table())};
  u64 contacts = 0;
};

std::unique_ptr<KeelScene> keel_scene(const std::vector<SceneBody>& bodies) {
  auto s = std::make_unique<KeelScene>();
  for (const BodyDef& w : walls()) (void)s->physics.add(s->world.create(), w);
  for (const SceneBody& b : bodies) {
    const Entity e = s->world.create();
    (void)s->physics.add(e, b.def);
    s->physics.physics().steer(e, b.steer);
  }
  s->world.on<ContactEvent>([p = s.get()](World&, const ContactEvent&) { ++p->contacts; });
  return s;
}

void keel_step(KeelScene& s) {
  s.physics.update(kDt);
  s.world.flush();
}

// --- raw Box2D --------------------------------------------------------------------------------

struct RawQueue : b2ContactListener {
  struct Event {
    uintptr_t a, b;
    bool begin;
  };
  std::vector<Event> events;
  void BeginContact(b2Contact* c) override { push(c, true); }
  void EndContact(b2Contact* c) override { push(c, false); }
  void push(b2Contact* c, bool begin) {
    events.push_back({c->GetFixtureA()->GetBody()->GetUserData().pointer,
                      c->GetFixtureB()->GetBody()->GetUserData().pointer, begin});
  }
};

struct RawScene {
  std::unique_ptr<b2World> world;
  RawQueue queue;
  std::vector<b2Body*> bodies;
  std::vector<SteeringCommand> steer;
  std::vector<Transform> transforms;
};

b2Body* raw_body(b2World& world, const BodyDef& def, u16 mask) {
  constexpr f32 k = kMetresPerUnit;
  b2BodyDef bd;
  bd.type = def.type == BodyType::kStatic ? b2_staticBody : b2_dynamicBody;
  bd.position.Set(def.start.position.x * k, def.start.position.y * k);
  bd.angle = def.start.angle;
  bd.linearDamping = def.linear_damping;
  bd.angularDamping = def.angular_damping;
  b2Body* body = world.CreateBody(&bd);
  b2CircleShape circle;
  b2PolygonShape polygon;
  b2FixtureDef fd;
  if (def.shape.kind == ShapeKind::kCircle) {
    circle.m_radius = def.shape.radius * k;
    fd.shape = &circle;
  } else {
    b2Vec2 v[kMaxPolygonVertices];
    for (u32 i = 0; i < def.shape.vertex_count; ++i)
      v[i].Set(def.shape.vertices[i].x * k, def.shape.vertices[i].y * k);
    polygon.Set(v, def.shape.vertex_count);
    fd.shape = &polygon;
  }
  fd.density = def.density / (k * k);
  fd.friction = def.friction;
  fd.filter.categoryBits = static_cast<u16>(1u << def.group);
  fd.filter.maskBits = mask;
  body->CreateFixture(&fd);
  return body;
}

std::unique_ptr<RawScene> raw_scene(const std::vector<SceneBody>& bodies) {
  auto s = std::make_unique<RawScene>();
  s->world = std::make_unique<b2World>(b2Vec2(0, 0));
  s->world->SetContactListener(&s->queue);
  const CollisionFilters filters = *collision_filters(table());
  for (const BodyDef& w : walls()) raw_body(*s->world, w, filters.mask[w.group]);
  for (const SceneBody& b : bodies) {
    s->bodies.push_back(raw_body(*s->world, b.def, filters.mask[b.def.group]));
    s->steer.push_back(b.steer);
  }
  s->transforms.resize(bodies.size());
  return s;
}

void raw_step(RawScene& s) {
  constexpr f32 k = kMetresPerUnit;
  for (usize i = 0; i < s.bodies.size(); ++i) {
    b2Body* b = s.bodies[i];
    Transform t;
    t.angle = b->GetAngle();
    t.velocity = {b->GetLinearVelocity().x / k, b->GetLinearVelocity().y / k};
    t.angular_velocity = b->GetAngularVelocity();
    const f32 inertia =
        (b->GetInertia() - b->GetMass() * b->GetLocalCenter().LengthSquared()) / (k * k);
    const SteeringForce f = steering_force(t, b->GetMass(), inertia, s.steer[i], kDt);
    b->ApplyForceToCenter(b2Vec2(f.force.x * k, f.force.y * k), true);
    b->ApplyTorque(f.torque * k * k, true);
  }
  s.queue.events.clear();
  s.world->Step(kDt, 8, 3);
  for (usize i = 0; i < s.bodies.size(); ++i) {
    const b2Body* b = s.bodies[i];
    Transform& t = s.transforms[i];
    t.position = {b->GetPosition().x / k, b->GetPosition().y / k};
    t.angle = b->GetAngle();
    t.velocity = {b->GetLinearVelocity().x / k, b->GetLinearVelocity().y / k};
    t.angular_velocity = b->GetAngularVelocity();
  }
}

void BM_KeelPhysics2000(benchmark::State& state) {
  const std::vector<SceneBody> bodies = scene();
  u64 contacts = 0;
  for (auto _ : state) {
    state.PauseTiming();
    auto p = keel_scene(bodies);
    state.ResumeTiming();
    for (int i = 0; i < kStepsPerIteration; ++i) keel_step(*p);
    contacts += p->contacts;
    benchmark::DoNotOptimize(p->world.store<Transform>().components().data());
    state.PauseTiming();
    p.reset();
    state.ResumeTiming();
  }
  state.counters["contact_events"] = static_cast<double>(contacts) / state.iterations();
}
BENCHMARK(BM_KeelPhysics2000)->Unit(benchmark::kMillisecond);

void BM_RawBox2d2000(benchmark::State& state) {
  const std::vector<SceneBody> bodies = scene();
  u64 contacts = 0;
  for (auto _ : state) {
    state.PauseTiming();
    auto s = raw_scene(bodies);
    state.ResumeTiming();
    for (int i = 0; i < kStepsPerIteration; ++i) {
      raw_step(*s);
      contacts += s->queue.events.size();
    }
    benchmark::DoNotOptimize(s->transforms.data());
    state.PauseTiming();
    s.reset();
    state.ResumeTiming();
  }
  state.counters["contact_events"] = static_cast<double>(contacts) / state.iterations();
}
BENCHMARK(BM_RawBox2d2000)->Unit(benchmark::kMillisecond);

KEEL_BENCH_RATIO("physics: 2,000 Box2D bodies stepped through Body components vs raw Box2D",
                 "BM_KeelPhysics2000", "BM_RawBox2d2000");

// Both sides do the same work: the same final positions after 60 steps (printed, not timed).
[[maybe_unused]] const bool kChecked = [] {
  const std::vector<SceneBody> bodies = scene();
  auto p = keel_scene(bodies);
  auto s = raw_scene(bodies);
  for (int i = 0; i < kStepsPerIteration; ++i) {
    keel_step(*p);
    raw_step(*s);
  }
  usize differ = 0;
  for (usize i = 0; i < bodies.size(); ++i) {
    if (p->physics.physics().transforms()[i + 4].position != s->transforms[i].position) ++differ;
  }
  std::fprintf(stderr, "physics bench: %zu of %zu bodies differ between the sides\n", differ,
               bodies.size());
  return true;
}();

}  // namespace

KEEL_BENCH_MAIN()
