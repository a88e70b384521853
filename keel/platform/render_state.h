// The renderer's shadow state (Golden Rules ch. 3, DNA hashes): every draw's render state is one
// 32-bit DNA code (texture slot, blend mode, filter) that both describes the state and keys a
// cache of prepared states. Applying a state diffs it against the shadow copy of what the device
// was last told, and only the genes that differ become device calls. Counts per frame:
//
//   requested  state fields a renderer without a shadow state would set (3 per draw)
//   applied    device calls actually made after the diff
//   misses     states prepared mid-frame (pre-warm at level load makes this 0)
//
//   ShadowState shadow;
//   shadow.prewarm(std::array{state_dna({.texture = 3, .blend = BlendMode::kAdd})});
//   if (const StateDiff d = shadow.apply(dna); d.texture) bind(...);
#pragma once

#include "keel/core/types.h"
#include "keel/hashing/dna.h"

#include <span>
#include <unordered_set>
#include <vector>

namespace keel::platform {

enum class BlendMode : u8 { kNone = 0, kAlpha = 1, kAdd = 2, kMultiply = 3 };
enum class Filter : u8 { kNearest = 0, kLinear = 1 };

inline constexpr u32 kMaxTextures = 4096;  // texture slots a DNA code can name (12 bits)

struct RenderState {
  u32 texture = 0;  // slot, < kMaxTextures
  BlendMode blend = BlendMode::kAlpha;
  Filter filter = Filter::kLinear;
  friend bool operator==(const RenderState&, const RenderState&) = default;
};

// The DNA layout "render_state": texture bits 0-11, blend bits 12-13, filter bit 14.
const hashing::DnaLayout& render_state_layout();
// The code of a state (a texture slot past kMaxTextures is masked; asserted).
u32 state_dna(const RenderState& state);
RenderState state_of_dna(u32 dna);

// Which device calls a state change needs.
struct StateDiff {
  bool texture = false;  // bind another texture
  bool blend = false;    // set the blend mode of the texture
  bool filter = false;   // set the scale mode of the texture
  u32 count() const { return u32{texture} + u32{blend} + u32{filter}; }
};

struct StateCounts {
  u32 requested = 0;
  u32 applied = 0;
  u32 misses = 0;
};

class ShadowState {
 public:
  // Prepares states ahead of time (level load): no miss is counted when they are applied.
  void prewarm(std::span<const u32> dnas);
  // Diffs `dna` against the shadow copy and records the result. Blend and filter are per
  // texture in SDL, so each texture keeps its own shadow of them.
  StateDiff apply(u32 dna);
  // Forgets what the device holds (a new frame after a device reset, or a texture reloaded).
  void invalidate();
  void begin_frame() { counts_ = {}; }
  const StateCounts& counts() const { return counts_; }
  usize cached() const { return prepared_.size(); }

 private:
  struct TextureShadow {
    bool known = false;
    BlendMode blend = BlendMode::kNone;
    Filter filter = Filter::kNearest;
  };
  std::unordered_set<u32> prepared_;
  std::vector<TextureShadow> textures_;
  u32 bound_ = 0xFFFFFFFFu;  // no texture bound yet
  StateCounts counts_;
};

}  // namespace keel::platform
