#include "draw.h"

#include "keel/assets/font.h"
#include "keel/assets/texture.h"
#include "keel/platform/image.h"
#include "keel/spatial/group_culling.h"
#include "keel/world/components.h"

#include <fmt/format.h>

namespace keel::scene {
namespace {

constexpr s32 kWidth = 1280;
constexpr s32 kHeight = 720;
constexpr f32 kZoom = 0.5f;  // the fleets fight some 400-900 units from the player

}  // namespace

Result<std::unique_ptr<SceneView>> SceneView::open(const Scene& scene) {
  const auto* font = scene.pack().find_as<assets::FontView>("sans_small");
  const auto* atlas = scene.pack().find_as<assets::Texture>("sans_small_atlas");
  if (font == nullptr || atlas == nullptr) {
    return fail(ErrorCode::kNotFound, "the pack has no font sans_small (+ sans_small_atlas)");
  }
  std::unique_ptr<SceneView> view(new SceneView());
  Result<std::unique_ptr<platform::Window>> window =
      platform::Window::open({.title = "keel-world-scene",
                              .width = kWidth,
                              .height = kHeight,
                              .fullscreen = false,
                              .vsync = false,
                              .headless = true,
                              .software = true});
  if (!window) return Unexpected(window.error());
  view->window_ = std::move(*window);
  view->renderer_ = std::make_unique<platform::Renderer>(view->window_->sdl_renderer());
  Result<platform::FontId> font_id = view->renderer_->add_font(*font, *atlas);
  if (!font_id) return Unexpected(font_id.error());
  view->font_ = *font_id;
  return view;
}

void SceneView::draw_world(const Scene& scene) {
  platform::Renderer& r = *renderer_;
  const world::World& w = scene.world();
  auto& mw = const_cast<world::World&>(w);  // store<C>() makes missing stores
  const world::ParticleSystem& particles = scene.particles();
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

void SceneView::draw_hud(const Scene& scene) {
  const FrameSummary s = scene.summary();
  const std::string line = fmt::format(
      "FRAME {}  WAVE {}{}  ENEMIES {}  KILLED {}  BULLETS {}  PARTICLES {}", s.frame, s.wave_step,
      s.chain_finished ? " (DONE)" : "", s.enemies, s.killed, s.bullets, s.particles);
  renderer_->text(font_, line, {16, 28}, Rgba8{230, 230, 255, 255});
}

Status SceneView::shoot(const Scene& scene, const std::filesystem::path& path) {
  platform::Renderer& r = *renderer_;
  platform::Camera camera;
  if (const world::Transform* t = scene.world().get<world::Transform>(scene.player())) {
    camera.position = t->position;
  }
  camera.zoom = kZoom;
  camera.viewport = {static_cast<f32>(kWidth), static_cast<f32>(kHeight)};
  r.set_camera(camera);
  if (Status st = r.begin_frame(Rgba8{8, 8, 16, 255}); !st) return st;
  draw_world(scene);
  draw_hud(scene);
  if (Status st = r.end_frame(); !st) return st;
  Result<platform::Image> image = window_->screenshot();
  if (!image) return Unexpected(image.error());
  Status written = platform::write_png(path, *image);
  window_->present();
  return written;
}

}  // namespace keel::scene
