// Voidfarer's presentation: draws a Sim through keel/platform's Renderer between the caller's
// begin_frame() and end_frame(): the camera on the player, a three-layer parallax star field,
// particles (the soft "dot", additive), ships and shots as rotated sprites of the pack's sprite
// atlas ("sprites": frames looked up by name in its AtlasView) sorted by their Sprite layer, and
// the HUD in the pack's bitmap fonts: hull bar, score, wave, enemies left, the HudElements of
// live entities (bars such as the boss's health, texts, atlas icons), in the words of the pack's
// StringTable "hud_text" in the chosen language, and a centred message for the program (pause,
// game over). About five batches per frame.
//
//   auto view = *View::create(renderer, sim);
//   renderer.begin_frame({8, 8, 16, 255});
//   view->draw(sim);
//   view->set_message("PAUSED", "P to resume");   // shown until clear_message()
//   renderer.end_frame();
#pragma once

#include "sim.h"

#include "keel/pipeline/string_table_asset.h"
#include "keel/platform/renderer.h"

#include <fmt/format.h>

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace keel::voidfarer {

class View {
 public:
  static constexpr s32 kWidth = 1280;
  static constexpr s32 kHeight = 720;
  static constexpr f32 kZoom = 0.8f;  // screen pixels per world unit

  // Registers the pack's sprite atlas texture, dot and fonts with `renderer` (which must outlive
  // the view) and pre-warms its render-state cache. kNotFound names a missing asset.
  static Result<std::unique_ptr<View>> create(platform::Renderer& renderer, const Sim& sim);
  View(const View&) = delete;
  View& operator=(const View&) = delete;

  // Sets the camera on the player and draws the stars, the world, the HUD and the message.
  void draw(const Sim& sim);

  // A centred message over the game (a large title and an optional smaller line) until cleared.
  void set_message(std::string title, std::string detail = {});
  void clear_message() { set_message({}); }
  const std::string& message() const { return title_; }

  // The HUD's words (the pack's StringTable "hud_text"): the text of a key in the current
  // language, or the key itself when the table lacks it. set_language() picks a language by
  // its name in the table ("english", "french"); false (and no change) for one it lacks.
  std::string_view text(std::string_view key) const;
  bool set_language(std::string_view name);
  std::string_view language() const { return strings_->language(language_); }

  // The HUD's font (small) and the message font (large), for the program's own text.
  platform::FontId font() const { return font_; }
  platform::FontId large_font() const { return large_font_; }

  // What the last draw() drew, for tests and tools: the HUD's strings and the sprites whose
  // texture/frame names the atlas lacks (drawn as the hatched "fallback" frame).
  std::span<const std::string> hud_lines() const { return {hud_lines_.data(), hud_count_}; }
  u32 fallback_sprites() const { return fallback_sprites_; }

 private:
  struct Frame {
    Hash full = 0;    // string_hash("ships/player")
    Hash folder = 0;  // string_hash("ships"): Sprite("ships", frame "player") finds it too
    Hash leaf = 0;    // string_hash("player")
    platform::UvRect uv;
  };
  struct Star {
    spatial::Vec2 position;  // in the layer's tile, pixels
    f32 size = 1;
    platform::Color colour;
  };
  struct Item {  // one entity sprite, sorted by layer then store order
    s32 layer = 0;
    u32 order = 0;
    world::Entity entity;
  };

  explicit View(platform::Renderer& renderer) : renderer_(renderer) {}
  const Frame* find_frame(StringId texture, StringId frame) const;
  platform::UvRect frame_uv(std::string_view name) const;
  void draw_stars();
  void draw_particles(const Sim& sim);
  void draw_sprites(const Sim& sim);
  void draw_hud(const Sim& sim);
  void draw_message();
  void bar(spatial::Vec2 at, spatial::Vec2 size, f32 fraction, platform::Color fill);
  void panel(spatial::Vec2 at, spatial::Vec2 size, platform::Color colour);
  template <typename... Args>
  void hud_text(spatial::Vec2 pen, platform::Color colour, bool right_aligned,
                fmt::format_string<Args...> format, Args&&... args);

  platform::Renderer& renderer_;
  platform::TextureId sheet_;
  platform::TextureId dot_;
  platform::FontId font_;
  platform::FontId large_font_;
  const assets::FontView* small_ = nullptr;
  const assets::FontView* large_ = nullptr;
  std::vector<Frame> frames_;
  platform::UvRect fallback_uv_;
  platform::UvRect white_uv_;
  std::vector<Star> stars_[3];
  std::vector<Item> items_;
  std::vector<spatial::Vec2> particle_positions_;
  std::vector<platform::Color> particle_colours_;
  std::vector<f32> particle_sizes_;
  std::optional<pipeline::StringTableView> strings_;  // "hud_text"
  usize language_ = 0;
  std::vector<std::pair<world::Entity, f32>> hud_max_;  // HudElement bars: the hp first seen
  std::vector<std::string> hud_lines_;
  usize hud_count_ = 0;
  std::string title_;
  std::string detail_;
  u32 fallback_sprites_ = 0;
};

}  // namespace keel::voidfarer
