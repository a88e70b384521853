#include "keel/platform/renderer.h"

#include "keel/platform/detail/pixels.h"

#include <cmath>
#include <numbers>

namespace keel::platform {
namespace {

SDL_BlendMode sdl_blend(BlendMode mode) {
  switch (mode) {
    case BlendMode::kNone: return SDL_BLENDMODE_NONE;
    case BlendMode::kAlpha: return SDL_BLENDMODE_BLEND;
    case BlendMode::kAdd: return SDL_BLENDMODE_ADD;
    case BlendMode::kMultiply: return SDL_BLENDMODE_MOD;
  }
  return SDL_BLENDMODE_BLEND;
}

SDL_Color sdl_color(Color c) { return SDL_Color{c.r, c.g, c.b, c.a}; }

}  // namespace

Renderer::Renderer(SDL_Renderer* sdl) : sdl_(sdl) {
  // Slot 0: no texture. Untextured geometry takes the renderer's draw blend mode, and SDL's
  // software renderer draws its axis-aligned single-colour quads as filled rectangles.
  textures_.push_back({nullptr, 1, 1, Filter::kNearest});
}

Renderer::~Renderer() {
  for (TextureEntry& t : textures_) {
    if (t.texture != nullptr) SDL_DestroyTexture(t.texture);
  }
}

Result<TextureId> Renderer::add_texture(const assets::Texture& texture) {
  if (sdl_ == nullptr) return fail(ErrorCode::kInvalidArgument, "add_texture: no SDL renderer");
  if (textures_.size() >= kMaxTextures) {
    return fail(ErrorCode::kOutOfRange, "add_texture: the renderer holds {} textures already",
                kMaxTextures);
  }
  Result<std::vector<u32>> pixels = detail::to_argb(texture, 0);
  if (!pixels) return std::unexpected(pixels.error());
  const s32 w = static_cast<s32>(texture.width());
  const s32 h = static_cast<s32>(texture.height());
  SDL_Texture* made =
      SDL_CreateTexture(sdl_, SDL_PIXELFORMAT_ARGB8888, SDL_TEXTUREACCESS_STATIC, w, h);
  if (made == nullptr) {
    return fail(ErrorCode::kOutOfMemory, "SDL_CreateTexture {}x{}: {}", w, h, SDL_GetError());
  }
  if (SDL_UpdateTexture(made, nullptr, pixels->data(), w * 4) != 0) {
    SDL_DestroyTexture(made);
    return fail(ErrorCode::kIo, "SDL_UpdateTexture: {}", SDL_GetError());
  }
  const Filter filter =
      texture.filter() == assets::TextureFilter::kPoint ? Filter::kNearest : Filter::kLinear;
  textures_.push_back({made, texture.width(), texture.height(), filter});
  return TextureId{static_cast<u32>(textures_.size() - 1)};
}

Result<FontId> Renderer::add_font(const assets::FontView& font, const assets::Texture& atlas) {
  if (atlas.width() != font.atlas_width() || atlas.height() != font.atlas_height()) {
    return fail(ErrorCode::kInvalidArgument,
                "add_font: the atlas is {}x{} but the font expects {}x{}", atlas.width(),
                atlas.height(), font.atlas_width(), font.atlas_height());
  }
  Result<TextureId> texture = add_texture(atlas);
  if (!texture) return std::unexpected(texture.error());
  fonts_.push_back({&font, *texture});
  return FontId{static_cast<u32>(fonts_.size() - 1)};
}

spatial::Vec2 Renderer::texture_size(TextureId id) const {
  if (id.slot >= textures_.size()) return {0, 0};
  return {static_cast<f32>(textures_[id.slot].width), static_cast<f32>(textures_[id.slot].height)};
}

void Renderer::prewarm(std::span<const TextureId> textures) {
  std::vector<u32> dnas;
  for (const TextureId id : textures) {
    if (id.slot >= textures_.size()) continue;
    for (u8 blend = 0; blend < 4; ++blend) {
      dnas.push_back(
          state_dna({id.slot, static_cast<BlendMode>(blend), textures_[id.slot].filter}));
    }
  }
  shadow_.prewarm(dnas);
}

void Renderer::note_error(Error error) {
  if (!first_error_) first_error_ = std::move(error);
}

bool Renderer::check_drawing(std::string_view what) {
  if (sdl_ == nullptr) {
    note_error(Error(ErrorCode::kInvalidArgument, fmt::format("{}: no SDL renderer", what)));
    return false;
  }
  if (!drawing_) {
    note_error(Error(ErrorCode::kInvalidArgument,
                     fmt::format("{} outside begin_frame()/end_frame()", what)));
    return false;
  }
  return true;
}

Status Renderer::begin_frame(Color clear) {
  if (sdl_ == nullptr) return fail(ErrorCode::kInvalidArgument, "begin_frame: no SDL renderer");
  stats_ = {};
  shadow_.begin_frame();
  first_error_.reset();
  batch_state_.reset();
  drawing_ = true;
  SDL_SetRenderDrawColor(sdl_, clear.r, clear.g, clear.b, clear.a);
  SDL_RenderClear(sdl_);  // clearing ignores the draw blend mode
  return {};
}

void Renderer::use_state(const RenderState& state) {
  if (batch_state_ && *batch_state_ == state) return;
  flush();
  batch_state_ = state;
}

void Renderer::flush() {
  if (!batch_state_ || indices_.empty()) {
    vertices_.clear();
    indices_.clear();
    return;
  }
  const RenderState state = *batch_state_;
  TextureEntry& entry = textures_[state.texture];
  const StateDiff diff = shadow_.apply(state_dna(state));
  if (diff.blend) {
    if (entry.texture == nullptr) {
      SDL_SetRenderDrawBlendMode(sdl_, sdl_blend(state.blend));
    } else {
      SDL_SetTextureBlendMode(entry.texture, sdl_blend(state.blend));
    }
  }
  if (diff.filter && entry.texture != nullptr) {
    SDL_SetTextureScaleMode(entry.texture, state.filter == Filter::kNearest ? SDL_ScaleModeNearest
                                                                            : SDL_ScaleModeLinear);
  }
  SDL_RenderGeometry(sdl_, entry.texture, vertices_.data(), static_cast<int>(vertices_.size()),
                     indices_.data(), static_cast<int>(indices_.size()));
  ++stats_.draw_calls;
  stats_.vertices += static_cast<u32>(vertices_.size());
  vertices_.clear();
  indices_.clear();
}

// Corners come top-left, top-right, bottom-left, bottom-right; the triangles are a fan around
// the first corner (0-1-3, 0-3-2), the order in which SDL's software renderer recognises an
// axis-aligned single-colour quad and blits it as a rectangle instead of rasterising triangles
// (the other diagonal measured 3x slower on the render benchmark).
void Renderer::quad(const spatial::Vec2 (&c)[4], const UvRect& uv, Color color) {
  const int base = static_cast<int>(vertices_.size());
  const SDL_Color col = sdl_color(color);
  vertices_.push_back({{c[0].x, c[0].y}, col, {uv.u0, uv.v0}});
  vertices_.push_back({{c[1].x, c[1].y}, col, {uv.u1, uv.v0}});
  vertices_.push_back({{c[3].x, c[3].y}, col, {uv.u1, uv.v1}});
  vertices_.push_back({{c[2].x, c[2].y}, col, {uv.u0, uv.v1}});
  for (const int i : {0, 1, 2, 0, 2, 3}) indices_.push_back(base + i);
}

void Renderer::sprite(const Sprite& s) {
  if (!check_drawing("sprite")) return;
  if (s.texture.slot >= textures_.size()) {
    note_error(Error(ErrorCode::kNotFound,
                     fmt::format("sprite: texture {} is not loaded", s.texture.slot)));
    return;
  }
  const TextureEntry& t = textures_[s.texture.slot];
  use_state({s.texture.slot, s.blend, t.filter});
  spatial::Vec2 size = s.size;
  if (size.x == 0 && size.y == 0) {
    size = {static_cast<f32>(t.width) * (s.uv.u1 - s.uv.u0),
            static_cast<f32>(t.height) * (s.uv.v1 - s.uv.v0)};
  }
  const f32 zoom = s.screen ? 1.0f : camera_.zoom;
  const f32 angle = s.screen ? s.rotation : s.rotation - camera_.rotation;
  const spatial::Vec2 half{size.x * s.scale.x * 0.5f * zoom, size.y * s.scale.y * 0.5f * zoom};
  const spatial::Vec2 centre = to_screen(s.position, s.screen);
  const f32 cs = std::cos(angle);
  const f32 sn = std::sin(angle);
  // Screen y points down, so a positive angle turns clockwise on screen (counter-clockwise in
  // a y-up world seen through the camera).
  const auto corner = [&](f32 x, f32 y) {
    return spatial::Vec2{centre.x + x * cs - y * sn, centre.y + x * sn + y * cs};
  };
  const spatial::Vec2 corners[4] = {corner(-half.x, -half.y), corner(half.x, -half.y),
                                    corner(-half.x, half.y), corner(half.x, half.y)};
  quad(corners, s.uv, s.color);
  ++stats_.sprites;
}

f32 Renderer::text(FontId id, std::string_view utf8, spatial::Vec2 pen, Color color) {
  if (!check_drawing("text")) return pen.x;
  if (id.index >= fonts_.size()) {
    note_error(Error(ErrorCode::kNotFound, fmt::format("text: font {} is not loaded", id.index)));
    return pen.x;
  }
  const FontEntry& f = fonts_[id.index];
  use_state({f.atlas.slot, BlendMode::kAlpha, textures_[f.atlas.slot].filter});
  glyphs_.clear();
  const assets::TextRun run = f.font->layout(utf8, static_cast<s32>(std::lround(pen.x)),
                                             static_cast<s32>(std::lround(pen.y)), glyphs_);
  const SDL_Color col = sdl_color(color);
  for (u32 q = 0; q < run.glyphs; ++q) {
    const int base = static_cast<int>(vertices_.size());
    for (u32 k = 0; k < 4; ++k) {
      const assets::FontVertex& v = glyphs_[q * 4 + k];
      vertices_.push_back({{v.x, v.y}, col, {v.u, v.v}});
    }
    // Layout gives top-left, top-right, bottom-left, bottom-right: the same fan as quad().
    for (const int i : {0, 1, 3, 0, 3, 2}) indices_.push_back(base + i);
  }
  ++stats_.strings;
  return static_cast<f32>(run.pen_x);
}

void Renderer::particles(TextureId texture, std::span<const spatial::Vec2> positions,
                         std::span<const Color> colors, std::span<const f32> sizes,
                         BlendMode blend) {
  if (!check_drawing("particles")) return;
  if (texture.slot >= textures_.size()) {
    note_error(Error(ErrorCode::kNotFound,
                     fmt::format("particles: texture {} is not loaded", texture.slot)));
    return;
  }
  if (colors.size() != positions.size() || sizes.size() != positions.size()) {
    note_error(Error(ErrorCode::kInvalidArgument,
                     fmt::format("particles: {} positions, {} colours, {} sizes", positions.size(),
                                 colors.size(), sizes.size())));
    return;
  }
  use_state({texture.slot, blend, textures_[texture.slot].filter});
  vertices_.reserve(vertices_.size() + positions.size() * 4);
  indices_.reserve(indices_.size() + positions.size() * 6);
  const UvRect uv;
  for (usize i = 0; i < positions.size(); ++i) {
    const spatial::Vec2 c = camera_.world_to_screen(positions[i]);
    const f32 h = sizes[i] * 0.5f * camera_.zoom;
    const spatial::Vec2 corners[4] = {
        {c.x - h, c.y - h}, {c.x + h, c.y - h}, {c.x - h, c.y + h}, {c.x + h, c.y + h}};
    quad(corners, uv, colors[i]);
  }
  stats_.particles += static_cast<u32>(positions.size());
}

void Renderer::line(spatial::Vec2 a, spatial::Vec2 b, Color color, f32 width, bool screen) {
  if (!check_drawing("line")) return;
  use_state({0, BlendMode::kAlpha, Filter::kNearest});
  const spatial::Vec2 p = to_screen(a, screen);
  const spatial::Vec2 q = to_screen(b, screen);
  const spatial::Vec2 d = q - p;
  const f32 len = spatial::length(d);
  const spatial::Vec2 n = len > 0 ? spatial::Vec2{-d.y / len, d.x / len} * (width * 0.5f)
                                  : spatial::Vec2{width * 0.5f, 0};
  const spatial::Vec2 corners[4] = {p + n, q + n, p - n, q - n};
  quad(corners, UvRect{}, color);
}

void Renderer::circle(spatial::Vec2 centre, f32 radius, Color color, u32 segments, bool screen) {
  if (!check_drawing("circle")) return;
  segments = segments < 3 ? 3 : (segments > 1024 ? 1024 : segments);
  const f32 step = 2 * std::numbers::pi_v<f32> / static_cast<f32>(segments);
  spatial::Vec2 previous = centre + spatial::Vec2{radius, 0};
  for (u32 i = 1; i <= segments; ++i) {
    const spatial::Vec2 next = centre + spatial::from_angle(step * static_cast<f32>(i)) * radius;
    line(previous, next, color, 1, screen);
    previous = next;
  }
}

Status Renderer::end_frame() {
  if (sdl_ == nullptr) return fail(ErrorCode::kInvalidArgument, "end_frame: no SDL renderer");
  if (!drawing_) return fail(ErrorCode::kInvalidArgument, "end_frame without begin_frame");
  flush();
  drawing_ = false;
  stats_.states = shadow_.counts();
  if (first_error_) return std::unexpected(*std::move(first_error_));
  return {};
}

}  // namespace keel::platform
