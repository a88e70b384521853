#include "match_save.h"

#include "keel/core/hash.h"

#include <fmt/format.h>

#include <vector>

namespace rumble {

KEEL_SAVE_TEMPLATE(FighterSave) = {
    KEEL_SAVEDEF(FighterSave),
    KEEL_SAVEDATA(FighterSave, index),
    KEEL_SAVEDATA(FighterSave, health),
    KEEL_SAVEDATA(FighterSave, x),
    KEEL_SAVEDATA(FighterSave, facing),
    KEEL_SAVEDATA(FighterSave, move),
    KEEL_SAVEDATA(FighterSave, state),
    KEEL_SAVEDATA(FighterSave, clip),
    KEEL_SAVEDATA(FighterSave, frame),
    KEEL_SAVEDATA(FighterSave, out_of_health),
    KEEL_SAVEPOBJ(FighterSave, target),
    KEEL_SAVEPOBJ(FighterSave, next),
    KEEL_SAVEEND(),
};

KEEL_SAVE_TEMPLATE(MatchSave) = {
    KEEL_SAVEDEF(MatchSave),         KEEL_SAVEDATA(MatchSave, seed),
    KEEL_SAVEDATA(MatchSave, ticks), KEEL_SAVEDATA(MatchSave, fighters),
    KEEL_SAVEPOBJ(MatchSave, first), KEEL_SAVEEND(),
};

namespace {

constexpr u32 kLevelVersion = 1;

void capture(const Fighter& f, FighterSave& out) {
  out.index = f.index();
  out.health = f.health;
  out.x = f.x;
  out.facing = f.facing;
  out.move = f.move;
  out.state = f.brain.initialized() ? keel::string_hash(f.brain.state_name()) : 0;
  out.clip = f.animation.clip() != nullptr ? keel::string_hash(f.animation.clip()->name) : 0;
  out.frame = f.animation.frame();
  out.out_of_health = f.out_of_health ? 1 : 0;
}

bool same(const FighterSave& a, const FighterSave& b) {
  return a.index == b.index && a.health == b.health && a.x == b.x && a.facing == b.facing &&
         a.move == b.move && a.state == b.state && a.clip == b.clip && a.frame == b.frame &&
         a.out_of_health == b.out_of_health;
}

}  // namespace

const keel::save::SaveSystem& match_save_system() {
  static const keel::save::SaveSystem system(
      {keel::save::type<MatchSave>(), keel::save::type<FighterSave>()});
  return system;
}

u64 state_hash(const Match& match) {
  const u64 ticks = match.ticks();
  u64 h = keel::hash64(&ticks, sizeof ticks);
  for (usize i = 0; i < match.fighter_count(); ++i) {
    FighterSave s;
    capture(match.fighter(i), s);
    const s32 values[] = {static_cast<s32>(s.index),
                          s.health,
                          s.x,
                          s.facing,
                          s.move,
                          static_cast<s32>(s.state),
                          static_cast<s32>(s.clip),
                          static_cast<s32>(s.frame),
                          s.out_of_health};
    h = keel::hash64(values, sizeof values, h);
  }
  const u64 events = match.events().size();
  return keel::hash64(&events, sizeof events, h);
}

keel::Status save_match(const Match& match, const std::filesystem::path& path) {
  std::vector<FighterSave> fighters(match.fighter_count());
  for (usize i = 0; i < fighters.size(); ++i) {
    capture(match.fighter(i), fighters[i]);
    if (i + 1 < fighters.size()) fighters[i].next = &fighters[i + 1];
    const Fighter* t = match.fighter(i).target;
    if (t != nullptr) fighters[i].target = &fighters[t->index()];
  }
  MatchSave root;
  root.seed = match.seed();
  root.ticks = match.ticks();
  root.fighters = static_cast<u32>(fighters.size());
  root.first = fighters.empty() ? nullptr : &fighters[0];
  keel::save::SaveFile file(match_save_system());
  keel::Status st = file.begin_save(path);
  if (st) {
    keel::save::ClientHeader header;
    header.level_name = "rumble-arena";
    header.level_version = kLevelVersion;
    header.extra = keel::to_buffer(fmt::format("tick {}", match.ticks()));
    file.set_header(std::move(header));
    file.declare_object(&root);
    st = file.process_objects();
  }
  return file.end(st);
}

keel::Result<std::unique_ptr<Match>> load_match(const std::filesystem::path& path,
                                                MatchSetup setup) {
  keel::save::SaveFile file(match_save_system());
  keel::Status st = file.begin_load(path);
  if (st && file.header().level_version != kLevelVersion) {
    st = keel::fail(keel::ErrorCode::kRefused, "level changed: arena version {} (now {})",
                    file.header().level_version, kLevelVersion);
  }
  if (st) st = file.process_objects();
  st = file.end(st);
  if (!st) return keel::Unexpected(st.error());
  auto objects = file.take_objects();
  auto* root = objects.empty() ? nullptr : dynamic_cast<MatchSave*>(objects[0].get());
  if (root == nullptr) return keel::fail(keel::ErrorCode::kCorrupt, "no match in the save");
  if (root->seed != setup.seed) {
    return keel::fail(keel::ErrorCode::kRefused, "save is of seed {}, setup has {}", root->seed,
                      setup.seed);
  }
  auto match = Match::create(std::move(setup));
  if (!match) return keel::Unexpected(match.error());
  (*match)->advance_to(root->ticks);
  usize i = 0;
  for (FighterSave* s = root->first; s != nullptr; s = s->next, ++i) {
    if (i >= (*match)->fighter_count()) break;
    FighterSave now;
    capture((*match)->fighter(i), now);
    const Fighter* t = (*match)->fighter(i).target;
    const bool target_ok = (s->target == nullptr) == (t == nullptr) &&
                           (t == nullptr || s->target->index == t->index());
    if (!same(*s, now) || !target_ok) {
      return keel::fail(keel::ErrorCode::kRefused,
                        "fighter {} does not match the save at tick {} (data or code changed)", i,
                        root->ticks);
    }
  }
  if (i != root->fighters || i != (*match)->fighter_count()) {
    return keel::fail(keel::ErrorCode::kRefused, "the save has {} fighters, the match {}",
                      root->fighters, (*match)->fighter_count());
  }
  return std::move(*match);
}

}  // namespace rumble
