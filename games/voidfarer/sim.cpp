#include "game.h"

#include "keel/assets/atlas.h"
#include "keel/assets/font.h"
#include "keel/assets/sound.h"
#include "keel/assets/texture.h"
#include "keel/core/hash.h"
#include "keel/fsm/compiled.h"
#include "keel/profile/profile.h"
#include "keel/spatial/group_culling.h"
#include "keel/world/components.h"
#include "keel/world/systems.h"
#include "keel/world/vehicle_bodies.h"

#include <algorithm>
#include <array>
#include <numbers>
#include <string_view>
#include <utility>

namespace keel::voidfarer {
namespace {

using world::Entity;
using world::Vec2;

constexpr f32 kPlayerRange = 800;    // the autopilot fires at enemies nearer than this
constexpr f32 kCloseDistance = 220;  // the autopilot backs off from an enemy nearer than this
constexpr f32 kChaseDistance = 420;  // and thrusts toward one farther than this
constexpr f32 kPlayerBulletSpeed = 900;
constexpr f32 kBulletDamage = Sim::kBulletDamage;
constexpr f32 kThrust = Sim::kThrust;
constexpr f32 kReverseThrust = Sim::kReverseThrust;
constexpr f32 kTurnRate = Sim::kTurnRate;
// Asset types the simulation does not set up itself: left as their raw bytes (Sim::raw_asset).
constexpr std::string_view kRawAssetTypes[] = {"Blob", "StringTable", "TileMap", "Mesh", "BSP"};

bool is_shot(const world::World& w, Entity e) {
  const world::Body* b = w.get<world::Body>(e);
  return b != nullptr &&
         (b->def.group == spatial::kAlliedFire || b->def.group == spatial::kEnemyFire);
}

}  // namespace

Sim::Sim(const SimOptions& options)
    : options_(options), abilities_(abilities_for(options.difficulty)) {}

Sim::~Sim() = default;

ByteSpan Sim::raw_asset(std::string_view name, std::string_view type) const {
  const pack::LoadedPack::Asset* asset = pack_->find_entry(string_hash(name));
  if (asset == nullptr || asset->type_hash != pack::type_hash(type) ||
      std::find(std::begin(kRawAssetTypes), std::end(kRawAssetTypes), type) ==
          std::end(kRawAssetTypes)) {
    return {};
  }
  return *static_cast<const ByteSpan*>(asset->asset);
}

Game::Game(Sim& sim)
    : options_(sim.options_),
      abilities_(sim.abilities_),
      particles_(sim.particles_),
      defs_(sim.defs_),
      fsms_(sim.fsms_),
      scripts_(sim.scripts_),
      functions_(sim.functions_),
      waves_(*sim.waves_),
      physics_(world_, {.fixed_dt = Sim::kDt},
               *world::collision_filters(spatial::citizen_group_table())) {}

Game::~Game() = default;

Abilities Sim::abilities_for(Difficulty difficulty) {
  switch (difficulty) {
    case Difficulty::kEasy:
      return {.reverse = true, .hull_regen = 6, .shield = 100, .shield_regen = 10};
    case Difficulty::kNormal: return {.reverse = true, .hull_regen = 1.5f};
    case Difficulty::kHard: return {.reverse = false, .gun_cooldown_scale = 2, .hull_regen = 0};
  }
  return {};
}

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
  // Textures and fonts as views of their chunks (the view draws them).
  assets::register_texture_type(loader_);
  assets::register_font_type(loader_);
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
  // The enemies' AI: compiled FSMs go into the library (linked below), script libraries into
  // scripts_ (the Machine borrows them).
  loader_.register_type(pack::type_hash("FSM"), [this](pack::SetupContext& ctx) -> Result<void*> {
    Result<fsm::CompiledFsms> image = fsm::CompiledFsms::from_bytes(ctx.primary());
    if (!image) return Unexpected(image.error());
    if (Status st = fsms_.add(std::move(*image)); !st) return Unexpected(st.error());
    return static_cast<void*>(&fsms_);
  });
  loader_.register_type(pack::type_hash("Script"),
                        [this](pack::SetupContext& ctx) -> Result<void*> {
                          Result<script::Library> lib = script::Library::from_bytes(ctx.primary());
                          if (!lib) return Unexpected(lib.error());
                          scripts_.push_back(std::make_unique<script::Library>(std::move(*lib)));
                          return static_cast<void*>(scripts_.back().get());
                        });
  // The pack may hold other asset types too: the simulation leaves them as raw chunks (the
  // asset's pointer is a ByteSpan in raw_assets_), read through raw_asset().
  for (const std::string_view other : kRawAssetTypes) {
    loader_.register_type(pack::type_hash(other), [this](pack::SetupContext& ctx) -> Result<void*> {
      raw_assets_.push_back(ctx.primary());
      return static_cast<void*>(&raw_assets_.back());
    });
  }
  Result<pack::LoadedPack> pack = loader_.load(pack_path, {.load_names = true});
  if (!pack) return Unexpected(pack.error());
  pack_.emplace(std::move(*pack));
  if (Status st = defs_.add_pack(*pack_); !st) return st;
  waves_ = world::find_chain(*pack_, "waves");
  if (waves_ == nullptr) return fail(ErrorCode::kNotFound, "the pack has no chain `waves`");
  if (Status st = fsms_.link(); !st) return st;
  if (Status st = world::FsmBindings::declare_functions(functions_); !st) return st;
  game_ = std::make_unique<Game>(*this);
  if (Status st = game_->init(); !st) return st;
  return game_->start();
}

// The AI's runtime objects, the components the pack's definitions use, the world's listeners
// and the tracked component types (state hash and saves).
Status Game::init() {
  fsm_env_ = std::make_unique<fsm::Environment>(functions_, options_.seed ^ 0xF5A1u);
  brains_ = std::make_unique<world::FsmBindings>(world_, fsms_, *fsm_env_);
  script_bindings_ = std::make_unique<world::ScriptBindings>(world_, registry_, defs_);
  if (Status st = script_bindings_->add_commands(commands_); !st) return st;
  vm_ = std::make_unique<script::Machine>(commands_);
  for (const std::unique_ptr<script::Library>& lib : scripts_) {
    if (Status st = vm_->add_library(*lib); !st) return st;
  }
  register_components();
  connect_events();
  world_.track_state<Health>();
  world_.track_state<Score>();
  world_.track_state<Shield>();
  world_.track_state<world::Vehicle>();
  world_.track_state<world::Emitter>();
  world_.track_state<world::Gun>();
  world_.track_state<world::Lifetime>();
  chain_ = std::make_unique<world::ChainRunner>(world_, registry_, defs_);
  // Each wave arrives on a ring ahead of the player.
  chain_->set_placer([this](const world::ChainAction&, u32 index, u32 count) {
    const Vec2 centre = player_last_ + Vec2{700, 0};
    const f32 angle = 2 * std::numbers::pi_v<f32> * static_cast<f32>(index) /
                      static_cast<f32>(std::max(count, 1u));
    return centre + spatial::from_angle(angle) * (40.0f + 8.0f * static_cast<f32>(count));
  });
  chain_->on_call("boss_music", [] {});
  chain_->on_call("victory", [] {});
  return ok();
}

Status Game::start() {
  Result<Entity> player = world::spawn(world_, registry_, defs_, "player", {0, 0});
  if (!player) return Unexpected(player.error());
  player_ = *player;
  if (const Health* h = world_.get<Health>(player_)) hull_max_ = h->hp;
  // The difficulty's abilities (see Abilities): the gun's rate and a shield on Easy.
  if (world::Gun* gun = world_.get<world::Gun>(player_)) {
    gun->cooldown *= abilities_.gun_cooldown_scale;
  }
  if (abilities_.shield > 0) {
    world_.create<Shield>(player_, Shield{.charge = abilities_.shield,
                                          .capacity = abilities_.shield,
                                          .regen = abilities_.shield_regen,
                                          .sound = {}});
  }
  return chain_->start(waves_);
}

void Game::register_components() {
  world::register_world_components(registry_);
  world::register_system_components(registry_, particles_);
  registry_.add<Health>("Health", [](const world::Params& p) {
    const f32 hp = std::max(p.number("hp", 1), 1.0f);
    return Health{.hp = hp, .armour = p.number("armour", 0), .max = hp};
  });
  registry_.add<Score>("Score",
                       [](const world::Params& p) { return Score{.points = p.number("points")}; });
  registry_.add<Shield>("Shield", [](const world::Params& p) {
    const f32 capacity = p.number("capacity");
    return Shield{.charge = capacity,
                  .capacity = capacity,
                  .regen = p.number("regen"),
                  .sound = runtime_id(p.text("sound"))};
  });
  // Fsm("Fighter"): an FsmInstance from the bindings, reached through the Brain component.
  registry_.add("Fsm", [this](world::World& w, Entity e, const world::Params& p) -> Status {
    Result<fsm::FsmInstance*> brain = brains_->attach(e, p.text("name"));
    if (!brain) return Unexpected(brain.error());
    w.create<Brain>(e, Brain{*brain});
    brain_order_.push_back(e);
    return ok();
  });
  // Script("bomber_ai"): the script runs in vm_ for its entity (world::EntityScript).
  registry_.add("Script", [this](world::World& w, Entity e, const world::Params& p) -> Status {
    const std::string_view name = p.text("name");
    Result<script::InstanceId> id = script_bindings_->attach(*vm_, e, name);
    if (!id) return Unexpected(id.error());
    w.create<ScriptName>(e, ScriptName{string_hash(name)});
    return ok();
  });
}

void Game::connect_events() {
  world::connect_bullet_spawner(world_, registry_, defs_, &failed_shots_);
  world::connect_particle_bursts(world_);
  // Shots: the shooter's Audio cue for "shoot" ("laser"), at the muzzle.
  world::connect_audio(world_);
  world_.on_kill([this](world::World& w, Entity e) {
    if (w.get<Brain>(e) != nullptr) std::erase(brain_order_, e);  // bullets die by the hundred
  });
  world_.on<world::PlaySound>([this](world::World& w, const world::PlaySound& p) {
    const world::Transform* t = w.get<world::Transform>(p.source);
    sounds_.push_back({.sound = p.sound.value,
                       .position = t != nullptr ? t->position : player_last_,
                       .volume = p.volume});
  });
  world_.on<world::ContactEvent>([this](world::World&, const world::ContactEvent& c) {
    if (c.phase == world::ContactPhase::kBegin) on_contact(c.a, c.b);
  });
}

void Game::on_contact(Entity a, Entity b) {
  const bool a_shot = is_shot(world_, a);
  const bool b_shot = is_shot(world_, b);
  if (a_shot && !b_shot) hit(a, b);
  if (b_shot && !a_shot) hit(b, a);
}

void Game::sound(std::string_view name, Vec2 at, f32 volume) {
  sounds_.push_back({.sound = runtime_id(name).value, .position = at, .volume = volume});
}

// A shot hits a ship: the shield takes the damage first, then the hull (armour off each hit, at
// least 1); the ship's FSM hears "hit"; at 0 it dies (explosion, score).
void Game::hit(Entity shot, Entity ship) {
  if (!world_.alive(shot) || world_.dying(shot)) return;  // spent on another ship this step
  world_.kill(shot);
  Health* h = world_.get<Health>(ship);
  if (h == nullptr || world_.dying(ship)) return;
  const world::Transform* t = world_.get<world::Transform>(ship);
  const Vec2 at = t != nullptr ? t->position : Vec2{};
  f32 damage = std::max(kBulletDamage - h->armour, 1.0f);
  if (Shield* s = world_.get<Shield>(ship)) {
    const f32 absorbed = std::min(s->charge, damage);
    s->charge -= absorbed;
    damage -= absorbed;
  }
  h->hp -= damage;
  if (const Brain* b = world_.get<Brain>(ship)) b->fsm->event("hit");
  if (h->hp > 0) {
    sound("hit", at, 0.6f);
    return;
  }
  world_.kill(ship);
  if (ship != player_) {
    ++killed_;
    if (const Score* s = world_.get<Score>(ship)) score_ += static_cast<u64>(s->points);
  }
  sound("explosion", at);
  burst(at);
}

Result<Entity> Game::spawn(std::string_view definition, Vec2 at) {
  return world::spawn(world_, registry_, defs_, definition, at);
}

void Game::burst(Vec2 at, std::string_view effect) {
  const Entity e = world_.create();
  world::Transform where;
  where.position = at;
  world_.create<world::Transform>(e, where);
  world::add_emitter(world_, e, particles_, runtime_id(effect));
  world_.create<world::Lifetime>(e, world::Lifetime{.remaining = 2, .kill_entity = true});
}

// Thrust and reverse push along the heading; left and right aim the angular velocity at
// +-kTurnRate (neither: at 0) with a torque; fire holds the trigger. Dead players do nothing.
void Game::apply_controls(const Controls& controls) {
  const world::Transform* t = world_.get<world::Transform>(player_);
  if (t == nullptr || world_.dying(player_)) return;
  player_last_ = t->position;
  world::Physics& physics = physics_.physics();
  const f32 mass = physics.mass(player_);
  const f32 inertia = physics.inertia(player_);
  const Vec2 heading = spatial::from_angle(t->angle);
  f32 accel = 0;
  if (controls.thrust) accel += kThrust;
  if (controls.reverse && abilities_.reverse) accel -= kReverseThrust;
  const f32 turn = (controls.left ? 1.0f : 0.0f) - (controls.right ? 1.0f : 0.0f);
  constexpr f32 kTurnTime = 0.08f;  // seconds to reach the turn rate
  const f32 torque = inertia * (turn * kTurnRate - t->angular_velocity) / kTurnTime;
  physics.apply_force(player_, heading * (mass * accel), torque);
  if (world::Gun* gun = world_.get<world::Gun>(player_)) gun->trigger = controls.fire;
}

Controls Game::autopilot() const {
  Controls c;
  const world::Transform* t = world_.get<world::Transform>(player_);
  if (t == nullptr || world_.dying(player_)) return c;
  // The nearest enemy, aimed at where it will be when a shot arrives.
  auto& w = const_cast<world::World&>(world_);  // store<C>() makes missing stores
  const world::Transform* nearest = nullptr;
  f32 best = 0;
  for (const Entity e : w.store<Health>().entities()) {
    const world::Transform* et = world_.get<world::Transform>(e);
    if (e == player_ || et == nullptr || world_.dying(e)) continue;
    const f32 d = spatial::length(et->position - t->position);
    if (nearest == nullptr || d < best) {
      nearest = et;
      best = d;
    }
  }
  if (nearest == nullptr) return c;
  const Vec2 lead = nearest->position + nearest->velocity * (best / kPlayerBulletSpeed);
  const Vec2 to = lead - t->position;
  f32 want = std::atan2(to.y, to.x);
  // Too close: back off with reverse thrust; without it (Hard), stand and fight.
  const bool close = best < kCloseDistance;
  const f32 error = world::angle_difference(t->angle, want);
  if (error > 0.04f) c.left = true;
  if (error < -0.04f) c.right = true;
  const bool ahead = std::abs(error) < 0.5f;
  if (close) {
    c.reverse = abilities_.reverse;
  } else {
    c.thrust = ahead && best > kChaseDistance;
  }
  c.fire = best < kPlayerRange &&
           std::abs(world::angle_difference(t->angle, std::atan2(to.y, to.x))) < 0.25f;
  return c;
}

// Hull and shields recharge (the player's hull at the difficulty's rate).
void Game::regenerate() {
  if (Health* h = world_.get<Health>(player_); h != nullptr && !world_.dying(player_)) {
    h->hp = std::min(h->hp + abilities_.hull_regen * Sim::kDt, h->max);
  }
  world_.view<Shield>().each(
      [](Shield& s) { s.charge = std::min(s.charge + s.regen * Sim::kDt, s.capacity); });
}

Status Game::step(const Controls& controls) {
  KEEL_PROFILE("sim");
  find_enemies();
  {
    KEEL_PROFILE("sim.ai");
    apply_controls(controls);
    steer_fleet();
    run_brains();
    run_scripts();
  }
  world::tick_guns(world_, Sim::kDt);
  {
    KEEL_PROFILE("sim.steering");
    steering_.update(world_, Sim::kDt);
    spin_enemies();
    world::drive_bodies(world_, physics_);
  }
  {
    KEEL_PROFILE("sim.physics");
    physics_.update(Sim::kDt);
  }
  world::tick_lifetimes(world_, Sim::kDt);
  {
    KEEL_PROFILE("sim.particles");
    world::tick_particles(world_, particles_, Sim::kDt);
  }
  {
    KEEL_PROFILE("sim.events");
    world_.flush();
  }
  regenerate();
  ++frame_;
  return chain_->running() ? chain_->update(Sim::kDt) : ok();
}

std::string_view Sim::ai_state(Entity entity) const {
  const Game::Brain* b = game_->world_.get<Game::Brain>(entity);
  return b != nullptr && b->fsm != nullptr ? b->fsm->state_name() : std::string_view{};
}

FrameSummary Game::summary() const {
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
  s.score = score_;
  s.player_alive = world_.alive(player_) && !world_.dying(player_);
  if (const Health* h = world_.get<Health>(player_)) s.hull = std::max(h->hp, 0.0f);
  s.hull_max = hull_max_;
  return s;
}

std::array<u64, 3> Sim::hash_parts() const {
  return {game_->world_.state_hash(), game_->physics_.physics().state_hash(),
          particles_.state_hash()};
}

// The facade: the running game does the work.
Status Sim::step(const Controls& controls) { return game_->step(controls); }
Controls Sim::autopilot() const { return game_->autopilot(); }
FrameSummary Sim::summary() const { return game_->summary(); }
std::vector<SoundEvent> Sim::take_sounds() { return std::exchange(game_->sounds_, {}); }
Result<Entity> Sim::spawn(std::string_view definition, Vec2 at) {
  return game_->spawn(definition, at);
}
void Sim::burst(Vec2 at, std::string_view effect) { game_->burst(at, effect); }
const world::World& Sim::world() const { return game_->world_; }
Entity Sim::player() const { return game_->player_; }

u64 Sim::state_hash() const {
  const std::array<u64, 3> parts = hash_parts();
  return hash64(parts.data(), sizeof(parts));
}

}  // namespace keel::voidfarer
