// The batched 2-D renderer on SDL_Renderer. Every draw appends triangles to the current batch;
// a batch is flushed as one SDL_RenderGeometry call when the render state (texture, blend mode,
// filter: render_state.h) changes or the frame ends, so N sprites with one texture and blend
// mode are one draw call. Text is one vertex run per string from a FontView (Citizen's bitmap
// text); particles are drawn from spans. Sprites, particles and debug shapes are in world space
// through the camera unless `screen` is set; text is in screen space.
//
//   keel::platform::Renderer renderer(window->sdl_renderer());
//   TextureId ship = *renderer.add_texture(*pack.find_as<assets::Texture>("ship"));
//   FontId font = *renderer.add_font(*sans, *pack.find_as<assets::Texture>("sans_atlas"));
//   renderer.begin_frame({8, 8, 16, 255});
//   renderer.sprite({.texture = ship, .position = {100, 50}, .rotation = 0.3f});
//   renderer.text(font, "SCORE 1200", {16, 32});
//   renderer.particles(dot, positions, colours, sizes, BlendMode::kAdd);
//   if (Status done = renderer.end_frame(); !done) log(done.error());  // bad calls of the frame
//
// Bad calls (drawing outside begin/end, unknown textures or fonts, mismatched spans) draw
// nothing and are reported by end_frame(); a renderer made without an SDL_Renderer reports every
// call as an error.
#pragma once

#include "keel/assets/font.h"
#include "keel/assets/texture.h"
#include "keel/core/color.h"
#include "keel/core/error.h"
#include "keel/core/types.h"
#include "keel/platform/camera.h"
#include "keel/platform/render_state.h"
#include "keel/spatial/vec2.h"

#include <SDL2/SDL.h>

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace keel::platform {

// The engine's one colour type (keel/core/color.h): RGBA8, so particle colour spans pass as they
// are.
using Color = keel::Rgba8;

struct TextureId {
  u32 slot = 0;  // 0: no texture (plain colour)
  friend bool operator==(const TextureId&, const TextureId&) = default;
};
struct FontId {
  u32 index = 0xFFFFFFFFu;
};

// A rectangle of a texture in [0, 1] (an atlas cell); the default is the whole texture.
struct UvRect {
  f32 u0 = 0, v0 = 0, u1 = 1, v1 = 1;
};

struct Sprite {
  TextureId texture{};
  spatial::Vec2 position{0, 0};  // centre
  spatial::Vec2 size{0, 0};      // 0: the texture's (cell's) size in pixels
  f32 rotation = 0;              // radians
  spatial::Vec2 scale{1, 1};
  Color color{};
  BlendMode blend = BlendMode::kAlpha;
  UvRect uv{};
  bool screen = false;  // screen space (HUD) instead of world space
};

struct FrameStats {
  u32 draw_calls = 0;  // SDL_RenderGeometry calls (batches)
  u32 vertices = 0;
  u32 sprites = 0;
  u32 particles = 0;
  u32 strings = 0;
  StateCounts states;  // requested (without the shadow state) and applied (with it)
};

class Renderer {
 public:
  explicit Renderer(SDL_Renderer* sdl);
  ~Renderer();
  Renderer(const Renderer&) = delete;
  Renderer& operator=(const Renderer&) = delete;

  // Uploads level 0 of a texture chunk (every format; BCn decoded in software). The filter
  // follows the chunk's (point: nearest). Errors: no device, too many textures, SDL refused.
  Result<TextureId> add_texture(const assets::Texture& texture);
  // A font and its atlas texture (the FontView must outlive the renderer).
  Result<FontId> add_font(const assets::FontView& font, const assets::Texture& atlas);
  spatial::Vec2 texture_size(TextureId id) const;  // (0, 0) for an unknown id
  usize texture_count() const { return textures_.size(); }

  // Pre-warms the shadow state's cache with every state of these textures (level load).
  void prewarm(std::span<const TextureId> textures);

  void set_camera(const Camera& camera) { camera_ = camera; }
  const Camera& camera() const { return camera_; }

  // Starts a frame: clears to `clear`, resets the counts. Errors: no device.
  Status begin_frame(Color clear = {0, 0, 0, 255});
  void sprite(const Sprite& sprite);
  // One string, baseline at `pen` (screen pixels). Returns the pen's x after the text.
  f32 text(FontId font, std::string_view utf8, spatial::Vec2 pen, Color color = {});
  // Square particles of side sizes[i] centred on positions[i]; the spans must have equal length.
  void particles(TextureId texture, std::span<const spatial::Vec2> positions,
                 std::span<const Color> colors, std::span<const f32> sizes,
                 BlendMode blend = BlendMode::kAlpha);
  void line(spatial::Vec2 a, spatial::Vec2 b, Color color, f32 width = 1, bool screen = false);
  void circle(spatial::Vec2 centre, f32 radius, Color color, u32 segments = 32,
              bool screen = false);
  // Flushes the last batch; the first bad call of the frame as an error (everything else drew).
  Status end_frame();

  const FrameStats& stats() const { return stats_; }
  SDL_Renderer* sdl() const { return sdl_; }

 private:
  struct TextureEntry {
    SDL_Texture* texture = nullptr;
    u32 width = 0;
    u32 height = 0;
    Filter filter = Filter::kLinear;
  };
  struct FontEntry {
    const assets::FontView* font = nullptr;
    TextureId atlas;
  };

  bool check_drawing(std::string_view what);
  void note_error(Error error);
  void use_state(const RenderState& state);
  void flush();
  void quad(const spatial::Vec2 (&corners)[4], const UvRect& uv, Color color);
  spatial::Vec2 to_screen(spatial::Vec2 p, bool screen) const {
    return screen ? p : camera_.world_to_screen(p);
  }

  SDL_Renderer* sdl_ = nullptr;
  std::vector<TextureEntry> textures_;
  std::vector<FontEntry> fonts_;
  Camera camera_;
  ShadowState shadow_;
  std::optional<RenderState> batch_state_;
  std::vector<SDL_Vertex> vertices_;
  std::vector<int> indices_;
  std::vector<assets::FontVertex> glyphs_;
  FrameStats stats_;
  bool drawing_ = false;
  std::optional<Error> first_error_;
};

}  // namespace keel::platform
