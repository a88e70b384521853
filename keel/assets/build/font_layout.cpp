#include "keel/assets/build/font_layout.h"

#include <algorithm>
#include <numeric>

namespace keel::assets {

GlyphCell glyph_cell(AbcWidths abc, s32 border) {
  GlyphCell cell;
  cell.width = abc.b + std::max(abc.a, 0) + std::max(abc.c, 0) + 2 * border;
  cell.pen_offset = std::max(-abc.a, 0);
  cell.ink_offset = std::max(abc.a, 0) + border;
  cell.preadvance = std::min(abc.a, 0) - border;
  cell.postadvance = std::min(abc.c, 0) - border;
  return cell;
}

s32 search_font_size(const std::function<bool(s32)>& fits, s32 first, s32 max_size) {
  const auto test = [&](s32 size) { return size > 0 && size <= max_size && fits(size); };
  s32 good = 0;
  s32 bad = std::max(first, 1);
  while (test(bad)) {
    good = bad;
    if (bad > max_size / 2) {
      bad = max_size + 1;
      break;
    }
    bad *= 2;
  }
  // Binary search of the open interval (good, bad): good fits, bad does not.
  while (bad - good > 1) {
    const s32 mid = good + (bad - good) / 2;
    if (test(mid)) {
      good = mid;
    } else {
      bad = mid;
    }
  }
  return good;
}

std::optional<std::vector<CellPosition>> pack_cells(std::span<const s32> widths, s32 row_height,
                                                    s32 width, s32 height) {
  if (row_height <= 0 || width <= 0 || height <= 0) return std::nullopt;
  std::vector<u32> order(widths.size());
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(), [&](u32 a, u32 b) {
    return widths[a] != widths[b] ? widths[a] > widths[b] : a < b;  // widest first, then in order
  });
  const s32 rows = height / row_height;
  std::vector<s32> used;  // filled width of each opened row
  std::vector<CellPosition> at(widths.size());
  for (u32 i : order) {
    const s32 w = widths[i];
    if (w > width) return std::nullopt;
    usize row = 0;
    while (row < used.size() && used[row] + w > width) ++row;
    if (row == used.size()) {
      if (static_cast<s32>(used.size()) >= rows) return std::nullopt;
      used.push_back(0);
    }
    at[i] = {used[row], static_cast<s32>(row) * row_height};
    used[row] += w;
  }
  return at;
}

std::optional<AtlasSize> smallest_atlas(std::span<const s32> widths, s32 row_height, s32 max_side) {
  std::optional<AtlasSize> best;
  if (row_height <= 0) return best;
  for (s32 w = 64; w <= max_side; w *= 2) {
    // Rows needed at this width: pack with unlimited height, then count the rows used.
    const auto placed = pack_cells(widths, row_height, w, max_side);
    if (!placed) continue;
    s32 bottom = row_height;
    for (const CellPosition& p : *placed) bottom = std::max(bottom, p.y + row_height);
    const s32 h = (bottom + 3) / 4 * 4;
    if (h > max_side || h > 2 * w) continue;  // no taller than twice the width
    const s64 area = s64{w} * h;
    const auto squareness = [](AtlasSize s) { return std::abs(s.width - s.height); };
    if (!best || area < s64{best->width} * best->height ||
        (area == s64{best->width} * best->height && squareness({w, h}) < squareness(*best))) {
      best = AtlasSize{w, h};
    }
  }
  return best;
}

}  // namespace keel::assets
