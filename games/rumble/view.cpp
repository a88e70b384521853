#include "view.h"

#include "log_printer.h"
#include "poses.h"

#include "keel/assets/texture.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace rumble {
namespace {

using keel::f32;
using keel::s32;
using keel::usize;
using keel::platform::BlendMode;
using keel::platform::Color;
using keel::spatial::Vec2;

constexpr u64 kSparkTicks = 12;  // a landed strike sparks this long
constexpr u64 kFlashTicks = 8;   // and the fighter hit flashes this long
constexpr u64 kFightBanner = 60;
// The disc's opaque middle: limbs and panels sample it, so every shape is one texture (and the
// frame one batch for the shapes, one per font).
constexpr keel::platform::UvRect kFlat{0.46f, 0.46f, 0.54f, 0.54f};

// The fighters' colours by match index (the roster has no colours): front limbs, back limbs are
// darker.
constexpr Color kColours[] = {
    {90, 170, 255, 255}, {255, 125, 80, 255}, {150, 230, 120, 255}, {230, 200, 90, 255}};

Color scaled(Color c, f32 k) {
  const auto m = [k](keel::u8 v) {
    return static_cast<keel::u8>(std::clamp(static_cast<f32>(v) * k, 0.0f, 255.0f));
  };
  return {m(c.r), m(c.g), m(c.b), c.a};
}
Color towards(Color a, Color b, f32 w) {
  const auto m = [w](keel::u8 x, keel::u8 y) {
    return static_cast<keel::u8>(static_cast<f32>(x) + (static_cast<f32>(y) - x) * w);
  };
  return {m(a.r, b.r), m(a.g, b.g), m(a.b, b.b), m(a.a, b.a)};
}

template <typename T>
keel::Result<const T*> find_asset(const keel::pack::LoadedPack& pack, std::string_view name,
                                  std::string_view type) {
  const keel::pack::LoadedPack::Asset* a = pack.find_entry(keel::string_hash(name));
  if (a == nullptr || a->type_hash != keel::pack::type_hash(type)) {
    return keel::fail(keel::ErrorCode::kNotFound, "the pack has no {} `{}`", type, name);
  }
  return static_cast<const T*>(a->asset);
}

// The alias a fighter's current clip plays for (the roster's Animation lines), or "Stance".
std::string_view alias_playing(const Fighter& f) {
  const keel::fsm::AnimationClip* clip = f.animation.clip();
  if (clip == nullptr) return "Stance";
  for (const auto& [alias, name] : f.spec().animation_names) {
    if (name == clip->name) return alias;
  }
  return "Stance";
}

}  // namespace

keel::Result<std::unique_ptr<View>> View::create(keel::platform::Renderer& renderer,
                                                 const keel::pack::LoadedPack& pack) {
  auto disc = find_asset<keel::assets::Texture>(pack, "disc", "Texture");
  auto sans = find_asset<keel::assets::FontView>(pack, "sans", "Font");
  auto sans_atlas = find_asset<keel::assets::Texture>(pack, "sans_atlas", "Texture");
  auto title = find_asset<keel::assets::FontView>(pack, "title", "Font");
  auto title_atlas = find_asset<keel::assets::Texture>(pack, "title_atlas", "Texture");
  if (!disc) return keel::Unexpected(disc.error());
  if (!sans) return keel::Unexpected(sans.error());
  if (!sans_atlas) return keel::Unexpected(sans_atlas.error());
  if (!title) return keel::Unexpected(title.error());
  if (!title_atlas) return keel::Unexpected(title_atlas.error());
  std::unique_ptr<View> view(new View(renderer));
  keel::Result<keel::platform::TextureId> disc_id = renderer.add_texture(**disc);
  if (!disc_id) return keel::Unexpected(disc_id.error());
  keel::Result<keel::platform::FontId> sans_id = renderer.add_font(**sans, **sans_atlas);
  if (!sans_id) return keel::Unexpected(sans_id.error());
  keel::Result<keel::platform::FontId> title_id = renderer.add_font(**title, **title_atlas);
  if (!title_id) return keel::Unexpected(title_id.error());
  view->disc_ = *disc_id;
  view->sans_ = *sans_id;
  view->title_ = *title_id;
  view->sans_view_ = *sans;
  view->title_view_ = *title;
  const keel::platform::TextureId used[] = {*disc_id};
  renderer.prewarm(used);
  return view;
}

std::string_view View::alias_of(usize fighter) const {
  return fighter < looks_.size() ? looks_[fighter].alias : std::string_view{};
}

void View::text(keel::platform::FontId font, const keel::assets::FontView& measure,
                std::string_view line, Vec2 pen, Color colour, bool centred) {
  if (centred) pen.x -= static_cast<f32>(measure.measure(line)) * 0.5f;
  renderer_.text(font, line, pen, colour);
  if (string_count_ == strings_.size()) strings_.emplace_back();
  strings_[string_count_++].assign(line);  // keeps its capacity frame to frame
}

void View::follow_log(const Match& match) {
  // The log's last lines change only when events are added (or a restore replaces them): they
  // are formatted then, not every frame.
  const auto& events = match.events();
  const u64 last_tick = events.empty() ? 0 : events.back().tick;
  if (&match == log_match_ && events.size() == log_events_ && last_tick == log_last_tick_) return;
  log_match_ = &match;
  log_events_ = events.size();
  log_last_tick_ = last_tick;
  log_lines_.clear();
  for (usize i = events.size(); i-- > 0 && log_lines_.size() < kLogLines;) {
    std::string line = format_event(match, events[i], {});
    if (!line.empty()) log_lines_.push_back(std::move(line));
  }
  std::reverse(log_lines_.begin(), log_lines_.end());
  knock_out_ = std::any_of(events.begin(), events.end(),
                           [](const MatchEvent& e) { return e.kind == EventKind::kKnockOut; });
}

void View::panel(Vec2 at, Vec2 size, Color c) {
  renderer_.sprite({.texture = disc_,
                    .position = at + size * 0.5f,
                    .size = size,
                    .color = c,
                    .uv = kFlat,
                    .screen = true});
}

void View::limb(Vec2 a, Vec2 b, f32 width, Color c) {
  const Vec2 d = b - a;
  const f32 length = std::sqrt(d.x * d.x + d.y * d.y);
  renderer_.sprite({.texture = disc_,
                    .position = (a + b) * 0.5f,
                    .size = {length, width},
                    .rotation = std::atan2(d.y, d.x),
                    .color = c,
                    .uv = kFlat,
                    .screen = true});
}

void View::joint(Vec2 at, f32 radius, Color c, BlendMode blend) {
  renderer_.sprite({.texture = disc_,
                    .position = at,
                    .size = {radius * 2, radius * 2},
                    .color = c,
                    .blend = blend,
                    .screen = true});
}

void View::draw(const Match& match) {
  string_count_ = 0;
  if (looks_.size() != match.fighter_count()) looks_.assign(match.fighter_count(), Look{});
  draw_arena();
  // The fighter further back first; a fighter mid-attack in front of the other.
  for (usize i = match.fighter_count(); i-- > 0;) draw_fighter(match, i);
  draw_sparks(match);
  draw_hud(match);
}

void View::draw_arena() {
  const f32 w = static_cast<f32>(kWidth);
  panel({0, 0}, {w, kGroundY}, {26, 22, 40, 255});          // the hall
  panel({0, kGroundY - 220}, {w, 220}, {34, 30, 52, 255});  // the crowd's wall
  panel({0, kGroundY}, {w, static_cast<f32>(kHeight) - kGroundY}, {48, 40, 36, 255});
  panel({0, kGroundY}, {w, 4}, {120, 100, 80, 255});  // the floor's edge
  // The arena's bounds: posts at +-kArenaHalfWidth.
  for (const s32 x : {-kArenaHalfWidth, kArenaHalfWidth}) {
    panel({screen_x(x) - 4, kGroundY - 150}, {8, 150}, {140, 130, 150, 255});
  }
  panel({screen_x(-kArenaHalfWidth), kGroundY - 110},
        {screen_x(kArenaHalfWidth) - screen_x(-kArenaHalfWidth), 3},
        {170, 60, 60, 200});  // the rope
}

void View::draw_fighter(const Match& match, usize index) {
  const Fighter& f = match.fighter(index);
  Look& look = looks_[index];
  look.alias = alias_playing(f);
  if (look.seen) look.walked += static_cast<f32>(std::abs(f.x - look.last_x));
  look.last_x = f.x;
  look.seen = true;

  const keel::fsm::AnimationClip* clip = f.animation.clip();
  const f32 t =
      clip != nullptr && clip->frame_count > 1
          ? static_cast<f32>(f.animation.frame()) / static_cast<f32>(clip->frame_count - 1)
          : 0.0f;
  Pose pose = pose_at(look.alias, t);
  if (look.alias == "Stance") pose = with_walk(pose, look.walked);
  // Bigger fighters are drawn bigger (health as a stand-in for size: the Brute has 120).
  const f32 scale =
      kFigureScale * std::clamp(static_cast<f32>(f.spec().health) / 100.0f, 0.9f, 1.2f);
  const Skeleton s = skeleton(pose, {screen_x(f.x), kGroundY}, f.facing, scale);

  Color front = kColours[index % std::size(kColours)];
  if (match.over() && match.winner() != index) front = towards(front, {110, 110, 120, 255}, 0.7f);
  // Flash when hit in the last few ticks.
  const auto& events = match.events();
  for (usize i = events.size(); i-- > 0 && events[i].tick + kFlashTicks > match.ticks();) {
    if (events[i].kind == EventKind::kDamage && events[i].fighter == static_cast<s32>(index)) {
      const f32 age = static_cast<f32>(match.ticks() - events[i].tick) / kFlashTicks;
      front = towards(front, {255, 255, 255, 255}, 0.8f * (1 - age));
      break;
    }
  }
  const Color back = scaled(front, 0.6f);
  const f32 limb_w = 5.5f * scale;
  // Shadow on the floor.
  renderer_.sprite({.texture = disc_,
                    .position = {screen_x(f.x), kGroundY + 6},
                    .size = {30 * scale, 7 * scale},
                    .color = {0, 0, 0, 110},
                    .screen = true});
  limb(s.hip, s.back_knee, limb_w, back);
  limb(s.back_knee, s.back_foot, limb_w * 0.9f, back);
  limb(s.neck, s.back_elbow, limb_w * 0.85f, back);
  limb(s.back_elbow, s.back_hand, limb_w * 0.8f, back);
  joint(s.back_hand, limb_w * 0.75f, back);
  limb(s.hip, s.neck, limb_w * 1.6f, front);  // the torso
  joint(s.head, kHeadRadius * scale, front);
  limb(s.hip, s.front_knee, limb_w, front);
  limb(s.front_knee, s.front_foot, limb_w * 0.9f, front);
  limb(s.neck, s.front_elbow, limb_w * 0.85f, front);
  limb(s.front_elbow, s.front_hand, limb_w * 0.8f, front);
  joint(s.front_hand, limb_w * 0.75f, front);
}

void View::draw_sparks(const Match& match) {
  const auto& events = match.events();
  for (usize i = events.size(); i-- > 0 && events[i].tick + kSparkTicks > match.ticks();) {
    const MatchEvent& e = events[i];
    if (e.kind != EventKind::kDamage || e.fighter < 0 ||
        static_cast<usize>(e.fighter) >= match.fighter_count()) {
      continue;
    }
    const Fighter& hit = match.fighter(static_cast<usize>(e.fighter));
    const f32 age = static_cast<f32>(match.ticks() - e.tick) / kSparkTicks;
    const Vec2 at{screen_x(hit.x) - static_cast<f32>(hit.facing) * 14, kGroundY - 150};
    const f32 r = 18 + 60 * age;
    const keel::u8 alpha = static_cast<keel::u8>(255 * (1 - age));
    joint(at, r, {255, 170, 80, alpha}, BlendMode::kAdd);
    joint(at, r * 0.45f, {255, 255, 220, alpha}, BlendMode::kAdd);
  }
}

void View::draw_hud(const Match& match) {
  const f32 w = static_cast<f32>(kWidth);
  const Color white{235, 235, 245, 255};
  // Health bars: the first fighter on the left, the second on the right (filling from the
  // middle outwards, as fighting games do). Shapes first, then the strings (fewer batches).
  const f32 bar_w = 480;
  const usize bars = std::min<usize>(match.fighter_count(), 2);
  const auto bar_at = [&](usize i) { return Vec2{i == 0 ? 40.0f : w - 40 - bar_w, 48}; };
  for (usize i = 0; i < bars; ++i) {
    const Fighter& f = match.fighter(i);
    const f32 fraction = std::clamp(
        static_cast<f32>(f.health) / std::max(1.0f, static_cast<f32>(f.spec().health)), 0.0f, 1.0f);
    const Vec2 at = bar_at(i);
    panel(at - Vec2{3, 3}, {bar_w + 6, 24}, {0, 0, 0, 200});
    panel(at, {bar_w, 18}, {90, 30, 30, 255});
    const f32 filled = bar_w * fraction;
    panel({i == 0 ? at.x + bar_w - filled : at.x, at.y}, {filled, 18},
          towards({230, 60, 50, 255}, {250, 220, 60, 255}, fraction));
  }
  const f32 log_top = kGroundY + 30;
  panel({20, log_top - 6}, {w - 40, 20.0f * kLogLines + 12}, {0, 0, 0, 120});

  for (usize i = 0; i < bars; ++i) {
    const Fighter& f = match.fighter(i);
    const Vec2 at = bar_at(i);
    const Color name = kColours[i % std::size(kColours)];
    std::string label = fmt::format("{}  {}", f.name(), f.health);
    const f32 x = i == 0 ? at.x : at.x + bar_w - static_cast<f32>(sans_view_->measure(label));
    text(sans_, *sans_view_, std::move(label), {x, at.y - 10}, name);
  }
  const u64 seconds = match.ticks() / 60;
  text(sans_, *sans_view_, fmt::format("{}:{:02}", seconds / 60, seconds % 60), {w * 0.5f, 66},
       white, true);

  // The last lines of the fight log.
  follow_log(match);
  for (usize k = 0; k < log_lines_.size(); ++k) {
    text(sans_, *sans_view_, log_lines_[k], {34, log_top + 14 + 20.0f * static_cast<f32>(k)},
         {200, 200, 215, 255});
  }

  // Banners.
  const Vec2 centre{w * 0.5f, 220};
  if (match.over()) {
    text(title_, *title_view_, knock_out_ ? "K.O.!" : "TIME", centre, {255, 220, 90, 255}, true);
    const std::optional<u32> winner = match.winner();
    text(sans_, *sans_view_,
         winner ? fmt::format("{} wins", match.fighter(*winner).name()) : std::string("a draw"),
         centre + Vec2{0, 40}, white, true);
  } else if (match.ticks() < kFightBanner) {
    text(title_, *title_view_, "FIGHT!", centre, {255, 240, 200, 255}, true);
  }
}

}  // namespace rumble
