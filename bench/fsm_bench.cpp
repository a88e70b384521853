// FSM runtime throughput: 10,000 fighters each receive one event and the per-frame run event
// every frame, through keel::fsm (compiled DefaultCharacter-style FSM, callbacks through the
// function registry, SetAnimation through each fighter's AnimationTarget) and through a
// hand-written `switch` machine with the same states, flags, transitions and callbacks. Both
// see the same event sequence and do the same observable work (counters, animation requests,
// error count, calling the same out-of-line game functions); the difference is the interpreter:
// handler lookup by hash, the command stream, parent-state fallback and the callback indirection.
#include "bench_support.h"
#include "keel/core/hash.h"
#include "keel/fsm/compiler/compiler.h"
#include "keel/fsm/instance.h"
#include "keel/fsm/library.h"
#include "keel/text/document.h"

#include <array>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

namespace {

using keel::Hash;
using keel::u32;
using keel::u8;
using keel::usize;
namespace fsm = keel::fsm;

constexpr usize kFighters = 10'000;

constexpr const char* kSource = R"(
FSM("Fighter", "Character")
{
    InitialState("Stance");
    DefaultBehavior("animate", "physics");
    State("Stance")
    {
        Behavior("controls");
        On("state_enter")       SetAnimation("Stance");
        On("input_attack")      Transition("Attack");
        On("event_damage")      Transition("Damaged");
        On("event_death")       Transition("Die");
    }
    State("Attack")
    {
        Flags("strikeHappened", "userHitAttack");
        On("state_enter")       { Execute("ChooseTarget"); SetAnimation("Attack"); }
        On("state_run")         Execute("FaceTarget");
        On("event_damage")      Transition("Damaged");
        On("event_death")       Transition("Die");
        On("keyframe_strike")   { Execute("DoDamage"); SetFlag("strikeHappened"); }
        On("input_attack")      SetFlag("userHitAttack");
        On("keyframe_link")     { IfFlags("userHitAttack") Transition("Attack2"); }
        On("anim_done")         { IfFlags("~strikeHappened") Error("missing strike"); Transition("Stance"); }
    }
    State("Attack2")
    {
        Flags("strikeHappened");
        On("state_enter")       { Execute("ChooseTarget"); SetAnimation("Attack2", "-blending"); }
        On("state_run")         Execute("FaceTarget");
        On("event_damage")      Transition("Damaged");
        On("event_death")       Transition("Die");
        On("keyframe_strike")   { Execute("DoDamage"); SetFlag("strikeHappened"); }
        On("anim_done")         { IfFlags("~strikeHappened") Error("missing strike"); Transition("Stance"); }
    }
    State("Damaged")
    {
        On("state_enter")       SetAnimation("Damaged");
        On("event_death")       Transition("Die");
        On("anim_done")         Transition("Stance");
    }
    State("Die")
    {
        Behavior("dead");
        On("state_enter")       SetAnimation("Die", "-repeat");
        On("anim_done")         Transition("Dead");
    }
    State("Dead")
    {
        Behavior("~animate", "~physics", "dead");
        On("revive")            Transition("Stance");
    }
}
)";

enum Event : u8 { kInputAttack, kStrike, kLink, kAnimDone, kDamage, kDeath, kRevive, kEventCount };
constexpr std::array<Hash, kEventCount> kEventHashes = {
    keel::string_hash("input_attack"),  keel::string_hash("keyframe_strike"),
    keel::string_hash("keyframe_link"), keel::string_hash("anim_done"),
    keel::string_hash("event_damage"),  keel::string_hash("event_death"),
    keel::string_hash("revive")};

// The per-frame event of each fighter: a fixed pseudo-random table, mostly fighting, rarely death.
struct Script {
  static constexpr usize kLength = 4096;  // a power of two: indexing is a mask in both loops
  std::vector<u8> events;
  Script() {
    u32 x = 12345;
    events.resize(kLength);
    for (u8& e : events) {
      x = x * 1664525u + 1013904223u;
      const u32 r = (x >> 8) % 100;
      e = r < 30   ? kInputAttack
          : r < 50 ? kStrike
          : r < 65 ? kLink
          : r < 88 ? kAnimDone
          : r < 96 ? kDamage
          : r < 98 ? kDeath
                   : kRevive;
    }
  }
  u8 at(usize frame, usize fighter) const {
    return events[(frame * 7 + fighter * 13) & (kLength - 1)];
  }
};
const Script kScript;

// What the game does in the callbacks: the same in both versions.
struct World {
  u32 targets_chosen = 0;
  u32 facings = 0;
  u32 damage = 0;
  u32 errors = 0;
};

struct Character : fsm::AnimationTarget {
  Hash animation = 0;
  u8 animation_flags = 0;
  void play(fsm::FsmInstance&, const fsm::AnimationRequest& r) override;
};

// The game's functions, called directly by the switch (out of line, as game code in another
// file would be); the FSM reaches the same bodies through its function registry.
[[gnu::noinline]] void choose_target(World& w) { ++w.targets_chosen; }
[[gnu::noinline]] void face_target(World& w) { ++w.facings; }
[[gnu::noinline]] void do_damage(World& w) { ++w.damage; }
[[gnu::noinline]] void report_error(World& w) { ++w.errors; }

[[gnu::noinline]] void play_animation(Character& c, Hash alias, u8 flags) {
  c.animation = alias;
  c.animation_flags = flags;
}
void Character::play(fsm::FsmInstance&, const fsm::AnimationRequest& r) {
  play_animation(*this, r.alias, r.flags);
}

// ---- keel::fsm ------------------------------------------------------------------------------

struct FsmSetup {
  fsm::FsmLibrary library;
  fsm::FunctionRegistry functions;
  World world;
  std::unique_ptr<fsm::Environment> env;
  std::vector<Character> characters = std::vector<Character>(kFighters);
  std::unique_ptr<fsm::FsmInstance[]> instances = std::make_unique<fsm::FsmInstance[]>(kFighters);

  FsmSetup() {
    fsm::TypeRegistry types;
    (void)types.add("Character").add_behaviors({"animate", "physics", "controls", "dead"});
    keel::text::Diagnostics diag;
    auto doc = keel::text::parse(kSource, "fighter.fsm", diag);
    std::optional<fsm::CompiledFsms> image =
        doc ? fsm::compile(doc->first(), types, diag) : std::nullopt;
    if (!image || !library.add(std::move(*image)) || !library.link()) {
      std::fprintf(stderr, "fsm_bench: %s\n", diag.render().c_str());
      std::abort();
    }
    (void)functions.declare("ChooseTarget", [this](fsm::FsmInstance&) { choose_target(world); });
    (void)functions.declare("FaceTarget", [this](fsm::FsmInstance&) { face_target(world); });
    (void)functions.declare("DoDamage", [this](fsm::FsmInstance&) { do_damage(world); });
    env = std::make_unique<fsm::Environment>(functions);
    env->set_error_handler([this](fsm::FsmInstance&, std::string_view) { report_error(world); });
    const fsm::FsmDef& def = *library.find("Fighter");
    for (usize i = 0; i < kFighters; ++i) {
      instances[i].set_animation_target(&characters[i]);
      if (!instances[i].init(&characters[i], def, *env)) std::abort();
    }
  }
};

void BM_FsmInstances(benchmark::State& state) {
  FsmSetup s;
  usize frame = 0;
  u32 behaviors = 0;
  for (auto _ : state) {
    for (usize i = 0; i < kFighters; ++i) {
      fsm::FsmInstance& f = s.instances[i];
      behaviors += f.behavior();
      f.run();
      f.event(kEventHashes[kScript.at(frame, i)]);
    }
    ++frame;
  }
  benchmark::DoNotOptimize(behaviors);
  benchmark::DoNotOptimize(s.world);
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * kFighters));
}
BENCHMARK(BM_FsmInstances)->Unit(benchmark::kMicrosecond);

// ---- the hand-written peer ------------------------------------------------------------------

enum class State : u8 { kStance, kAttack, kAttack2, kDamaged, kDie, kDead };
constexpr u32 kAnimate = 1, kPhysics = 2, kControls = 4, kDead = 8;
constexpr u32 kStrikeHappened = 1, kUserHitAttack = 2;
constexpr u8 kBlendRepeat = 0x3;
const Hash kAnimStance = keel::string_hash("Stance");
const Hash kAnimAttack = keel::string_hash("Attack");
const Hash kAnimAttack2 = keel::string_hash("Attack2");
const Hash kAnimDamaged = keel::string_hash("Damaged");
const Hash kAnimDie = keel::string_hash("Die");

struct SwitchFighter {
  State state = State::kStance;
  u32 flags = 0;
  u32 behavior = 0;
  Character* character = nullptr;
  World* world = nullptr;

  void enter(State to) {
    state = to;
    flags = 0;
    switch (to) {
      case State::kStance:
        behavior = kAnimate | kPhysics | kControls;
        animate(kAnimStance, kBlendRepeat);
        break;
      case State::kAttack:
        behavior = kAnimate | kPhysics;
        choose_target(*world);
        animate(kAnimAttack, kBlendRepeat);
        break;
      case State::kAttack2:
        behavior = kAnimate | kPhysics;
        choose_target(*world);
        animate(kAnimAttack2, 0x2);
        break;
      case State::kDamaged:
        behavior = kAnimate | kPhysics;
        animate(kAnimDamaged, kBlendRepeat);
        break;
      case State::kDie:
        behavior = kAnimate | kPhysics | kDead;
        animate(kAnimDie, 0x1);
        break;
      case State::kDead: behavior = kDead; break;
    }
  }
  void animate(Hash alias, u8 f) { play_animation(*character, alias, f); }
  void run() {
    if (state == State::kAttack || state == State::kAttack2) face_target(*world);
  }
  void event(u8 e) {
    switch (state) {
      case State::kStance:
        if (e == kInputAttack)
          enter(State::kAttack);
        else if (e == kDamage)
          enter(State::kDamaged);
        else if (e == kDeath)
          enter(State::kDie);
        break;
      case State::kAttack:
      case State::kAttack2:
        switch (e) {
          case kDamage: enter(State::kDamaged); break;
          case kDeath: enter(State::kDie); break;
          case kStrike:
            do_damage(*world);
            flags |= kStrikeHappened;
            break;
          case kInputAttack:
            if (state == State::kAttack) flags |= kUserHitAttack;
            break;
          case kLink:
            if (state == State::kAttack && (flags & kUserHitAttack) != 0) enter(State::kAttack2);
            break;
          case kAnimDone:
            if ((flags & kStrikeHappened) == 0) report_error(*world);
            enter(State::kStance);
            break;
          default: break;
        }
        break;
      case State::kDamaged:
        if (e == kDeath)
          enter(State::kDie);
        else if (e == kAnimDone)
          enter(State::kStance);
        break;
      case State::kDie:
        if (e == kAnimDone) enter(State::kDead);
        break;
      case State::kDead:
        if (e == kRevive) enter(State::kStance);
        break;
    }
  }
};

void BM_SwitchMachines(benchmark::State& state) {
  World world;
  std::vector<Character> characters(kFighters);
  std::vector<SwitchFighter> fighters(kFighters);
  for (usize i = 0; i < kFighters; ++i) {
    fighters[i].character = &characters[i];
    fighters[i].world = &world;
    fighters[i].enter(State::kStance);
  }
  usize frame = 0;
  u32 behaviors = 0;
  for (auto _ : state) {
    for (usize i = 0; i < kFighters; ++i) {
      SwitchFighter& f = fighters[i];
      behaviors += f.behavior;
      f.run();
      f.event(kScript.at(frame, i));
    }
    ++frame;
  }
  benchmark::DoNotOptimize(behaviors);
  benchmark::DoNotOptimize(world);
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * kFighters));
}
BENCHMARK(BM_SwitchMachines)->Unit(benchmark::kMicrosecond);

}  // namespace

KEEL_BENCH_RATIO("fsm 10k instances, an event and a run each frame, vs hand-written switch",
                 "BM_FsmInstances", "BM_SwitchMachines");
KEEL_BENCH_MAIN()
