#include "match.h"

#include "tasks.h"

#include "keel/core/assert.h"
#include "keel/core/file.h"
#include "keel/fsm/compiler/compiler.h"
#include "keel/fsm/opcodes.h"
#include "keel/text/document.h"

#include <fmt/format.h>

#include <cmath>
#include <unordered_set>

namespace rumble {

namespace fsm = keel::fsm;
namespace text = keel::text;

MatchSetup MatchSetup::from_data_dir(const std::filesystem::path& dir) {
  MatchSetup setup;
  setup.fsm_files = {dir / "character.fsm", dir / "player.fsm"};
  setup.roster_file = dir / "roster.txt";
  return setup;
}

fsm::TypeRegistry character_types() {
  fsm::TypeRegistry types;
  fsm::FsmType& character = types.add("Character");
  const keel::Status added = character.add_behaviors({"animate", "physics", "controls", "dead"});
  KEEL_ASSERT(added, "behaviour names are new");
  (void)added;
  return types;
}

// Turns the FSM runtime's notifications into match events.
class Match::Observer final : public fsm::Observer {
 public:
  explicit Observer(Match& match) : match_(match) {}

  void on_event(fsm::FsmInstance& instance, keel::Hash event, bool handled) override {
    if (!handled || event == instance.fsm().run_event) return;
    const Fighter& f = instance.object<Fighter>();
    match_.record({.kind = EventKind::kFsmEvent,
                   .fighter = static_cast<s32>(f.index()),
                   .a = match_.fsm_string(f, event)});
  }
  void on_transition(fsm::FsmInstance& instance, const fsm::StateDef* from,
                     const fsm::StateDef& to) override {
    const Fighter& f = instance.object<Fighter>();
    match_.record({.kind = EventKind::kState,
                   .fighter = static_cast<s32>(f.index()),
                   .a = from != nullptr ? from->name_string : std::string_view(),
                   .b = to.name_string});
  }
  void on_error(fsm::FsmInstance& instance, std::string_view message) override {
    const Fighter& f = instance.object<Fighter>();
    match_.record({.kind = EventKind::kError,
                   .fighter = static_cast<s32>(f.index()),
                   .a = match_.keep(std::string(message))});
  }
  void on_link(fsm::FsmInstance& creator, fsm::FsmInstance& target, keel::Hash name,
               bool formed) override {
    const Fighter& c = creator.object<Fighter>();
    match_.record({.kind = EventKind::kLink,
                   .fighter = static_cast<s32>(c.index()),
                   .other = static_cast<s32>(target.object<Fighter>().index()),
                   .a = match_.fsm_string(c, name),
                   .value = formed ? 1 : 0});
  }
  void on_unlink(fsm::FsmInstance& breaker, fsm::FsmInstance& other, keel::Hash name) override {
    const Fighter& b = breaker.object<Fighter>();
    match_.record({.kind = EventKind::kUnlink,
                   .fighter = static_cast<s32>(b.index()),
                   .other = static_cast<s32>(other.object<Fighter>().index()),
                   .a = match_.fsm_string(b, name)});
  }

 private:
  Match& match_;
};

Fighter::Fighter(Match& match, const FighterSpec& spec, const fsm::AnimationLibrary& clips,
                 u32 index)
    : animation(clips, spec.aliases),
      health(spec.health),
      x(spec.position),
      match_(&match),
      spec_(&spec),
      index_(index) {}

void Fighter::play(fsm::FsmInstance& instance, const fsm::AnimationRequest& request) {
  const std::string_view alias = match_->fsm_string(*this, request.alias);
  if (!spec_->aliases.find(request.alias)) {  // the roster checked that every clip exists
    match_->record(
        {.kind = EventKind::kMissingAnimation, .fighter = static_cast<s32>(index_), .a = alias});
    return;
  }
  animation.play(instance, request);
  clip_started_ = match_->current_tick();
  match_->record({.kind = EventKind::kAnimation,
                  .fighter = static_cast<s32>(index_),
                  .a = alias,
                  .b = animation.clip()->name,
                  .value = static_cast<s32>(animation.frame()),
                  .value2 = request.flags});
}

Match::Match() = default;

Match::~Match() {
  // Tasks hold references to the match: stop them before the fighters go.
  if (kernel_) kernel_->shutdown();
}

keel::Result<std::unique_ptr<Match>> Match::create(MatchSetup setup) {
  std::unique_ptr<Match> match(new Match());
  if (keel::Status s = match->load(setup); !s) return std::unexpected(s.error());
  return match;
}

keel::Status Match::load(MatchSetup& setup) {
  seed_ = setup.seed;
  types_ = character_types();

  // FSMs: compile every source, then link them as one library.
  auto add_image = [&](std::unique_ptr<text::Document> doc,
                       text::Diagnostics& diag) -> keel::Status {
    std::optional<fsm::CompiledFsms> image;
    if (doc) image = fsm::compile(doc->first(), types_, diag);
    if (!image) {
      return keel::fail(keel::ErrorCode::kParse, "{}", doc ? diag.render(*doc) : diag.render());
    }
    return library_.add(std::move(*image));
  };
  for (const std::filesystem::path& path : setup.fsm_files) {
    text::Diagnostics diag;
    if (keel::Status s = add_image(text::parse_file(path, diag), diag); !s) return s;
  }
  for (auto& [name, source] : setup.fsm_sources) {
    text::Diagnostics diag;
    if (keel::Status s = add_image(text::parse(source, name, diag), diag); !s) return s;
  }
  if (keel::Status s = library_.link(); !s) return s;

  // Roster.
  if (!setup.roster_source.empty()) {
    text::Diagnostics diag;
    std::unique_ptr<text::Document> doc = text::parse(setup.roster_source, "roster", diag);
    if (doc == nullptr || !read_roster(doc->first(), roster_, diag)) {
      return keel::fail(keel::ErrorCode::kParse, "{}", doc ? diag.render(*doc) : diag.render());
    }
  } else {
    keel::Result<Roster> roster = load_roster(setup.roster_file);
    if (!roster) return std::unexpected(roster.error());
    roster_ = std::move(*roster);
  }

  register_functions();
  env_ = std::make_unique<fsm::Environment>(functions_, setup.seed);
  observer_ = std::make_unique<Observer>(*this);
  env_->set_observer(observer_.get());
  env_->set_error_handler([](fsm::FsmInstance&, std::string_view) {});  // the observer logs it

  // Fighters: every one first (an FSM's state_enter may already look at the others), then the
  // FSMs, in match order.
  std::vector<const fsm::FsmDef*> defs;
  for (const std::string& name : setup.fighters) {
    const FighterSpec* spec = roster_.find_fighter(name);
    if (spec == nullptr) {
      return keel::fail(keel::ErrorCode::kNotFound, "no fighter '{}' in the roster", name);
    }
    keel::Result<const fsm::FsmDef*> def = library_.get(spec->fsm);
    if (!def) return std::unexpected(def.error());
    defs.push_back(*def);
    fighters_.push_back(
        std::make_unique<Fighter>(*this, *spec, roster_.clips, static_cast<u32>(fighters_.size())));
    positions_.push_back(spec->position);
    reach_.push_back(spec->reach);
  }
  for (usize i = 0; i < fighters_.size(); ++i) {
    Fighter& f = *fighters_[i];
    f.brain.set_animation_target(&f);
    if (keel::Status s = f.brain.init(&f, *defs[i], *env_); !s) return s;
  }

  inputs_ = setup.inputs ? std::move(setup.inputs)
                         : std::make_unique<RandomController>(setup.seed, fighters_.size());

  // The kernel: a fake clock that the frame-end hook moves on by exactly one tick, so every
  // kernel frame runs exactly one fixed 60 Hz step. (With a real clock, as a windowed build will
  // use, frames run 0..n fixed steps and the simulation is unchanged.)
  kernel_ = std::make_unique<keel::kernel::Kernel>(
      clock_, keel::kernel::TimingConfig{.max_dt = 0.25, .fixed_dt = kTickSeconds});
  kernel_->add_frame_end_hook([this] { clock_.advance_seconds(kTickSeconds); });
  kernel_->create<InputTask>(*this);
  kernel_->create<BrainTask>(*this);
  kernel_->create<AnimationTask>(*this);
  kernel_->create<CombatTask>(*this);
  kernel_->step();  // the first frame only starts the clock (dt 0: no step)
  events_.reserve(4096);
  return keel::ok();
}

void Match::register_functions() {
  auto must = [](const keel::Status& s) {
    KEEL_ASSERT(s, "function names are new");
    (void)s;
  };
  // Pick the nearest living opponent.
  must(functions_.declare("ChooseTarget", [this](fsm::FsmInstance& i) {
    Fighter& f = i.object<Fighter>();
    f.target = nearest_opponent(f);
  }));
  must(functions_.declare("FaceTarget", [](fsm::FsmInstance& i) {
    Fighter& f = i.object<Fighter>();
    if (f.target != nullptr && f.target->x != f.x) f.facing = f.target->x > f.x ? 1 : -1;
  }));
  // A strike frame: the damage of the current clip goes to the target, resolved by combat.
  must(functions_.declare("DoDamage", [this](fsm::FsmInstance& i) {
    Fighter& f = i.object<Fighter>();
    if (f.target == nullptr || f.animation.clip() == nullptr) return;
    const fsm::AnimationClip* clip = f.animation.clip();
    const s32 damage = roster_.damage_of(*clip);
    record({.kind = EventKind::kStrike,
            .fighter = static_cast<s32>(f.index()),
            .other = static_cast<s32>(f.target->index()),
            .a = clip->name,
            .value = damage});
    queue_strike({&f, f.target, clip, damage});
  }));
  // CreateLink's target supplier: the target, if within reach (it may still refuse).
  must(functions_.declare("GrabTarget", [](fsm::FsmInstance& i) {
    Fighter& f = i.object<Fighter>();
    if (f.target == nullptr) return;
    if (std::abs(f.target->x - f.x) <= f.spec().reach) i.create_link(f.target->brain);
  }));
}

void Match::record(MatchEvent event) {
  event.tick = tick_;
  events_.push_back(event);
}

void Match::record_at(usize index, MatchEvent event) {
  event.tick = tick_;
  events_.insert(events_.begin() + static_cast<std::ptrdiff_t>(std::min(index, events_.size())),
                 event);
}

std::string_view Match::keep(std::string text) { return strings_.emplace_back(std::move(text)); }

std::string_view Match::fsm_string(const Fighter& f, keel::Hash h) const {
  const std::string_view s = f.brain.fsm().string(h);
  return s.empty() ? std::string_view("?") : s;
}

Fighter* Match::nearest_opponent(const Fighter& f) {
  Fighter* best = nullptr;
  const u32 dead = behavior_bit("dead");
  for (const std::unique_ptr<Fighter>& o : fighters_) {
    if (o.get() == &f || (o->brain.behavior() & dead) != 0) continue;
    if (best == nullptr || std::abs(o->x - f.x) < std::abs(best->x - f.x)) best = o.get();
  }
  return best;
}

ArenaView Match::arena() {
  for (usize i = 0; i < fighters_.size(); ++i) positions_[i] = fighters_[i]->x;
  return {positions_, reach_};
}

u32 Match::behavior_bit(std::string_view name) const {
  return types_.find("Character")->behavior_bit(name).value_or(0);
}

void Match::finish(EventKind how, std::optional<u32> winner) {
  if (over_) return;
  over_ = true;
  winner_ = winner;
  record({.kind = how,
          .fighter = winner ? static_cast<s32>(*winner) : -1,
          .value = winner ? 0 : 1,
          .value2 = winner ? fighters_[*winner]->health : 0});
  kernel_->kill_all();
}

MatchState Match::capture() const {
  MatchState s;
  s.seed = seed_;
  s.ticks = ticks_;
  s.tick = tick_;
  s.fsm_random = env_->random().state();
  s.over = over_;
  s.winner = winner_;
  inputs_->save_state(s.inputs);
  s.fighters.reserve(fighters_.size());
  for (const std::unique_ptr<Fighter>& f : fighters_) {
    FighterState& out = s.fighters.emplace_back();
    out.health = f->health;
    out.x = f->x;
    out.facing = f->facing;
    out.move = f->move;
    out.out_of_health = f->out_of_health;
    out.clip_started = f->clip_started();
    out.target = f->target != nullptr ? static_cast<s32>(f->target->index()) : -1;
    out.brain = f->brain.snapshot();
    out.animation = f->animation.snapshot();
    for (const fsm::FsmInstance::Link& l : f->brain.links()) {
      // kLinkAlways only matters while a link forms; a restored link is formed without asking.
      if (l.creator) {
        out.links.push_back({l.other->object<Fighter>().index(), l.name,
                             static_cast<keel::u8>(l.flags & fsm::kLinkOneWay)});
      }
    }
  }
  s.events = events_;
  return s;
}

keel::Status Match::restore(const MatchState& s) {
  // Everything that can refuse is checked before anything changes.
  const usize n = fighters_.size();
  if (s.fighters.size() != n) {
    return keel::fail(keel::ErrorCode::kRefused, "the save has {} fighters, this match {}",
                      s.fighters.size(), n);
  }
  if (s.tick > s.ticks || (s.winner && *s.winner >= n)) {
    return keel::fail(keel::ErrorCode::kCorrupt, "the saved match's tick or winner is invalid");
  }
  if (over_ && !s.over) {
    return keel::fail(keel::ErrorCode::kRefused,
                      "this match is over (its tasks stopped): restore into a new match");
  }
  for (usize i = 0; i < n; ++i) {
    const FighterState& f = s.fighters[i];
    const Fighter& live = *fighters_[i];
    const fsm::FsmDef& def = live.brain.fsm();
    if (f.target < -1 || f.target >= static_cast<s32>(n) || f.target == static_cast<s32>(i) ||
        (f.facing != 1 && f.facing != -1) || f.move < -1 || f.move > 1) {
      return keel::fail(keel::ErrorCode::kCorrupt, "saved fighter {} is invalid", i);
    }
    if (f.brain.fsm != def.name) {
      return keel::fail(keel::ErrorCode::kRefused,
                        "fighter {} ({}) runs the FSM '{}'; the save has another FSM there", i,
                        live.name(), def.name_string);
    }
    const fsm::StateDef* state = def.find_state(f.brain.state);
    if (state == nullptr || (state->flag_count < 32 && (f.brain.flags >> state->flag_count) != 0)) {
      return keel::fail(keel::ErrorCode::kRefused,
                        "fighter {} ({}): the saved FSM state is not in '{}' (FSM changed?)", i,
                        live.name(), def.name_string);
    }
    if (f.animation.clip != 0) {
      const fsm::AnimationClip* clip = roster_.clips.find(f.animation.clip);
      if (clip == nullptr || f.animation.frame >= clip->frame_count) {
        return keel::fail(keel::ErrorCode::kRefused,
                          "fighter {} ({}): the saved clip or frame is not in the roster", i,
                          live.name());
      }
    } else if (f.animation.frame != 0) {
      return keel::fail(keel::ErrorCode::kCorrupt, "saved fighter {}: a frame without a clip", i);
    }
    for (const FighterState::Link& l : f.links) {
      if (l.other >= n || l.other == i || def.string(l.name).empty() ||
          (l.flags & ~(fsm::kLinkOneWay | fsm::kLinkAlways)) != 0) {
        return keel::fail(keel::ErrorCode::kRefused, "fighter {} ({}): a saved link is invalid", i,
                          live.name());
      }
    }
  }
  for (const MatchEvent& e : s.events) {
    if (e.kind > EventKind::kTimeUp || e.fighter < -1 || e.fighter >= static_cast<s32>(n) ||
        e.other < -1 || e.other >= static_cast<s32>(n)) {
      return keel::fail(keel::ErrorCode::kCorrupt, "the saved event log is invalid");
    }
  }
  // The last step that may refuse; nothing else has changed yet.
  if (keel::Status st = inputs_->restore_state(s.inputs); !st) return st;

  // From here on nothing fails. The FSM runtime's notifications would become log lines: off.
  env_->set_observer(nullptr);
  // Links of this match go first (their unlink handlers may run; everything they touch is
  // overwritten below).
  for (std::unique_ptr<Fighter>& f : fighters_) {
    for (usize guard = 0; guard < 64 && !f->brain.links().empty(); ++guard) {
      f->brain.break_link(f->brain.links().front().name);
    }
  }
  for (usize i = 0; i < n; ++i) {
    const FighterState& from = s.fighters[i];
    Fighter& f = *fighters_[i];
    const keel::Status brain = f.brain.restore(from.brain);
    const keel::Status animation = f.animation.restore(from.animation);
    KEEL_ASSERT(brain && animation, "checked above");
    (void)brain;
    (void)animation;
    f.health = from.health;
    f.x = from.x;
    f.facing = from.facing;
    f.move = from.move;
    f.out_of_health = from.out_of_health;
    f.set_clip_started(from.clip_started);
    f.target = from.target >= 0 ? fighters_[static_cast<usize>(from.target)].get() : nullptr;
  }
  for (usize i = 0; i < n; ++i) {
    fsm::FsmInstance& brain = fighters_[i]->brain;
    for (const FighterState::Link& l : s.fighters[i].links) {
      const bool formed = brain.create_link(fighters_[l.other]->brain, brain.fsm().string(l.name),
                                            static_cast<keel::u8>(l.flags | fsm::kLinkAlways));
      KEEL_ASSERT(formed, "a link without handshake between two initialised instances forms");
      (void)formed;
    }
  }
  env_->set_observer(observer_.get());
  env_->random().seed(s.fsm_random);

  // The log: strings are kept once each.
  events_.clear();
  events_.reserve(std::max<usize>(s.events.size(), 4096));
  std::unordered_set<std::string_view> kept;  // views of the copies in strings_
  auto keep_once = [&](std::string_view text) -> std::string_view {
    if (text.empty()) return {};
    if (auto it = kept.find(text); it != kept.end()) return *it;
    return *kept.insert(keep(std::string(text))).first;
  };
  for (MatchEvent e : s.events) {
    e.a = keep_once(e.a);
    e.b = keep_once(e.b);
    events_.push_back(e);
  }
  strikes_.clear();
  seed_ = s.seed;
  tick_ = s.tick;
  ticks_ = s.ticks;
  simulated_ = 0;
  over_ = s.over;
  winner_ = s.winner;
  if (over_) kernel_->kill_all();
  return keel::ok();
}

bool Match::step() {
  if (over_) return false;
  kernel_->step();
  return !over_;
}

void Match::advance_to(u64 tick) {
  while (!over_ && ticks_ < tick) kernel_->step();
}

void Match::run(u64 max_ticks) {
  advance_to(max_ticks);
  if (over_) return;
  // Time up: the healthier fighter wins.
  std::optional<u32> best;
  bool tie = false;
  for (usize i = 0; i < fighters_.size(); ++i) {
    if (!best || fighters_[i]->health > fighters_[*best]->health) {
      best = static_cast<u32>(i);
      tie = false;
    } else if (fighters_[i]->health == fighters_[*best]->health) {
      tie = true;
    }
  }
  tick_ = ticks_;
  finish(EventKind::kTimeUp, tie ? std::nullopt : best);
}

}  // namespace rumble
