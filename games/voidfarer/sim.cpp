#include "sim.h"

#include "keel/assets/atlas.h"
#include "keel/assets/font.h"
#include "keel/assets/sound.h"
#include "keel/assets/texture.h"
#include "keel/core/hash.h"
#include "keel/spatial/group_culling.h"
#include "keel/world/components.h"
#include "keel/world/systems.h"
#include "keel/world/vehicle_bodies.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <numbers>
#include <string_view>
#include <utility>

namespace keel::voidfarer {
namespace {

using world::Entity;
using world::Vec2;

constexpr f32 kPlayerRange = 900;  // the player fires at enemies nearer than this
constexpr f32 kEnemyRange = 600;   // enemies fire at a player nearer than this
constexpr f32 kFleetDistance = 400;
constexpr f32 kFleeDistance = 350;   // the player runs from a fleet centre nearer than this
constexpr f32 kChaseDistance = 600;  // and chases the nearest enemy when it is farther

// Seconds spent in `fn`, added to `total`.
template <typename Fn>
void timed(f64& total, Fn&& fn) {
  const auto start = std::chrono::steady_clock::now();
  fn();
  total += std::chrono::duration<f64>(std::chrono::steady_clock::now() - start).count();
}

bool is_shot(const world::World& w, Entity e) {
  const world::Body* b = w.get<world::Body>(e);
  return b != nullptr &&
         (b->def.group == spatial::kAlliedFire || b->def.group == spatial::kEnemyFire);
}

}  // namespace

Sim::Sim(const SimOptions& options)
    : physics_(world_, {.fixed_dt = kDt},
               *world::collision_filters(spatial::citizen_group_table())),
      options_(options) {}

Result<std::unique_ptr<Sim>> Sim::create(const std::filesystem::path& pack_path,
                                         const SimOptions& options) {
  std::unique_ptr<Sim> scene(new Sim(options));
  if (Status st = scene->load(pack_path); !st) return Unexpected(st.error());
  return scene;
}

Status Sim::load(const std::filesystem::path& pack_path) {
  world::register_entity_def_type(loader_);
  world::register_chain_type(loader_);
  world::register_particle_effects(loader_, particles_);
  // Textures and fonts as views of their chunks (drawing, draw.h).
  loader_.register_type(
      pack::type_hash("Texture"),
      [](pack::SetupContext& ctx) -> Result<void*> {
        Result<assets::Texture> view = assets::Texture::view(ctx.primary());
        if (!view) return Unexpected(view.error());
        return static_cast<void*>(new assets::Texture(*view));
      },
      [](void* asset) { delete static_cast<assets::Texture*>(asset); });
  loader_.register_type(
      pack::type_hash("Font"),
      [](pack::SetupContext& ctx) -> Result<void*> {
        Result<assets::FontView> view = assets::FontView::parse(ctx.primary());
        if (!view) return Unexpected(view.error());
        return static_cast<void*>(new assets::FontView(*view));
      },
      [](void* asset) { delete static_cast<assets::FontView*>(asset); });
  assets::register_atlas_type(loader_);  // sprite atlases as AtlasViews (the view's frames)
  // Sounds as checked views of their chunks (the view's SoundPlayer hands them to the mixer).
  loader_.register_type(
      pack::type_hash("Sound"),
      [](pack::SetupContext& ctx) -> Result<void*> {
        Result<assets::SoundView> view = assets::SoundView::parse(ctx.primary());
        if (!view) return Unexpected(view.error());
        return static_cast<void*>(new assets::SoundView(*view));
      },
      [](void* asset) { delete static_cast<assets::SoundView*>(asset); });
  // The sample pack holds other asset types too: this program leaves them as raw chunks.
  for (const std::string_view other :
       {"Blob", "Script", "FSM", "StringTable", "TileMap", "Mesh", "BSP"}) {
    loader_.register_type(pack::type_hash(other), [](pack::SetupContext& ctx) -> Result<void*> {
      return static_cast<void*>(const_cast<std::byte*>(ctx.primary().data()));
    });
  }
  Result<pack::LoadedPack> pack = loader_.load(pack_path, {.load_names = true});
  if (!pack) return Unexpected(pack.error());
  pack_.emplace(std::move(*pack));
  if (Status st = defs_.add_pack(*pack_); !st) return st;
  const world::ChainDef* waves = world::find_chain(*pack_, "waves");
  if (waves == nullptr) return fail(ErrorCode::kNotFound, "the pack has no chain `waves`");

  register_components();
  connect_events();
  world_.track_state<Health>();
  world_.track_state<world::Vehicle>();
  world_.track_state<world::Emitter>();
  world_.track_state<world::Gun>();
  world_.track_state<world::Lifetime>();

  Result<Entity> player = world::spawn(world_, registry_, defs_, "player", {0, 0});
  if (!player) return Unexpected(player.error());
  player_ = *player;
  if (const Health* h = world_.get<Health>(player_)) hull_max_ = h->hp;
  chain_ = std::make_unique<world::ChainRunner>(world_, registry_, defs_);
  // Each wave arrives on a ring ahead of the player.
  chain_->set_placer([this](const world::ChainAction&, u32 index, u32 count) {
    const world::Transform* t = world_.get<world::Transform>(player_);
    const Vec2 centre = (t != nullptr ? t->position : Vec2{}) + Vec2{700, 0};
    const f32 angle = 2 * std::numbers::pi_v<f32> * static_cast<f32>(index) /
                      static_cast<f32>(std::max(count, 1u));
    return centre + spatial::from_angle(angle) * (40.0f + 8.0f * static_cast<f32>(count));
  });
  chain_->on_call("boss_music", [] {});
  chain_->on_call("victory", [] {});
  return chain_->start(*waves);
}

void Sim::register_components() {
  world::register_world_components(registry_);
  world::register_system_components(registry_, particles_);
  registry_.add<Health>("Health", [](const world::Params& p) {
    return Health{.hp = p.number("hp", 1), .armour = p.number("armour", 0)};
  });
  // Shields, scripts and state machines are not part of this scene: accepted and ignored.
  for (const std::string_view ignored : {"Shield", "Script", "Fsm"}) {
    registry_.add(ignored, [](world::World&, Entity, const world::Params&) { return ok(); });
  }
}

void Sim::connect_events() {
  world::connect_bullet_spawner(world_, registry_, defs_, &failed_shots_);
  world::connect_particle_bursts(world_);
  world_.on<world::ContactEvent>([this](world::World&, const world::ContactEvent& c) {
    if (c.phase == world::ContactPhase::kBegin) on_contact(c.a, c.b);
  });
}

void Sim::on_contact(Entity a, Entity b) {
  const bool a_shot = is_shot(world_, a);
  const bool b_shot = is_shot(world_, b);
  if (a_shot && !b_shot) hit(a, b);
  if (b_shot && !a_shot) hit(b, a);
}

void Sim::hit(Entity shot, Entity ship) {
  if (!world_.alive(shot) || world_.dying(shot)) return;  // spent on another ship this step
  world_.kill(shot);
  Health* h = world_.get<Health>(ship);
  if (h == nullptr || world_.dying(ship)) return;
  h->hp -= std::max(kBulletDamage - h->armour, 1.0f);
  if (h->hp > 0) return;
  world_.kill(ship);
  if (ship != player_) ++killed_;
  if (const world::Transform* t = world_.get<world::Transform>(ship)) burst(t->position);
}

Result<Entity> Sim::spawn(std::string_view definition, Vec2 at) {
  return world::spawn(world_, registry_, defs_, definition, at);
}

void Sim::burst(Vec2 at, std::string_view effect) {
  const Entity e = world_.create();
  world::Transform where;
  where.position = at;
  world_.create<world::Transform>(e, where);
  world::add_emitter(world_, e, particles_, runtime_id(effect));
  world_.create<world::Lifetime>(e, world::Lifetime{.remaining = 2, .kill_entity = true});
}

// The enemies (every entity with Health but the player) and their positions, in store order.
void Sim::find_enemies() {
  enemies_.clear();
  enemy_positions_.clear();
  const auto& healthy = world_.store<Health>().entities();
  for (const Entity e : healthy) {
    const world::Transform* t = world_.get<world::Transform>(e);
    if (e == player_ || t == nullptr || world_.dying(e)) continue;
    enemies_.push_back(e);
    enemy_positions_.push_back(t->position);
  }
}

// Skeleton: the player still moves by the old steering autopilot; `fire` pulls the trigger.
// TODO(voidfarer sim): thrust, reverse and turning from Controls on the player's body.
void Sim::apply_controls(const Controls& controls) {
  world::Vehicle* v = world_.get<world::Vehicle>(player_);
  const world::Transform* t = world_.get<world::Transform>(player_);
  world::Gun* gun = world_.get<world::Gun>(player_);
  if (v == nullptr || t == nullptr) return;
  // Away from the fleet's centre, facing (and firing at) the nearest enemy.
  v->weights = {};
  v->has_threat = !enemies_.empty();
  v->has_target = !enemies_.empty();
  if (enemies_.empty()) {
    if (gun != nullptr) gun->trigger = false;
    return;
  }
  v->threat = world::centre_of(enemy_positions_);
  usize nearest = 0;
  for (usize i = 1; i < enemy_positions_.size(); ++i) {
    if (spatial::length(enemy_positions_[i] - t->position) <
        spatial::length(enemy_positions_[nearest] - t->position)) {
      nearest = i;
    }
  }
  v->target = enemy_positions_[nearest];
  v->face_target = true;
  // Keeps the fleet at a fighting distance: runs from its centre when it is close, closes in on
  // the nearest enemy when everything is out of range.
  const f32 gap = spatial::length(v->target - t->position);
  v->weights.flee = spatial::length(v->threat - t->position) < kFleeDistance ? 1.0f : 0.0f;
  v->weights.seek = gap > kChaseDistance ? 1.0f : 0.0f;
  if (gun != nullptr) gun->trigger = controls.fire;
  (void)kPlayerRange;
}

Controls Sim::autopilot() const {
  Controls c;
  const world::Transform* t = world_.get<world::Transform>(player_);
  if (t == nullptr) return c;
  for (const Vec2 p : enemy_positions_) {
    if (spatial::length(p - t->position) < kPlayerRange) c.fire = true;
  }
  return c;
}

std::vector<SoundEvent> Sim::take_sounds() { return std::exchange(sounds_, {}); }

Status Sim::save(const std::filesystem::path&) const {
  return fail(ErrorCode::kUnsupported, "quick-save is not written yet");
}

Status Sim::load_save(const std::filesystem::path&) {
  return fail(ErrorCode::kUnsupported, "quick-load is not written yet");
}

// Every enemy seeks the point half a screen from the player (fleet_goal); their own weights add
// cohesion and separation. Guns fire while the player is in range.
void Sim::steer_fleet() {
  const world::Transform* pt = world_.get<world::Transform>(player_);
  if (pt == nullptr || enemies_.empty()) return;
  const Vec2 goal =
      world::fleet_goal(pt->position, world::centre_of(enemy_positions_), kFleetDistance);
  for (usize i = 0; i < enemies_.size(); ++i) {
    if (world::Vehicle* v = world_.get<world::Vehicle>(enemies_[i])) {
      v->target = goal;
      v->target_velocity = {};
      v->has_target = true;
    }
    if (world::Gun* gun = world_.get<world::Gun>(enemies_[i])) {
      gun->trigger = spatial::length(pt->position - enemy_positions_[i]) < kEnemyRange;
    }
  }
}

Status Sim::step(const Controls& controls) {
  find_enemies();
  apply_controls(controls);
  steer_fleet();
  world::tick_guns(world_, kDt);
  timed(times_.steering, [&] {
    steering_.update(world_, kDt);
    world::drive_bodies(world_, physics_);
  });
  timed(times_.physics, [&] { physics_.update(kDt); });
  world::tick_lifetimes(world_, kDt);
  timed(times_.particles, [&] { world::tick_particles(world_, particles_, kDt); });
  timed(times_.events, [&] { world_.flush(); });
  ++frame_;
  return chain_->running() ? chain_->update(kDt) : ok();
}

FrameSummary Sim::summary() const {
  FrameSummary s;
  s.frame = frame_;
  s.wave_step = chain_->step();
  s.chain_finished = chain_->finished();
  s.live_entities = world_.size();
  auto& w = const_cast<world::World&>(world_);  // store<C>() makes missing stores
  for (const Entity e : w.store<world::Body>().entities()) s.bullets += is_shot(world_, e) ? 1 : 0;
  s.enemies = w.store<Health>().size() - (world_.alive(player_) ? 1 : 0);
  s.killed = killed_;
  s.particles = particles_.live_count();
  s.score = u64{killed_} * 100;  // skeleton: 100 per kill
  s.player_alive = world_.alive(player_) && !world_.dying(player_);
  if (const Health* h = world_.get<Health>(player_)) s.hull = std::max(h->hp, 0.0f);
  s.hull_max = hull_max_;
  return s;
}

std::array<u64, 3> Sim::hash_parts() const {
  return {world_.state_hash(), physics_.physics().state_hash(), particles_.state_hash()};
}

u64 Sim::state_hash() const {
  const std::array<u64, 3> parts = hash_parts();
  return hash64(parts.data(), sizeof(parts));
}

}  // namespace keel::voidfarer
