#include "keel/platform/render_state.h"

#include "keel/core/assert.h"

namespace keel::platform {

const hashing::DnaLayout& render_state_layout() {
  static const hashing::DnaLayout layout = [] {
    Result<hashing::DnaLayout> made = hashing::DnaLayout::make(
        "render_state",
        {{"texture", 0, 12, kMaxTextures}, {"blend", 12, 2, 4}, {"filter", 14, 1, 2}});
    KEEL_ASSERT(made.has_value(), "the render-state DNA layout is malformed");
    return *std::move(made);
  }();
  return layout;
}

u32 state_dna(const RenderState& state) {
  KEEL_ASSERT(state.texture < kMaxTextures, "texture slot {} past the {} a DNA code can name",
              state.texture, kMaxTextures);
  return (state.texture & (kMaxTextures - 1)) | (static_cast<u32>(state.blend) << 12) |
         (static_cast<u32>(state.filter) << 14);
}

RenderState state_of_dna(u32 dna) {
  return RenderState{dna & (kMaxTextures - 1), static_cast<BlendMode>((dna >> 12) & 3),
                     static_cast<Filter>((dna >> 14) & 1)};
}

void ShadowState::prewarm(std::span<const u32> dnas) {
  for (const u32 dna : dnas) prepared_.insert(dna);
}

StateDiff ShadowState::apply(u32 dna) {
  counts_.requested += 3;
  if (prepared_.insert(dna).second) ++counts_.misses;
  const RenderState state = state_of_dna(dna);
  if (state.texture >= textures_.size()) textures_.resize(state.texture + 1);
  TextureShadow& shadow = textures_[state.texture];
  StateDiff diff;
  diff.texture = bound_ != state.texture;
  diff.blend = !shadow.known || shadow.blend != state.blend;
  diff.filter = !shadow.known || shadow.filter != state.filter;
  shadow = {true, state.blend, state.filter};
  bound_ = state.texture;
  counts_.applied += diff.count();
  return diff;
}

void ShadowState::invalidate() {
  textures_.clear();
  bound_ = 0xFFFFFFFFu;
}

}  // namespace keel::platform
