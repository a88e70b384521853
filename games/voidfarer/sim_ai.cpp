// The enemies' AI: fleets (world steering), state machines (data/assets/ai/*.fsm through
// world::FsmBindings) and the bombers' script (data/assets/ai/bomber.script in the script
// Machine through world::ScriptBindings). The FSMs choose behaviours; this file carries them out.
#include "game.h"

#include "keel/core/hash.h"
#include "keel/world/components.h"
#include "keel/world/motion.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>

namespace keel::voidfarer {
namespace {

using world::Entity;
using world::Vec2;

constexpr f32 kDt = Sim::kDt;
constexpr f32 kEnemyRange = Sim::kEnemyRange;
constexpr f32 kFleetDistance = 400;  // fleets keep half a screen from the player
constexpr f32 kOverDistance = 200;   // a bomber is "over" the player inside it (bomb run)
constexpr f32 kSpinAhead = 1.2f;     // radians: a spinning ship always wants to be this far on

// Events the game sends to the FSMs (see data/assets/ai/fighter.fsm).
constexpr Hash kInRange = runtime_id("in_range").value;
constexpr Hash kOutOfRange = runtime_id("out_of_range").value;
constexpr Hash kDamaged = runtime_id("damaged").value;
constexpr Hash kPlayerDead = runtime_id("player_dead").value;

}  // namespace

// The enemies (every entity with Health but the player) and their positions, in store order.
void Game::find_enemies() {
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

// The fleet: every enemy seeks the point half a screen from the player (fleet_goal) with its
// own cohesion and separation; guns are off until a behaviour pulls the trigger.
void Game::steer_fleet() {
  headings_.clear();
  if (enemies_.empty()) return;
  const Vec2 goal =
      world::fleet_goal(player_last_, world::centre_of(enemy_positions_), kFleetDistance);
  for (const Entity e : enemies_) {
    if (world::Vehicle* v = world_.get<world::Vehicle>(e)) {
      v->target = goal;
      v->target_velocity = {};
      v->has_target = true;
      v->has_threat = false;
      v->face_target = false;
      v->weights.flee = 0;
    }
    if (world::Gun* gun = world_.get<world::Gun>(e)) gun->trigger = false;
  }
}

// What a behaviour word means for one ship (seek is the fleet's goal set by steer_fleet).
void Game::behave(Entity e, const world::Transform& t, const Behaviour& b) {
  const world::Transform* pt = live_player();
  world::Vehicle* v = world_.get<world::Vehicle>(e);
  if (v != nullptr) {
    v->weights.seek = (b.seek || b.charge) ? 1.0f : 0.0f;
    if (b.charge && pt != nullptr) {
      v->target = pt->position;
      v->target_velocity = pt->velocity;
      v->face_target = true;
    }
    if (b.flee && pt != nullptr) {
      v->threat = pt->position;
      v->threat_velocity = pt->velocity;
      v->has_threat = true;
      v->weights.flee = 1;
    }
  }
  if (b.spin) {
    headings_.push_back({e, t.angle + kSpinAhead});
  } else if (b.aim && pt != nullptr) {
    const Vec2 to = pt->position - t.position;
    headings_.push_back({e, std::atan2(to.y, to.x)});
  }
  if (world::Gun* gun = world_.get<world::Gun>(e)) {
    gun->trigger =
        b.fire && pt != nullptr && spatial::length(pt->position - t.position) < kEnemyRange;
  }
}

const world::Transform* Game::live_player() const {
  if (world_.dying(player_)) return nullptr;
  return world_.get<world::Transform>(player_);
}

// Each FSM hears the frame's events (in or out of range, damaged, the player dead), runs once
// (state_run), and its state's behaviours steer its ship.
void Game::run_brains() {
  const world::Transform* pt = live_player();
  // In attach order (the order FsmBindings runs them): IfRandom's dice are shared.
  for (const Entity e : brain_order_) {
    const Brain* brain = world_.get<Brain>(e);
    const world::Transform* t = world_.get<world::Transform>(e);
    if (world_.dying(e) || brain == nullptr || t == nullptr) continue;
    if (pt == nullptr) {
      brain->fsm->event(kPlayerDead);
    } else {
      const bool near = spatial::length(pt->position - t->position) < kEnemyRange;
      brain->fsm->event(near ? kInRange : kOutOfRange);
    }
    const Health* h = world_.get<Health>(e);
    if (h != nullptr && h->hp < 0.5f * h->max) brain->fsm->event(kDamaged);
  }
  brains_->run();
  for (auto [e, brain, t] : world_.view<Brain, world::Transform>()) {
    if (world_.dying(e) || brain.fsm == nullptr) continue;
    const BehaviourBits& bits = behaviour_bits(brain.fsm->fsm());
    const u32 word = brain.fsm->behavior();
    behave(e, t,
           Behaviour{.seek = (word & bits.seek) != 0,
                     .charge = (word & bits.charge) != 0,
                     .flee = (word & bits.flee) != 0,
                     .fire = (word & bits.fire) != 0,
                     .aim = (word & bits.aim) != 0,
                     .spin = (word & bits.spin) != 0});
  }
}

// The bits of the behaviours the game knows in an FSM's behaviour word (found by name once per
// FSM: FsmInstance::has_behavior compares names on every call).
const Game::BehaviourBits& Game::behaviour_bits(const fsm::FsmDef& def) {
  for (const auto& [known, bits] : behaviour_bits_) {
    if (known == &def) return bits;
  }
  BehaviourBits bits;
  const auto bit_of = [&](std::string_view name) {
    for (u32 b = 0; b < def.behavior_count() && b < 32; ++b) {
      const std::string_view have = def.behavior_name(b);
      if (have.size() == name.size() &&
          std::equal(have.begin(), have.end(), name.begin(), [](char x, char y) {
            return std::tolower(static_cast<unsigned char>(x)) ==
                   std::tolower(static_cast<unsigned char>(y));
          })) {
        return u32{1} << b;
      }
    }
    return u32{0};
  };
  bits = {.seek = bit_of("seek"),
          .charge = bit_of("charge"),
          .flee = bit_of("flee"),
          .fire = bit_of("fire"),
          .aim = bit_of("aim"),
          .spin = bit_of("spin")};
  behaviour_bits_.emplace_back(&def, bits);
  return behaviour_bits_.back().second;
}

// Bombers: the script's inputs (over, hp), one run of the Machine, its outputs (drop, flee).
// A bomber on its run flies at the player.
void Game::run_scripts() {
  const world::Transform* pt = live_player();
  for (auto [e, s, t] : world_.view<world::EntityScript, world::Transform>()) {
    const bool over = pt != nullptr && spatial::length(pt->position - t.position) < kOverDistance;
    const Health* h = world_.get<Health>(e);
    const s32 hp = h != nullptr ? static_cast<s32>(100 * h->hp / h->max) : 100;
    vm_->set_variable(s.instance, "over", over ? 1 : 0);
    vm_->set_variable(s.instance, "hp", hp);
  }
  vm_->update(kDt);
  for (auto [e, s, t] : world_.view<world::EntityScript, world::Transform>()) {
    if (world_.dying(e)) continue;
    const bool flee = vm_->variable(s.instance, "flee") != 0;
    Behaviour b{.seek = !flee, .flee = flee, .fire = vm_->variable(s.instance, "drop") != 0};
    if (world::Vehicle* v = world_.get<world::Vehicle>(e); v != nullptr && pt != nullptr) {
      v->target = pt->position;  // the bombing run
      v->target_velocity = pt->velocity;
    }
    behave(e, t, b);
    if (world::Gun* gun = world_.get<world::Gun>(e)) gun->trigger = b.fire;
  }
}

// After steering: ships that spin or aim get their heading (drive_bodies turns it into torque).
void Game::spin_enemies() {
  for (const auto& [e, heading] : headings_) {
    if (world::Vehicle* v = world_.get<world::Vehicle>(e)) v->desired_heading = heading;
  }
}

}  // namespace keel::voidfarer
