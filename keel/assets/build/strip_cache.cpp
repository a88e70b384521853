#include "keel/assets/build/strip_cache.h"

#include "keel/core/assert.h"

#include <algorithm>

namespace keel::assets {

VertexCache::VertexCache(const CacheModel& model) : model_(model) {
  KEEL_ASSERT(model.size >= 1 && model.size <= 256, "vertex cache size must be 1..256");
  KEEL_ASSERT(model.bad_tail < model.size, "vertex cache bad_tail must be below its size");
  model_.size = std::clamp<u32>(model_.size, 1, 256);
  model_.bad_tail = std::min(model_.bad_tail, model_.size - 1);
  slots_.assign(model_.size, 0);
}

int VertexCache::find(u32 vertex) const {
  for (u32 i = 0; i < count_; ++i) {
    if (slots_[i] == vertex) return static_cast<int>(i);
  }
  return -1;
}

CacheAccess VertexCache::peek(u32 vertex) const {
  const int age = find(vertex);
  if (age < 0) return {.hit = false, .bad = false, .cost = model_.miss_cost};
  // The tail is the entries next in line to be overwritten (in a full cache: the oldest ones).
  const bool bad = model_.bad_tail > 0 && static_cast<u32>(age) >= model_.size - model_.bad_tail;
  return {.hit = true, .bad = bad, .cost = bad ? model_.bad_cost : 0.0f};
}

CacheAccess VertexCache::access(u32 vertex) {
  const CacheAccess result = peek(vertex);
  if (result.hit) {
    if (model_.kind == CacheKind::kLru) {
      const u32 age = static_cast<u32>(find(vertex));
      for (u32 i = age; i > 0; --i) slots_[i] = slots_[i - 1];  // refresh: becomes the newest
      slots_[0] = vertex;
    }
    return result;
  }
  if (count_ < model_.size) ++count_;  // when full, the oldest falls off the end
  for (u32 i = count_ - 1; i > 0; --i) slots_[i] = slots_[i - 1];
  slots_[0] = vertex;
  return result;
}

std::vector<u32> VertexCache::entries() const {
  return std::vector<u32>(slots_.begin(), slots_.begin() + count_);
}

void VertexCache::clear() { count_ = 0; }

double acmr(std::span<const u32> indices, bool strip, const CacheModel& model) {
  VertexCache cache(model);
  usize misses = 0;
  usize triangles = 0;
  for (usize i = 0; i < indices.size(); ++i) {
    if (!cache.access(indices[i]).hit) ++misses;
  }
  if (strip) {
    for (usize i = 2; i < indices.size(); ++i) {
      const u32 a = indices[i - 2], b = indices[i - 1], c = indices[i];
      if (a != b && b != c && a != c) ++triangles;
    }
  } else {
    for (usize i = 0; i + 2 < indices.size(); i += 3) {
      const u32 a = indices[i], b = indices[i + 1], c = indices[i + 2];
      if (a != b && b != c && a != c) ++triangles;
    }
  }
  return triangles == 0 ? 0.0 : static_cast<double>(misses) / static_cast<double>(triangles);
}

}  // namespace keel::assets
