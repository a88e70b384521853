// keel-rumble's pictures: a Match drawn through keel/platform's Renderer between the caller's
// begin_frame() and end_frame(). The arena (a floor and its bounds), each fighter as a posed
// stick figure (poses.h: the FSM's current animation alias and the clip's progress, legs
// swinging as it walks; the winner bright, the loser grey), sparks where strikes land, health
// bars with names, the clock, the last lines of the fight log (log_printer.h) and the result's
// banner. Like the text log it only reads the match: Fighter state and Match::events().
//
//   auto view = *View::create(renderer, pack);   // pack: rumble.kpk (fonts "sans", "title",
//   renderer.begin_frame({20, 18, 30, 255});     // texture "disc")
//   view->draw(match);
//   renderer.end_frame();
#pragma once

#include "match.h"

#include "keel/assets/font.h"
#include "keel/pack/loader.h"
#include "keel/platform/renderer.h"

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace rumble {

class View {
 public:
  static constexpr keel::s32 kWidth = 1280;
  static constexpr keel::s32 kHeight = 720;
  static constexpr keel::f32 kGroundY = 540;       // the floor line, pixels
  static constexpr keel::f32 kPixelsPerUnit = 5;   // arena units (kArenaHalfWidth = 100)
  static constexpr keel::f32 kFigureScale = 2.4f;  // pixels per figure unit (poses.h)
  static constexpr keel::usize kLogLines = 6;

  // Registers the pack's fonts and disc with `renderer` (which must outlive the view).
  // kNotFound names a missing asset. The loader must have the Texture and Font types
  // (keel::assets::register_texture_type / register_font_type).
  static keel::Result<std::unique_ptr<View>> create(keel::platform::Renderer& renderer,
                                                    const keel::pack::LoadedPack& pack);
  View(const View&) = delete;
  View& operator=(const View&) = delete;

  void draw(const Match& match);

  // What the last draw() wrote: every string (tests and tools), and the animation alias each
  // fighter was drawn in.
  std::span<const std::string> strings() const { return {strings_.data(), string_count_}; }
  std::string_view alias_of(keel::usize fighter) const;
  // Screen x of an arena position.
  static keel::f32 screen_x(keel::s32 arena_x) {
    return static_cast<keel::f32>(kWidth) * 0.5f + static_cast<keel::f32>(arena_x) * kPixelsPerUnit;
  }

 private:
  struct Look {              // per fighter, between frames
    std::string_view alias;  // drawn last
    keel::f32 walked = 0;    // arena units walked so far (the legs' phase)
    keel::s32 last_x = 0;
    bool seen = false;
  };

  explicit View(keel::platform::Renderer& renderer) : renderer_(renderer) {}
  void draw_arena();
  void draw_fighter(const Match& match, keel::usize index);
  void draw_sparks(const Match& match);
  void draw_hud(const Match& match);
  void limb(keel::spatial::Vec2 a, keel::spatial::Vec2 b, keel::f32 width, keel::platform::Color c);
  void joint(keel::spatial::Vec2 at, keel::f32 radius, keel::platform::Color c,
             keel::platform::BlendMode blend = keel::platform::BlendMode::kAlpha);
  void panel(keel::spatial::Vec2 at, keel::spatial::Vec2 size, keel::platform::Color c);
  // Draws `line` (kept in strings_) with its baseline at pen; centred on pen.x when asked.
  void follow_log(const Match& match);
  void text(keel::platform::FontId font, const keel::assets::FontView& measure,
            std::string_view line, keel::spatial::Vec2 pen, keel::platform::Color colour,
            bool centred = false);

  keel::platform::Renderer& renderer_;
  keel::platform::TextureId disc_;
  keel::platform::FontId sans_;
  keel::platform::FontId title_;
  const keel::assets::FontView* sans_view_ = nullptr;
  const keel::assets::FontView* title_view_ = nullptr;
  std::vector<Look> looks_;
  std::vector<std::string> strings_;
  keel::usize string_count_ = 0;
  // The log's last lines, formatted when the match's events change (follow_log).
  std::vector<std::string> log_lines_;
  const Match* log_match_ = nullptr;
  keel::usize log_events_ = 0;
  keel::u64 log_last_tick_ = 0;
  bool knock_out_ = false;
};

}  // namespace rumble
