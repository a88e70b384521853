#include "view.h"

#include "keel/assets/font.h"
#include "keel/assets/texture.h"
#include "keel/spatial/group_culling.h"
#include "keel/world/components.h"

#include <fmt/format.h>

namespace keel::voidfarer {
namespace {

constexpr f32 kZoom = 0.5f;  // the fleets fight some 400-900 units from the player

}  // namespace

Result<std::unique_ptr<View>> View::create(platform::Renderer& renderer, const Sim& sim) {
  const auto* font = sim.pack().find_as<assets::FontView>("sans_small");
  const auto* atlas = sim.pack().find_as<assets::Texture>("sans_small_atlas");
  if (font == nullptr || atlas == nullptr) {
    return fail(ErrorCode::kNotFound, "the pack has no font sans_small (+ sans_small_atlas)");
  }
  std::unique_ptr<View> view(new View(renderer));
  Result<platform::FontId> font_id = renderer.add_font(*font, *atlas);
  if (!font_id) return Unexpected(font_id.error());
  view->font_ = *font_id;
  return view;
}

void View::draw_world(const Sim& sim) {
  platform::Renderer& r = renderer_;
  const world::World& w = sim.world();
  auto& mw = const_cast<world::World&>(w);  // store<C>() makes missing stores
  const world::ParticleSystem& particles = sim.particles();
  for (usize p = 0; p < particles.pool_count(); ++p) {
    const world::ParticlePool& pool = particles.pool(p);
    r.particles(platform::TextureId{0}, pool.positions(), pool.colours(), pool.sizes(),
                platform::BlendMode::kAdd);
  }
  for (const world::Entity e : mw.store<world::Body>().entities()) {
    const world::Transform* t = w.get<world::Transform>(e);
    const world::Body* b = w.get<world::Body>(e);
    const world::Sprite* sprite = w.get<world::Sprite>(e);
    if (t == nullptr || b == nullptr) continue;
    const Rgba8 colour = sprite != nullptr ? sprite->colour : Rgba8{};
    const bool shot = b->def.group == spatial::kAlliedFire || b->def.group == spatial::kEnemyFire;
    if (shot) {
      r.line(t->position - t->velocity * 0.03f, t->position, colour, 2);
      continue;
    }
    const f32 radius = b->def.shape.radius;
    r.circle(t->position, radius, colour, 24);
    r.line(t->position, t->position + spatial::from_angle(t->angle) * (radius * 1.6f), colour, 2);
  }
}

void View::draw_hud(const Sim& sim) {
  const FrameSummary s = sim.summary();
  const std::string line =
      fmt::format("HULL {:.0f}  SCORE {}  WAVE {}{}  ENEMIES {}  KILLED {}", s.hull, s.score,
                  s.wave_step + 1, s.chain_finished ? " (DONE)" : "", s.enemies, s.killed);
  renderer_.text(font_, line, {16, 28}, Rgba8{230, 230, 255, 255});
}

void View::draw(const Sim& sim) {
  platform::Camera camera;
  if (const world::Transform* t = sim.world().get<world::Transform>(sim.player())) {
    camera.position = t->position;
  }
  camera.zoom = kZoom;
  camera.viewport = {static_cast<f32>(kWidth), static_cast<f32>(kHeight)};
  renderer_.set_camera(camera);
  draw_world(sim);
  draw_hud(sim);
}

}  // namespace keel::voidfarer
