#include "match_save.h"

#include "keel/core/hash.h"

#include <fmt/format.h>

#include <cstring>
#include <unordered_map>

namespace rumble {

namespace save = keel::save;

KEEL_SAVE_TEMPLATE(FsmStateSave) = {
    KEEL_SAVEDEF(FsmStateSave),
    KEEL_SAVEDATA(FsmStateSave, fsm),
    KEEL_SAVEDATA(FsmStateSave, state),
    KEEL_SAVEDATA(FsmStateSave, behavior),
    KEEL_SAVEDATA(FsmStateSave, flags),
    KEEL_SAVEDATA(FsmStateSave, transitions),
    KEEL_SAVEEND(),
};

KEEL_SAVE_TEMPLATE(AnimatorSave) = {
    KEEL_SAVEDEF(AnimatorSave),
    KEEL_SAVEDATA(AnimatorSave, clip),
    KEEL_SAVEDATA(AnimatorSave, frame),
    KEEL_SAVEDATA(AnimatorSave, blend_left),
    KEEL_SAVEDATA(AnimatorSave, generation),
    KEEL_SAVEDATA(AnimatorSave, reverse),
    KEEL_SAVEDATA(AnimatorSave, repeat),
    KEEL_SAVEDATA(AnimatorSave, holding),
    KEEL_SAVEEND(),
};

KEEL_SAVE_TEMPLATE(LinkSave) = {
    KEEL_SAVEDEF(LinkSave),         KEEL_SAVEDATA(LinkSave, name), KEEL_SAVEDATA(LinkSave, flags),
    KEEL_SAVEPOBJ(LinkSave, other), KEEL_SAVEPOBJ(LinkSave, next), KEEL_SAVEEND(),
};

KEEL_SAVE_TEMPLATE(FighterSave) = {
    KEEL_SAVEDEF(FighterSave),
    KEEL_SAVEDATA(FighterSave, index),
    KEEL_SAVEDATA(FighterSave, health),
    KEEL_SAVEDATA(FighterSave, x),
    KEEL_SAVEDATA(FighterSave, facing),
    KEEL_SAVEDATA(FighterSave, move),
    KEEL_SAVEDATA(FighterSave, out_of_health),
    KEEL_SAVEDATA(FighterSave, clip_started),
    KEEL_SAVESTRUCT(FighterSave, brain),
    KEEL_SAVESTRUCT(FighterSave, animation),
    KEEL_SAVEPOBJ(FighterSave, target),
    KEEL_SAVEPOBJ(FighterSave, links),
    KEEL_SAVEPOBJ(FighterSave, next),
    KEEL_SAVEEND(),
};

KEEL_SAVE_TEMPLATE(MatchSave) = {
    KEEL_SAVEDEF(MatchSave),
    KEEL_SAVEDATA(MatchSave, seed),
    KEEL_SAVEDATA(MatchSave, ticks),
    KEEL_SAVEDATA(MatchSave, tick),
    KEEL_SAVEDATA(MatchSave, fsm_random),
    KEEL_SAVEDATA(MatchSave, fighters),
    KEEL_SAVEDATA(MatchSave, winner),
    KEEL_SAVEDATA(MatchSave, over),
    KEEL_SAVEPOBJ(MatchSave, first),
    KEEL_DONTSAVE(MatchSave, inputs),   // custom data (save/load)
    KEEL_DONTSAVE(MatchSave, strings),  // custom data
    KEEL_DONTSAVE(MatchSave, events),   // custom data
    KEEL_SAVEEND(),
};

namespace {

// Bumped with every change of what a rumble save means (2: the direct restore).
constexpr u32 kLevelVersion = kMatchSaveLevelVersion;
// The bytes of one saved event: tick, kind, fighter, other, a, b, value, value2.
constexpr usize kEventBytes = 8 + 1 + 4 * 6;

bool is_bool(keel::u8 b) { return b <= 1; }

class Writer {
 public:
  template <class T>
  void value(const T& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    const auto* p = reinterpret_cast<const std::byte*>(&v);
    bytes.insert(bytes.end(), p, p + sizeof v);
  }
  void text(std::string_view s) {
    value(static_cast<u32>(s.size()));
    const auto* p = reinterpret_cast<const std::byte*>(s.data());
    bytes.insert(bytes.end(), p, p + s.size());
  }
  keel::ByteBuffer bytes;
};

// A count read from the file, checked against what the object can still read: each element
// takes at least `min_bytes`.
keel::Status get_count(save::SaveFile& file, usize min_bytes, u32& count, const char* what) {
  if (keel::Status s = file.get_value(count); !s) return s;
  if (static_cast<u64>(count) * min_bytes > file.readable_bound()) {
    return keel::fail(keel::ErrorCode::kCorrupt, "match save: {} {} cannot fit in the file", count,
                      what);
  }
  return keel::ok();
}

}  // namespace

keel::Status FighterSave::load(save::SaveFile& file) {
  if (keel::Status s = SaveObject::load(file); !s) return s;
  if (!is_bool(out_of_health) || !is_bool(animation.reverse) || !is_bool(animation.repeat) ||
      !is_bool(animation.holding)) {
    return keel::fail(keel::ErrorCode::kCorrupt, "fighter {}: a flag is neither 0 nor 1", index);
  }
  return keel::ok();
}

keel::Status MatchSave::save(save::SaveFile& file) {
  if (keel::Status s = SaveObject::save(file); !s) return s;
  Writer w;
  w.value(static_cast<u32>(inputs.size()));
  for (u64 v : inputs) w.value(v);
  w.value(static_cast<u32>(strings.size()));
  for (const std::string& s : strings) w.text(s);
  w.value(static_cast<u32>(events.size()));
  for (const Event& e : events) {
    w.value(e.tick);
    w.value(e.kind);
    w.value(e.fighter);
    w.value(e.other);
    w.value(e.a);
    w.value(e.b);
    w.value(e.value);
    w.value(e.value2);
  }
  return file.put(w.bytes);
}

keel::Status MatchSave::load(save::SaveFile& file) {
  if (keel::Status s = SaveObject::load(file); !s) return s;
  if (!is_bool(over)) return keel::fail(keel::ErrorCode::kCorrupt, "match save: bad 'over' flag");
  u32 count = 0;
  if (keel::Status s = get_count(file, sizeof(u64), count, "input words"); !s) return s;
  inputs.resize(count);
  for (u64& v : inputs) {
    if (keel::Status s = file.get_value(v); !s) return s;
  }
  if (keel::Status s = get_count(file, sizeof(u32), count, "strings"); !s) return s;
  strings.resize(count);
  for (std::string& text : strings) {
    u32 length = 0;
    if (keel::Status s = get_count(file, 1, length, "string bytes"); !s) return s;
    text.resize(length);
    if (keel::Status s = file.get(std::as_writable_bytes(std::span(text.data(), text.size())));
        !s) {
      return s;
    }
  }
  if (keel::Status s = get_count(file, kEventBytes, count, "events"); !s) return s;
  events.resize(count);
  for (Event& e : events) {
    keel::Status s = file.get_value(e.tick);
    if (s) s = file.get_value(e.kind);
    if (s) s = file.get_value(e.fighter);
    if (s) s = file.get_value(e.other);
    if (s) s = file.get_value(e.a);
    if (s) s = file.get_value(e.b);
    if (s) s = file.get_value(e.value);
    if (s) s = file.get_value(e.value2);
    if (!s) return s;
    if (e.a > strings.size() || e.b > strings.size() ||
        e.kind > static_cast<keel::u8>(EventKind::kTimeUp)) {
      return keel::fail(keel::ErrorCode::kCorrupt, "match save: event at tick {} is invalid",
                        e.tick);
    }
  }
  return keel::ok();
}

const save::SaveSystem& match_save_system() {
  static const save::SaveSystem system({save::type<MatchSave>(), save::type<FighterSave>(),
                                        save::type<LinkSave>(), save::structure<FsmStateSave>(),
                                        save::structure<AnimatorSave>()});
  return system;
}

u64 state_hash(const Match& match) {
  const MatchState s = match.capture();
  keel::Hasher64 h;
  auto add = [&](auto v) { h.update(&v, sizeof v); };
  auto text = [&](std::string_view t) {
    add(t.size());
    h.update(t.data(), t.size());
  };
  add(s.seed);
  add(s.ticks);
  add(s.tick);
  add(s.fsm_random);
  add(s.over);
  add(s.winner.value_or(~0u));
  add(s.inputs.size());
  for (u64 v : s.inputs) add(v);
  for (const FighterState& f : s.fighters) {
    add(f.health);
    add(f.x);
    add(f.facing);
    add(f.move);
    add(f.out_of_health);
    add(f.clip_started);
    add(f.target);
    add(f.brain.fsm);
    add(f.brain.state);
    add(f.brain.behavior);
    add(f.brain.flags);
    add(f.brain.transitions);
    add(f.animation.clip);
    add(f.animation.frame);
    add(f.animation.blend_left);
    add(f.animation.generation);
    add(f.animation.reverse);
    add(f.animation.repeat);
    add(f.animation.holding);
    add(f.links.size());
    for (const FighterState::Link& l : f.links) {
      add(l.other);
      add(l.name);
      add(l.flags);
    }
  }
  add(s.events.size());
  for (const MatchEvent& e : s.events) {
    add(e.tick);
    add(e.kind);
    add(e.fighter);
    add(e.other);
    text(e.a);
    text(e.b);
    add(e.value);
    add(e.value2);
  }
  return h.digest();
}

keel::Status save_match(const Match& match, const std::filesystem::path& path) {
  const MatchState state = match.capture();
  const usize n = state.fighters.size();
  std::vector<FighterSave> fighters(n);
  usize link_count = 0;
  for (const FighterState& f : state.fighters) link_count += f.links.size();
  std::vector<LinkSave> links(link_count);  // sized once: the objects must not move
  usize next_link = 0;
  for (usize i = 0; i < n; ++i) {
    const FighterState& from = state.fighters[i];
    FighterSave& out = fighters[i];
    out.index = static_cast<u32>(i);
    out.health = from.health;
    out.x = from.x;
    out.facing = from.facing;
    out.move = from.move;
    out.out_of_health = from.out_of_health ? 1 : 0;
    out.clip_started = from.clip_started;
    out.brain = {from.brain.fsm, from.brain.state, from.brain.behavior, from.brain.flags,
                 from.brain.transitions};
    out.animation = {from.animation.clip,
                     from.animation.frame,
                     from.animation.blend_left,
                     from.animation.generation,
                     static_cast<keel::u8>(from.animation.reverse),
                     static_cast<keel::u8>(from.animation.repeat),
                     static_cast<keel::u8>(from.animation.holding)};
    if (from.target >= 0) out.target = &fighters[static_cast<usize>(from.target)];
    if (i + 1 < n) out.next = &fighters[i + 1];
    LinkSave** tail = &out.links;
    for (const FighterState::Link& l : from.links) {
      LinkSave& link = links[next_link++];
      link.name = l.name;
      link.flags = l.flags;
      link.other = &fighters[l.other];
      *tail = &link;
      tail = &link.next;
    }
  }
  MatchSave root;
  root.seed = state.seed;
  root.ticks = state.ticks;
  root.tick = state.tick;
  root.fsm_random = state.fsm_random;
  root.fighters = static_cast<u32>(n);
  root.winner = state.winner ? static_cast<s32>(*state.winner) : -1;
  root.over = state.over ? 1 : 0;
  root.first = fighters.empty() ? nullptr : &fighters[0];
  root.inputs = state.inputs;
  std::unordered_map<std::string_view, u32> string_index;
  auto intern = [&](std::string_view text) -> u32 {
    if (text.empty()) return 0;
    auto [it, added] = string_index.try_emplace(text, static_cast<u32>(root.strings.size() + 1));
    if (added) root.strings.emplace_back(text);
    return it->second;
  };
  root.events.reserve(state.events.size());
  for (const MatchEvent& e : state.events) {
    root.events.push_back({e.tick, static_cast<keel::u8>(e.kind), e.fighter, e.other, intern(e.a),
                           intern(e.b), e.value, e.value2});
  }

  return write_match_save(root, path);
}

keel::Status write_match_save(MatchSave& root, const std::filesystem::path& path) {
  save::SaveFile file(match_save_system());
  keel::Status st = file.begin_save(path);
  if (st) {
    save::ClientHeader header;
    header.level_name = "rumble-arena";
    header.level_version = kLevelVersion;
    header.extra = keel::to_buffer(fmt::format("tick {}", root.ticks));
    file.set_header(std::move(header));
    file.declare_object(&root);
    st = file.process_objects();
  }
  return file.end(st);
}

namespace {

// The save's objects as a MatchState (views into `root`'s strings).
keel::Result<MatchState> to_state(const MatchSave& root, usize object_count) {
  MatchState s;
  s.seed = root.seed;
  s.ticks = root.ticks;
  s.tick = root.tick;
  s.fsm_random = root.fsm_random;
  s.over = root.over != 0;
  if (root.winner >= 0) s.winner = static_cast<u32>(root.winner);
  s.inputs = root.inputs;
  // Chains are walked at most as far as there are objects: a crafted cycle ends there.
  for (const FighterSave* f = root.first; f != nullptr; f = f->next) {
    if (s.fighters.size() >= object_count || f->index != s.fighters.size()) {
      return keel::fail(keel::ErrorCode::kCorrupt, "match save: the fighter list is invalid");
    }
    FighterState& out = s.fighters.emplace_back();
    out.health = f->health;
    out.x = f->x;
    out.facing = f->facing;
    out.move = f->move;
    out.out_of_health = f->out_of_health != 0;
    out.clip_started = f->clip_started;
    out.target = f->target != nullptr ? static_cast<s32>(f->target->index) : -1;
    out.brain = {f->brain.fsm, f->brain.state, f->brain.behavior, f->brain.flags,
                 f->brain.transitions};
    out.animation = {f->animation.clip,        f->animation.frame,        f->animation.blend_left,
                     f->animation.generation,  f->animation.reverse != 0, f->animation.repeat != 0,
                     f->animation.holding != 0};
    for (const LinkSave* l = f->links; l != nullptr; l = l->next) {
      if (out.links.size() >= object_count || l->other == nullptr) {
        return keel::fail(keel::ErrorCode::kCorrupt, "match save: a link list is invalid");
      }
      out.links.push_back({l->other->index, l->name, l->flags});
    }
  }
  if (s.fighters.size() != root.fighters) {
    return keel::fail(keel::ErrorCode::kCorrupt, "match save: {} fighters listed, {} saved",
                      root.fighters, s.fighters.size());
  }
  auto string_at = [&](u32 i) -> std::string_view {
    return i == 0 ? std::string_view() : std::string_view(root.strings[i - 1]);
  };
  s.events.reserve(root.events.size());
  for (const MatchSave::Event& e : root.events) {
    s.events.push_back({.tick = e.tick,
                        .kind = static_cast<EventKind>(e.kind),
                        .fighter = e.fighter,
                        .other = e.other,
                        .a = string_at(e.a),
                        .b = string_at(e.b),
                        .value = e.value,
                        .value2 = e.value2});
  }
  return s;
}

}  // namespace

namespace {

// Steps 2..9 of a load begun by `begun` (begin_load or begin_load_bytes), then the restore.
keel::Status finish_load(save::SaveFile& file, keel::Status st, Match& match) {
  if (st && file.header().level_version != kLevelVersion) {
    st = keel::fail(keel::ErrorCode::kRefused, "level changed: arena version {} (now {})",
                    file.header().level_version, kLevelVersion);
  }
  if (st) st = file.process_objects();
  st = file.end(st);
  if (!st) return st;
  const auto objects = file.take_objects();
  const auto* root = objects.empty() ? nullptr : dynamic_cast<const MatchSave*>(objects[0].get());
  if (root == nullptr) return keel::fail(keel::ErrorCode::kCorrupt, "no match in the save");
  keel::Result<MatchState> state = to_state(*root, objects.size());
  if (!state) return keel::Unexpected(state.error());
  return match.restore(*state);
}

}  // namespace

keel::Status load_into(Match& match, const std::filesystem::path& path) {
  save::SaveFile file(match_save_system());
  keel::Status st = file.begin_load(path);
  return finish_load(file, st, match);
}

keel::Status load_into_bytes(Match& match, keel::ByteSpan bytes, save::LoadLimits limits) {
  save::SaveFile file(match_save_system());
  keel::Status st = file.begin_load_bytes(bytes, limits);
  return finish_load(file, st, match);
}

keel::Result<std::unique_ptr<Match>> load_match(const std::filesystem::path& path,
                                                MatchSetup setup) {
  auto match = Match::create(std::move(setup));
  if (!match) return keel::Unexpected(match.error());
  if (keel::Status st = load_into(**match, path); !st) return keel::Unexpected(st.error());
  return std::move(*match);
}

}  // namespace rumble
