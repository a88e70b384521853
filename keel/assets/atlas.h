// The load-ready sprite atlas: a chunk naming the texture that holds many small images ("frames")
// and where each frame sits in it, read in place by AtlasView. Designers add sprites in data (the
// `Atlas` build command, keel/assets/README.md); the game looks frames up by name at run time.
//
//   auto atlas = keel::assets::AtlasView::parse(chunk_bytes);    // checks every count and rect
//   if (auto f = atlas->find("ships/player")) draw(texture, atlas->uv(*f), f->width, f->height);
//   for (const keel::assets::AtlasFrame& f : *atlas) list(f.name, f.x, f.y);
//
// Chunk layout (little-endian, 4-byte aligned):
//
//   u32 magic "KATL" | u32 version (1) | u32 texture_name_hash (pack name hash of the texture)
//   u16 width | u16 height (the texture's size in pixels)
//   u32 frame_count | u32 string_bytes
//   frame_count x { u32 name_hash (string_hash of the name); u16 x, y, width, height;
//                   f32 pivot_x, pivot_y (0..1 of the frame, 0.5 = centre);
//                   u32 name_offset, name_length (into the strings) }   strictly ascending hash
//   string_bytes of frame names (UTF-8, not terminated), then 0-3 zero bytes to a multiple of 4
#pragma once

#include "keel/core/bytes.h"
#include "keel/core/error.h"
#include "keel/core/hash.h"
#include "keel/core/types.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace keel::pack {
class Loader;
}  // namespace keel::pack

namespace keel::assets {

inline constexpr u32 kAtlasMagic = 0x4C54414Bu;  // "KATL" read as a little-endian u32
inline constexpr u32 kAtlasVersion = 1;
inline constexpr std::string_view kAtlasType = "Atlas";
inline constexpr usize kAtlasHeaderBytes = 24;
inline constexpr usize kAtlasFrameBytes = 28;

// One named rectangle of the atlas texture, in pixels (y down).
struct AtlasFrame {
  Hash name_hash = 0;  // string_hash(name): what world::Sprite's StringIds hold
  std::string_view name;
  u16 x = 0;
  u16 y = 0;
  u16 width = 0;
  u16 height = 0;
  f32 pivot_x = 0.5f;  // the frame's origin as a fraction of its size (0.5, 0.5: the centre)
  f32 pivot_y = 0.5f;
  friend bool operator==(const AtlasFrame&, const AtlasFrame&) = default;
};

// Texture coordinates of a frame, in [0, 1] of the texture.
struct AtlasUv {
  f32 u0 = 0, v0 = 0, u1 = 1, v1 = 1;
};

// Everything an atlas chunk holds, for the encoder and tests (names owned here).
struct AtlasData {
  u32 texture_name_hash = 0;
  u16 width = 0;
  u16 height = 0;
  struct Frame {
    std::string name;
    u16 x = 0, y = 0, width = 0, height = 0;
    f32 pivot_x = 0.5f, pivot_y = 0.5f;
  };
  std::vector<Frame> frames;  // any order: the encoder sorts by name hash
};

// The chunk bytes of `atlas`. Two frames whose names hash alike are an error (kInvalidArgument,
// naming both), as is a frame outside the texture.
Result<ByteBuffer> encode_atlas(const AtlasData& atlas);

// The name of the texture asset the Atlas command makes beside the atlas: "<atlas>_texture".
std::string atlas_texture_name(std::string_view atlas_name);

class AtlasView {
 public:
  // Checks the header, the counts against the chunk's size, every rectangle inside the texture,
  // every name inside the strings and matching its hash, and the sort order; a bad chunk is an
  // error naming `label` and the byte offset, never an out-of-bounds read.
  static Result<AtlasView> parse(ByteSpan bytes, std::string_view label = "<atlas>");

  u32 texture_name_hash() const { return texture_name_hash_; }
  u16 width() const { return width_; }
  u16 height() const { return height_; }
  u32 frame_count() const { return frame_count_; }
  AtlasFrame frame(u32 index) const;  // asserts index < frame_count(); ascending name hash

  // Binary search by name (case-sensitive) or by its string_hash.
  std::optional<AtlasFrame> find(std::string_view name) const;
  std::optional<AtlasFrame> find_hash(Hash name_hash) const;

  // The frame's rectangle in texture coordinates, `inset` texels in from each edge (0.5: bilinear
  // filtering samples only the frame's own texels; the builder's extruded border covers more).
  AtlasUv uv(const AtlasFrame& frame, f32 inset = 0.5f) const;

  class Iterator {
   public:
    using value_type = AtlasFrame;
    using difference_type = std::ptrdiff_t;
    Iterator() = default;
    Iterator(const AtlasView* view, u32 index) : view_(view), index_(index) {}
    AtlasFrame operator*() const { return view_->frame(index_); }
    Iterator& operator++() {
      ++index_;
      return *this;
    }
    Iterator operator++(int) {
      Iterator old = *this;
      ++index_;
      return old;
    }
    friend bool operator==(const Iterator& a, const Iterator& b) { return a.index_ == b.index_; }

   private:
    const AtlasView* view_ = nullptr;
    u32 index_ = 0;
  };
  Iterator begin() const { return {this, 0}; }
  Iterator end() const { return {this, frame_count_}; }

 private:
  ByteSpan bytes_;
  u32 texture_name_hash_ = 0;
  u16 width_ = 0;
  u16 height_ = 0;
  u32 frame_count_ = 0;
  usize strings_at_ = 0;
};

// Registers the "Atlas" asset type with a pack loader: each asset becomes a heap AtlasView over
// its primary chunk (deleted by the teardown). find_as<AtlasView>(name) then returns it.
void register_atlas_type(pack::Loader& loader);

}  // namespace keel::assets
