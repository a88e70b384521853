#include "view.h"

#include "keel/assets/atlas.h"
#include "keel/assets/font.h"
#include "keel/assets/texture.h"
#include "keel/core/hash.h"
#include "keel/profile/profile.h"
#include "keel/spatial/group_culling.h"
#include "keel/world/components.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iterator>

namespace keel::voidfarer {
namespace {

using platform::BlendMode;
using platform::Color;
using spatial::Vec2;

constexpr f32 kMinShotPixels = 9;      // shots stay visible when zoomed out
constexpr f32 kMinParticlePixels = 3;  // so do particles
// The effects' sizes are small next to the ships (a spark of 0.12 units beside a fighter of 32):
// the dot is drawn this many times larger, and its soft edge keeps it a glow, not a square.
constexpr f32 kParticleScale = 12;

// The star field: three layers scrolled at these fractions of the camera's motion.
struct StarLayer {
  u32 count;
  f32 parallax;
  f32 min_size, max_size;  // pixels
  u8 brightness;
};
constexpr StarLayer kStarLayers[3] = {
    {220, 0.08f, 2, 3, 110},
    {110, 0.2f, 3, 5, 170},
    {40, 0.45f, 5, 8, 235},
};

// splitmix64: the star field is the same every run (no global random state).
u64 next_random(u64& state) {
  u64 z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
f32 unit_random(u64& state) {
  return static_cast<f32>(next_random(state) >> 40) / static_cast<f32>(1u << 24);
}

f32 wrap(f32 v, f32 size) {
  const f32 r = std::fmod(v, size);
  return r < 0 ? r + size : r;
}

Color hull_colour(f32 fraction) {
  if (fraction > 0.6f) return {90, 230, 120, 255};
  if (fraction > 0.3f) return {240, 200, 70, 255};
  return {240, 70, 60, 255};
}

template <typename T>
Result<const T*> find_asset(const pack::LoadedPack& pack, std::string_view name) {
  const T* asset = pack.find_as<T>(name);
  if (asset == nullptr) return fail(ErrorCode::kNotFound, "the pack has no {}", name);
  return asset;
}

}  // namespace

Result<std::unique_ptr<View>> View::create(platform::Renderer& renderer, const Sim& sim) {
  const pack::LoadedPack& pack = sim.pack();
  Result<const assets::FontView*> small = find_asset<assets::FontView>(pack, "sans_small");
  Result<const assets::Texture*> small_atlas =
      find_asset<assets::Texture>(pack, "sans_small_atlas");
  Result<const assets::FontView*> large = find_asset<assets::FontView>(pack, "sans_large");
  Result<const assets::Texture*> large_atlas =
      find_asset<assets::Texture>(pack, "sans_large_atlas");
  Result<const assets::AtlasView*> atlas = find_asset<assets::AtlasView>(pack, "sprites");
  Result<const assets::Texture*> dot = find_asset<assets::Texture>(pack, "dot");
  if (!small) return Unexpected(small.error());
  if (!small_atlas) return Unexpected(small_atlas.error());
  if (!large) return Unexpected(large.error());
  if (!large_atlas) return Unexpected(large_atlas.error());
  if (!atlas) return Unexpected(atlas.error());
  // The atlas names its texture by hash (the Atlas command makes "sprites_texture").
  const pack::LoadedPack::Asset* sheet_entry = pack.find_entry((*atlas)->texture_name_hash());
  if (sheet_entry == nullptr || sheet_entry->type_hash != pack::type_hash("Texture")) {
    return fail(ErrorCode::kNotFound, "the pack has no texture for the atlas `sprites`");
  }
  const auto* sheet = static_cast<const assets::Texture*>(sheet_entry->asset);
  if (sheet->width() != (*atlas)->width() || sheet->height() != (*atlas)->height()) {
    return fail(ErrorCode::kCorrupt, "atlas `sprites` is {}x{}, its texture {}x{}",
                (*atlas)->width(), (*atlas)->height(), sheet->width(), sheet->height());
  }
  if (!dot) return Unexpected(dot.error());
  const ByteSpan strings = sim.raw_asset("hud_text", "StringTable");
  if (strings.empty()) return fail(ErrorCode::kNotFound, "the pack has no StringTable hud_text");
  Result<pipeline::StringTableView> table = pipeline::StringTableView::parse(strings);
  if (!table) return Unexpected(table.error());
  if (table->language_count() == 0) {
    return fail(ErrorCode::kCorrupt, "StringTable hud_text has no language");
  }
  std::unique_ptr<View> view(new View(renderer));
  view->strings_ = *table;
  view->small_ = *small;
  view->large_ = *large;
  Result<platform::FontId> font = renderer.add_font(**small, **small_atlas);
  if (!font) return Unexpected(font.error());
  Result<platform::FontId> large_font = renderer.add_font(**large, **large_atlas);
  if (!large_font) return Unexpected(large_font.error());
  Result<platform::TextureId> sheet_id = renderer.add_texture(*sheet);
  if (!sheet_id) return Unexpected(sheet_id.error());
  Result<platform::TextureId> dot_id = renderer.add_texture(**dot);
  if (!dot_id) return Unexpected(dot_id.error());
  view->font_ = *font;
  view->large_font_ = *large_font;
  view->sheet_ = *sheet_id;
  view->dot_ = *dot_id;
  const platform::TextureId used[] = {*sheet_id, *dot_id};
  renderer.prewarm(used);

  // The atlas' frames, with the hashes Sprite components name them by.
  for (const assets::AtlasFrame& f : **atlas) {
    Frame frame;
    frame.full = f.name_hash;
    if (const usize slash = f.name.rfind('/'); slash != std::string_view::npos) {
      frame.folder = string_hash(f.name.substr(0, slash));
      frame.leaf = string_hash(f.name.substr(slash + 1));
    }
    // Half a texel in from each edge (the atlas' extruded padding covers the rest).
    const assets::AtlasUv uv = (*atlas)->uv(f);
    frame.uv = {uv.u0, uv.v0, uv.u1, uv.v1};
    view->frames_.push_back(frame);
  }
  view->fallback_uv_ = view->frame_uv("fallback");
  view->white_uv_ = view->frame_uv("white");
  // The white cell: sample its middle only (a flat colour at any size).
  const f32 tx = 1.0f / (*atlas)->width();
  const f32 ty = 1.0f / (*atlas)->height();
  const f32 cx = (view->white_uv_.u0 + view->white_uv_.u1) * 0.5f;
  const f32 cy = (view->white_uv_.v0 + view->white_uv_.v1) * 0.5f;
  view->white_uv_ = {cx - tx, cy - ty, cx + tx, cy + ty};

  u64 seed = 0x5EEDF00Dull;
  for (usize layer = 0; layer < 3; ++layer) {
    const StarLayer& l = kStarLayers[layer];
    for (u32 i = 0; i < l.count; ++i) {
      Star star;
      star.position = {unit_random(seed) * kWidth, unit_random(seed) * kHeight};
      star.size = l.min_size + (l.max_size - l.min_size) * unit_random(seed);
      const f32 tint = unit_random(seed);  // from warm white to blue white
      const u8 b = l.brightness;
      star.colour = {static_cast<u8>(b * (0.75f + 0.25f * tint)), static_cast<u8>(b * 0.85f),
                     static_cast<u8>(b * (1.0f - 0.2f * tint)), 255};
      view->stars_[layer].push_back(star);
    }
  }
  view->hud_lines_.reserve(8);
  return view;
}

platform::UvRect View::frame_uv(std::string_view name) const {
  const Hash h = string_hash(name);
  for (const Frame& f : frames_) {
    if (f.full == h) return f.uv;
  }
  return {};
}

const View::Frame* View::find_frame(StringId texture, StringId frame) const {
  for (const Frame& f : frames_) {
    if (frame.value == 0
            ? f.full == texture.value
            : (f.full == frame.value || (f.folder == texture.value && f.leaf == frame.value))) {
      return &f;
    }
  }
  return nullptr;
}

std::string_view View::text(std::string_view key) const {
  return strings_->find(language_, key).value_or(key);
}

bool View::set_language(std::string_view name) {
  const std::optional<usize> found = strings_->find_language(name);
  if (!found) return false;
  language_ = *found;
  return true;
}

void View::set_message(std::string title, std::string detail) {
  title_ = std::move(title);
  detail_ = std::move(detail);
}

void View::draw_stars() {
  const platform::Camera& camera = renderer_.camera();
  const Vec2 size{static_cast<f32>(kWidth), static_cast<f32>(kHeight)};
  for (usize layer = 0; layer < 3; ++layer) {
    const Vec2 shift = camera.position * (kStarLayers[layer].parallax * camera.zoom);
    for (const Star& s : stars_[layer]) {
      renderer_.sprite(
          {.texture = dot_,
           .position = {wrap(s.position.x - shift.x, size.x), wrap(s.position.y - shift.y, size.y)},
           .size = {s.size, s.size},
           .color = s.colour,
           .blend = BlendMode::kAdd,
           .screen = true});
    }
  }
}

void View::draw_particles(const Sim& sim) {
  // Only the particles on screen go to the renderer (the software rasteriser pays per triangle
  // even for clipped ones): copied into scratch spans that keep their capacity frame to frame.
  const platform::Camera& camera = renderer_.camera();
  const f32 min_size = kMinParticlePixels / camera.zoom;
  const Vec2 half = camera.viewport * (0.5f / camera.zoom);
  const world::ParticleSystem& particles = sim.particles();
  particle_positions_.clear();
  particle_colours_.clear();
  particle_sizes_.clear();
  for (usize p = 0; p < particles.pool_count(); ++p) {
    const world::ParticlePool& pool = particles.pool(p);
    const std::span<const Vec2> positions = pool.positions();
    const std::span<const Color> colours = pool.colours();
    const std::span<const f32> sizes = pool.sizes();
    for (usize i = 0; i < positions.size(); ++i) {
      const f32 size = std::max(sizes[i] * kParticleScale, min_size);
      const Vec2 d = positions[i] - camera.position;
      const f32 r = size * 0.5f;
      if (std::abs(d.x) > half.x + r || std::abs(d.y) > half.y + r) continue;
      particle_positions_.push_back(positions[i]);
      particle_colours_.push_back(colours[i]);
      particle_sizes_.push_back(size);
    }
  }
  renderer_.particles(dot_, particle_positions_, particle_colours_, particle_sizes_,
                      BlendMode::kAdd);
}

void View::draw_sprites(const Sim& sim) {
  const world::World& w = sim.world();
  auto& mw = const_cast<world::World&>(w);  // store<C>() makes missing stores
  items_.clear();
  u32 order = 0;
  const platform::Camera& camera = renderer_.camera();
  const Vec2 half = camera.viewport * (0.5f / camera.zoom);
  const f32 margin = kMinShotPixels / camera.zoom;
  for (const world::Entity e : mw.store<world::Sprite>().entities()) {
    const world::Sprite* s = w.get<world::Sprite>(e);
    const world::Transform* t = w.get<world::Transform>(e);
    if (s == nullptr || t == nullptr) continue;
    // Off screen: not drawn (a rotated sprite stays inside its longest side plus the margin).
    const Vec2 d = t->position - camera.position;
    const f32 r = std::max(s->size.x, s->size.y) * 2 + margin;
    if (std::abs(d.x) > half.x + r || std::abs(d.y) > half.y + r) continue;
    items_.push_back({s->layer, order++, e});
  }
  std::sort(items_.begin(), items_.end(), [](const Item& a, const Item& b) {
    return a.layer != b.layer ? a.layer < b.layer : a.order < b.order;
  });
  fallback_sprites_ = 0;
  const f32 zoom = camera.zoom;
  for (const Item& item : items_) {
    const world::Sprite& s = *w.get<world::Sprite>(item.entity);
    const world::Transform& t = *w.get<world::Transform>(item.entity);
    const Frame* frame = find_frame(s.texture, s.frame);
    if (frame == nullptr) ++fallback_sprites_;
    platform::Sprite out{.texture = sheet_,
                         .position = t.position,
                         .size = s.size,
                         .rotation = t.angle,
                         .color = s.colour,
                         .uv = frame != nullptr ? frame->uv : fallback_uv_};
    const world::Body* body = w.get<world::Body>(item.entity);
    const bool shot = body != nullptr && (body->def.group == spatial::kAlliedFire ||
                                          body->def.group == spatial::kEnemyFire);
    if (shot) {
      // Shots never shrink below a few pixels; long ones point where they fly.
      const f32 least = kMinShotPixels / zoom;
      if (s.size.x == s.size.y) {
        out.size = {std::max(s.size.x * 1.5f, least), std::max(s.size.y * 1.5f, least)};
      } else {
        if (spatial::length_squared(t.velocity) > 0) {
          out.rotation = std::atan2(t.velocity.y, t.velocity.x);
        }
        out.size = {std::max(std::max(s.size.x, s.size.y) * 2, least),
                    std::max(std::min(s.size.x, s.size.y) * 1.5f, 0.5f * least)};
      }
    }
    renderer_.sprite(out);
  }
}

void View::panel(Vec2 at, Vec2 size, Color colour) {
  renderer_.sprite({.texture = sheet_,
                    .position = at + size * 0.5f,
                    .size = size,
                    .color = colour,
                    .uv = white_uv_,
                    .screen = true});
}

void View::bar(Vec2 at, Vec2 size, f32 fraction, Color fill) {
  fraction = std::clamp(fraction, 0.0f, 1.0f);
  panel(at - Vec2{2, 2}, size + Vec2{4, 4}, {0, 0, 0, 170});
  panel(at, size, {60, 60, 80, 200});
  if (fraction > 0) panel(at, {size.x * fraction, size.y}, fill);
}

template <typename... Args>
void View::hud_text(Vec2 pen, Color colour, bool right_aligned, fmt::format_string<Args...> format,
                    Args&&... args) {
  // The lines' strings are reused frame to frame: no allocation once they are long enough.
  if (hud_count_ == hud_lines_.size()) hud_lines_.emplace_back();
  std::string& line = hud_lines_[hud_count_++];
  line.clear();
  fmt::format_to(std::back_inserter(line), format, std::forward<Args>(args)...);
  if (right_aligned) pen.x -= static_cast<f32>(small_->measure(line));
  renderer_.text(font_, line, pen, colour);
}

void View::draw_hud(const Sim& sim) {
  const FrameSummary s = sim.summary();
  const world::World& w = sim.world();
  auto& mw = const_cast<world::World&>(w);
  hud_count_ = 0;
  const Color white{230, 235, 255, 255};
  const Color label{150, 170, 210, 255};

  // Bars first (the sheet's white cell, one batch with the sprites), the strings after.
  const f32 hull = s.hull_max > 0 ? s.hull / s.hull_max : 0;
  const Vec2 hull_at{20, static_cast<f32>(kHeight) - 34};
  // The bar starts after the label, whose width depends on the language ("HULL", "COQUE").
  const f32 hull_bar_x = std::max(52.0f, static_cast<f32>(small_->measure(text("HULL"))) + 10.0f);
  bar(hull_at + Vec2{hull_bar_x, 0}, {220, 14}, hull, hull_colour(hull));
  panel({static_cast<f32>(kWidth) - 196, 12}, {184, 70}, {0, 0, 0, 120});

  // The HudElements of live entities: bars (a Health's fraction of the hp first seen, when the
  // element has no value of its own) labelled with their name's text, texts, atlas icons.
  struct Label {
    std::string_view text;
    f32 fraction;
    Vec2 at;
    Color colour;
  };
  Label labels[8];
  usize label_count = 0;
  for (const world::Entity e : mw.store<world::HudElement>().entities()) {
    const world::HudElement* h = w.get<world::HudElement>(e);
    if (h == nullptr || w.dying(e)) continue;
    const std::string_view words = strings_->find(language_, h->content.value).value_or("");
    if (h->kind == world::HudElement::Kind::kIcon) {
      const Frame* frame = find_frame(h->content, {});
      if (frame == nullptr) ++fallback_sprites_;
      const Vec2 size = h->size.x > 0 ? h->size : Vec2{32, 32};
      renderer_.sprite({.texture = sheet_,
                        .position = h->position + size * 0.5f,
                        .size = size,
                        .color = h->colour,
                        .uv = frame != nullptr ? frame->uv : fallback_uv_,
                        .screen = true});
      continue;
    }
    if (h->kind == world::HudElement::Kind::kText) {
      // The position is the text's top-left corner; the pen is on the baseline below it.
      if (label_count < std::size(labels)) {
        labels[label_count++] = {words, -1, h->position + Vec2{0, 13}, h->colour};
      }
      continue;
    }
    f32 fraction = h->value;
    if (const Health* health = w.get<Health>(e); health != nullptr && fraction == 0) {
      auto seen = std::find_if(hud_max_.begin(), hud_max_.end(),
                               [&](const auto& m) { return m.first == e; });
      if (seen == hud_max_.end()) {
        hud_max_.emplace_back(e, std::max(health->hp, 1.0f));
        seen = hud_max_.end() - 1;
      }
      fraction = health->hp / seen->second;
    }
    const Vec2 size = h->size.x > 0 ? h->size : Vec2{200, 12};
    const Vec2 at = h->position + Vec2{0, 16};  // room for the label above
    const Color fill = h->colour == Color{} ? Color{230, 60, 200, 255} : h->colour;
    bar(at, size, fraction, fill);
    if (label_count < std::size(labels)) {
      labels[label_count++] = {words, std::clamp(fraction, 0.0f, 1.0f), at - Vec2{0, 4},
                               Color{255, 160, 230, 255}};
    }
  }
  std::erase_if(hud_max_, [&](const auto& m) { return !w.alive(m.first); });

  hud_text(hull_at + Vec2{0, 13}, label, false, "{}", text("HULL"));
  hud_text(hull_at + Vec2{hull_bar_x + 230, 13}, white, false, "{:.0f}%",
           std::max(hull, 0.0f) * 100);
  const f32 right = static_cast<f32>(kWidth) - 24;
  hud_text({right, 32}, white, true, "{} {}", text("SCORE"), s.score);
  if (s.chain_finished) {
    hud_text({right, 52}, label, true, "{} {} ({})", text("WAVE"), s.wave_step + 1,
             text("CLEARED"));
  } else {
    hud_text({right, 52}, label, true, "{} {}", text("WAVE"), s.wave_step + 1);
  }
  hud_text({right, 72}, label, true, "{} {}", text("ENEMIES"), s.enemies);
  for (usize i = 0; i < label_count; ++i) {
    const Label& l = labels[i];
    if (l.fraction < 0) {
      hud_text(l.at, l.colour, false, "{}", l.text);
    } else if (l.text.empty()) {
      hud_text(l.at, l.colour, false, "{:.0f}%", l.fraction * 100);
    } else {
      hud_text(l.at, l.colour, false, "{} {:.0f}%", l.text, l.fraction * 100);
    }
  }
}

void View::draw_message() {
  if (title_.empty()) return;
  const f32 cx = static_cast<f32>(kWidth) * 0.5f;
  const f32 cy = static_cast<f32>(kHeight) * 0.5f;
  panel({0, cy - 60}, {static_cast<f32>(kWidth), 110}, {0, 0, 0, 150});
  renderer_.text(large_font_, title_, {cx - static_cast<f32>(large_->measure(title_)) * 0.5f, cy},
                 Color{255, 255, 255, 255});
  if (!detail_.empty()) {
    renderer_.text(font_, detail_,
                   {cx - static_cast<f32>(small_->measure(detail_)) * 0.5f, cy + 30},
                   Color{200, 210, 240, 255});
  }
}

void View::draw(const Sim& sim) {
  KEEL_PROFILE("render");
  platform::Camera camera;
  if (const world::Transform* t = sim.world().get<world::Transform>(sim.player())) {
    camera.position = t->position;
  }
  camera.zoom = kZoom;
  camera.viewport = {static_cast<f32>(kWidth), static_cast<f32>(kHeight)};
  renderer_.set_camera(camera);
  draw_stars();         // batch 1: the dot, additive ...
  draw_particles(sim);  // ... the same batch
  draw_sprites(sim);    // batch 2: the sheet, alpha blended
  draw_hud(sim);        // the same batch for the bars, batch 3: the small font
  draw_message();       // when shown: the sheet, the large font, the small font
}

}  // namespace keel::voidfarer
