// The book's triangle stripper (Golden Rules ch. 6, "Automatic Triangle-Strip Generation"),
// Keel's own code: edge adjacency through directed edge keys, start on the triangle with the
// fewest unassigned neighbours, neighbour choice by weighted cost (unassigned neighbours, cache
// misses in a FIFO or LRU model, swaps, bad cache entries), swaps with degenerate triangles,
// stitching with the book's parity rule in the order of lowest average stitch cost, strip limits,
// and vertex re-ordering into first-use order.
//
// Strip convention: the triangle at strip position k is (s[k], s[k+1], s[k+2]) for even k and
// (s[k], s[k+2], s[k+1]) for odd k; it is read in the input's winding ("clockwise" in the book),
// so every strip starts at an even position with an input-oriented triangle.
#pragma once

#include "keel/assets/build/strip_cache.h"
#include "keel/core/types.h"

#include <array>
#include <limits>
#include <span>
#include <vector>

namespace keel::assets {

using Strip = std::vector<u32>;
using Triangle = std::array<u32, 3>;

// The book's 32-bit directed edge key of 16-bit indices: (a, b) != (b, a).
constexpr u32 edge_key16(u16 a, u16 b) { return (static_cast<u32>(a) << 16) | b; }

// Neighbours through shared edges. A shared edge runs in opposite directions in its two
// triangles; an edge is matched once (a third triangle on it starts a new edge), and two
// triangles with inconsistent winding are not neighbours.
struct Adjacency {
  static constexpr u32 kNone = std::numeric_limits<u32>::max();
  // neighbour[t][e]: the triangle across edge e = (i_e -> i_(e+1)) of triangle t, or kNone.
  std::vector<std::array<u32, 3>> neighbour;
  std::vector<u8> count;  // neighbours per triangle
};
Adjacency build_adjacency(std::span<const u32> indices);

struct StripWeights {
  float neighbours = 4.0f;  // per unassigned neighbour of the candidate (avoid isolating)
  float miss = 2.0f;        // the new vertex is not in the simulated cache
  float swap = 8.0f;        // leaving by the "wrong" edge (2 degenerate triangles)
  float bad_entry = 1.0f;   // the candidate hits a penalised cache entry
};

struct StripOptions {
  CacheModel cache;
  StripWeights weights;
  u32 max_strip_indices = 0;   // 0: unlimited (otherwise at least 3)
  u32 max_strip_vertices = 0;  // distinct vertices per strip; 0: unlimited (otherwise >= 3)
  bool stitch = true;          // join the strips into as few as the limits allow
  // Ends a strip whose next vertex would miss the cache once it has missed this often, so the
  // next strip starts beside the cached vertices (a strip longer than the cache loses its
  // neighbours' reuse). 0: the cache size; a value >= 2^31: never. A strip that has reused cached
  // vertices also ends at its second miss in a row (it has run past the row it was reusing).
  u32 restart_after_misses = 0;
};

// Splits the triangles (3 indices each, degenerate ones dropped) into strips.
std::vector<Strip> make_strips(std::span<const u32> indices, const StripOptions& options = {});

// Joins strip `b` to the end of `a` with the book's rule: an odd-length `a` repeats its last index
// twice, an even one once; then b's first index twice and the rest of b.
void stitch_onto(Strip& a, std::span<const u32> b);
// Average cost per vertex of drawing `b` after `a` in a cache filled by `a`'s vertices, counted
// until the cache has been flushed or b's vertices run out (the book's stitch-order measure).
float stitch_cost(std::span<const u32> a, std::span<const u32> b, const CacheModel& cache);
// Stitches strips of one material, the pair with the lowest average stitch cost first, keeping
// within the limits of `options` (strips that cannot join stay separate).
std::vector<Strip> stitch_strips(std::vector<Strip> strips, const StripOptions& options);

// The triangles a strip draws, degenerate ones included, each in drawing orientation.
std::vector<Triangle> decode_strip(std::span<const u32> strip);
bool is_degenerate(const Triangle& t);

// The book's output: strip count, then per strip its index count and indices.
std::vector<u32> encode_strip_list(std::span<const Strip> strips);
// Reads encode_strip_list's format; false when the stream is malformed (counts past the end).
bool decode_strip_list(std::span<const u32> stream, std::vector<Strip>& out);

// Vertex re-ordering: each strip gets its own contiguous block of vertices in first-use order
// (vertices shared by several strips are duplicated); `order[new] = old`.
struct ReorderedStrips {
  std::vector<Strip> strips;
  std::vector<u32> order;
};
ReorderedStrips reorder_vertices(std::span<const Strip> strips);

}  // namespace keel::assets
