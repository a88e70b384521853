#include "keel/assets/build/strip.h"

#include "keel/core/assert.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

namespace keel::assets {

namespace {

constexpr u64 edge_key(u32 a, u32 b) { return (static_cast<u64>(a) << 32) | b; }

struct EdgeRef {
  u32 triangle;
  u32 edge;
};

usize distinct_count(std::span<const u32> a, std::span<const u32> b = {}) {
  std::unordered_set<u32> seen(a.begin(), a.end());
  seen.insert(b.begin(), b.end());
  return seen.size();
}

// The greedy strip builder over dense vertex ids.
class Stripper {
 public:
  Stripper(std::vector<Triangle> tris, u32 vertex_count, const StripOptions& options)
      : tris_(std::move(tris)), options_(options), cache_(options.cache) {
    restart_after_ = options.restart_after_misses != 0 ? options.restart_after_misses
                                                       : std::max<u32>(options.cache.size, 4);
    std::vector<u32> flat;
    flat.reserve(tris_.size() * 3);
    for (const Triangle& t : tris_) flat.insert(flat.end(), t.begin(), t.end());
    adjacency_ = build_adjacency(flat);
    count_ = adjacency_.count;
    assigned_.assign(tris_.size(), 0);
    for (u32 t = static_cast<u32>(tris_.size()); t-- > 0;) buckets_[count_[t]].push_back(t);
    // Triangles of each vertex (CSR), for starting new strips next to the cached vertices.
    first_.assign(vertex_count + 1, 0);
    for (const Triangle& t : tris_) {
      for (u32 v : t) ++first_[v + 1];
    }
    for (u32 v = 0; v < vertex_count; ++v) first_[v + 1] += first_[v];
    of_vertex_.resize(flat.size());
    std::vector<u32> fill(first_.begin(), first_.end() - 1);
    for (u32 t = 0; t < tris_.size(); ++t) {
      for (u32 v : tris_[t]) of_vertex_[fill[v]++] = t;
    }
  }

  std::vector<Strip> run() {
    std::vector<Strip> strips;
    for (usize done = 0; done < tris_.size();) {
      Strip strip = grow(pick_start(), done);
      strips.push_back(std::move(strip));
    }
    return strips;
  }

 private:
  void assign(u32 t) {
    assigned_[t] = 1;
    for (u32 n : adjacency_.neighbour[t]) {
      if (n == Adjacency::kNone || assigned_[n]) continue;
      --count_[n];
      buckets_[count_[n]].push_back(n);
    }
  }

  float vertex_cost(u32 v) const {
    const CacheAccess a = cache_.peek(v);
    return (a.hit ? 0.0f : options_.weights.miss * a.cost) +
           (a.bad ? options_.weights.bad_entry * a.cost : 0.0f);
  }

  // A small preference for vertices about to leave the cache: use them while they are there.
  float age_bonus(u32 v) const {
    const int age = cache_.age(v);
    return age < 0 ? 0.0f
                   : 0.25f * static_cast<float>(age) / static_cast<float>(options_.cache.size);
  }

  // Fewest unassigned neighbours; among the triangles touching the vertices the last strip brought
  // into the cache (still cached) first, with their cache cost added: the strip starts beside the
  // row the last one laid down, so it reuses that row instead of the older rows the last strip
  // itself reused (on a grid this gives bands of strips as wide as the cache allows).
  u32 pick_start() {
    u32 best = Adjacency::kNone;
    float best_cost = 0.0f;
    for (u32 v : fresh_) {
      if (!cache_.contains(v)) continue;
      for (u32 i = first_[v]; i < first_[v + 1]; ++i) {
        const u32 t = of_vertex_[i];
        if (assigned_[t]) continue;
        float cost = options_.weights.neighbours * static_cast<float>(count_[t]);
        for (u32 w : tris_[t]) cost += vertex_cost(w) - age_bonus(w);
        if (best == Adjacency::kNone || cost < best_cost || (cost == best_cost && t < best)) {
          best = t;
          best_cost = cost;
        }
      }
    }
    if (best != Adjacency::kNone) return best;
    for (std::vector<u32>& bucket : buckets_) {
      while (!bucket.empty()) {
        const u32 t = bucket.back();
        if (!assigned_[t] && &bucket == &buckets_[count_[t]]) return t;
        bucket.pop_back();
      }
    }
    KEEL_ASSERT(false, "stripper: no unassigned triangle left to start a strip");
    return 0;
  }

  static u32 third_vertex(const Triangle& t, u32 a, u32 b) {
    for (u32 v : t) {
      if (v != a && v != b) return v;
    }
    return t[0];
  }

  // Neighbour of `t` across the edge with end points {a, b}, if unassigned.
  u32 across(u32 t, u32 a, u32 b) const {
    for (u32 e = 0; e < 3; ++e) {
      const u32 x = tris_[t][e], y = tris_[t][(e + 1) % 3];
      if ((x == a && y == b) || (x == b && y == a)) {
        const u32 n = adjacency_.neighbour[t][e];
        return (n != Adjacency::kNone && !assigned_[n]) ? n : Adjacency::kNone;
      }
    }
    return Adjacency::kNone;
  }

  bool fits(const Strip& strip, u32 added_indices, u32 new_vertex) const {
    if (options_.max_strip_indices != 0 &&
        strip.size() + added_indices > options_.max_strip_indices) {
      return false;
    }
    if (options_.max_strip_vertices != 0 && !in_strip_.contains(new_vertex) &&
        in_strip_.size() + 1 > options_.max_strip_vertices) {
      return false;
    }
    return true;
  }

  void append(Strip& strip, u32 v) {
    strip.push_back(v);
    if (!cache_.access(v).hit) fresh_.push_back(v);
    if (options_.max_strip_vertices != 0) in_strip_.insert(v);
  }

  struct Candidate {
    u32 triangle = Adjacency::kNone;
    u32 vertex = 0;
    bool swap = false;
    float cost = 0.0f;
  };

  void consider(Candidate& best, const Strip& strip, u32 n, u32 v, bool swap) const {
    if (n == Adjacency::kNone || !fits(strip, swap ? 3 : 1, v)) return;
    const StripWeights& w = options_.weights;
    const float cost =
        w.neighbours * static_cast<float>(count_[n]) + vertex_cost(v) + (swap ? w.swap : 0.0f);
    if (best.triangle == Adjacency::kNone || cost < best.cost ||
        (cost == best.cost && n < best.triangle)) {
      best = {n, v, swap, cost};
    }
  }

  Strip grow(u32 start, usize& done) {
    Strip strip;
    fresh_.clear();
    in_strip_.clear();
    assign(start);
    ++done;
    const Triangle& t0 = tris_[start];
    // The second triangle sets the strip's direction: any neighbour works without degenerates.
    Candidate best;
    u32 best_edge = 0;
    for (u32 e = 0; e < 3; ++e) {
      const u32 n = adjacency_.neighbour[start][e];
      if (n == Adjacency::kNone || assigned_[n]) continue;
      const Candidate before = best;
      consider(best, {t0[0], t0[1], t0[2]}, n, third_vertex(tris_[n], t0[e], t0[(e + 1) % 3]),
               false);
      if (best.triangle != before.triangle) best_edge = e;
    }
    if (options_.max_strip_indices != 0 && options_.max_strip_indices < 4) best = {};
    if (options_.max_strip_vertices != 0 && options_.max_strip_vertices < 4) best = {};
    const u32 e = best.triangle == Adjacency::kNone ? 2 : best_edge;
    append(strip, t0[(e + 2) % 3]);
    append(strip, t0[e]);
    append(strip, t0[(e + 1) % 3]);
    u32 current = start;
    u32 misses = 3;
    bool hit_seen = false;
    bool last_missed = true;
    while (best.triangle != Adjacency::kNone) {
      const bool miss = !cache_.contains(best.vertex);
      if (miss) {
        if (misses >= restart_after_) break;  // start again beside the cached vertices
        // Two misses in a row after hits: the strip has run past the row it was reusing.
        if (hit_seen && last_missed) break;
        ++misses;
      } else {
        hit_seen = true;
      }
      last_missed = miss;
      if (best.swap) {
        const u32 r = strip[strip.size() - 3], q = strip.back();
        append(strip, q);
        append(strip, r);
      }
      append(strip, best.vertex);
      assign(best.triangle);
      ++done;
      current = best.triangle;
      // Next: leave by the expected edge (p, q), or swap to (r, q).
      const u32 r = strip[strip.size() - 3], p = strip[strip.size() - 2], q = strip.back();
      best = {};
      const u32 straight = across(current, p, q);
      if (straight != Adjacency::kNone) {
        consider(best, strip, straight, third_vertex(tris_[straight], p, q), false);
      }
      const u32 swapped = across(current, r, q);
      if (swapped != Adjacency::kNone) {
        consider(best, strip, swapped, third_vertex(tris_[swapped], r, q), true);
      }
    }
    return strip;
  }

  std::vector<Triangle> tris_;
  StripOptions options_;
  u32 restart_after_ = 0;
  VertexCache cache_;
  Adjacency adjacency_;
  std::vector<u8> count_;
  std::vector<u8> assigned_;
  std::array<std::vector<u32>, 4> buckets_;
  std::vector<u32> first_;
  std::vector<u32> of_vertex_;
  std::unordered_set<u32> in_strip_;
  std::vector<u32> fresh_;  // vertices the current (or last) strip brought into the cache
};

}  // namespace

Adjacency build_adjacency(std::span<const u32> indices) {
  const usize n = indices.size() / 3;
  Adjacency adj;
  adj.neighbour.assign(n, {Adjacency::kNone, Adjacency::kNone, Adjacency::kNone});
  adj.count.assign(n, 0);
  std::unordered_map<u64, EdgeRef> open;  // unmatched edges, stored under their reversed key
  open.reserve(n * 2);
  for (u32 t = 0; t < n; ++t) {
    for (u32 e = 0; e < 3; ++e) {
      const u32 a = indices[t * 3 + e], b = indices[t * 3 + (e + 1) % 3];
      const auto it = open.find(edge_key(a, b));
      if (it != open.end() && it->second.triangle != t) {
        const EdgeRef other = it->second;
        open.erase(it);  // the edge has its two triangles
        adj.neighbour[t][e] = other.triangle;
        adj.neighbour[other.triangle][other.edge] = t;
        ++adj.count[t];
        ++adj.count[other.triangle];
      } else {
        open.emplace(edge_key(b, a), EdgeRef{t, e});
      }
    }
  }
  return adj;
}

bool is_degenerate(const Triangle& t) { return t[0] == t[1] || t[1] == t[2] || t[0] == t[2]; }

std::vector<Strip> make_strips(std::span<const u32> indices, const StripOptions& options) {
  KEEL_ASSERT(indices.size() % 3 == 0, "make_strips needs 3 indices per triangle");
  KEEL_ASSERT(options.max_strip_indices == 0 || options.max_strip_indices >= 3,
              "max_strip_indices must be 0 (unlimited) or at least 3");
  KEEL_ASSERT(options.max_strip_vertices == 0 || options.max_strip_vertices >= 3,
              "max_strip_vertices must be 0 (unlimited) or at least 3");
  StripOptions opts = options;
  if (opts.max_strip_indices != 0)
    opts.max_strip_indices = std::max<u32>(opts.max_strip_indices, 3);
  if (opts.max_strip_vertices != 0) {
    opts.max_strip_vertices = std::max<u32>(opts.max_strip_vertices, 3);
  }
  // Dense vertex ids, so the stripper's tables are as small as the mesh.
  std::vector<u32> unique(indices.begin(),
                          indices.end() - static_cast<std::ptrdiff_t>(indices.size() % 3));
  std::sort(unique.begin(), unique.end());
  unique.erase(std::unique(unique.begin(), unique.end()), unique.end());
  const auto dense = [&](u32 v) {
    return static_cast<u32>(std::lower_bound(unique.begin(), unique.end(), v) - unique.begin());
  };
  std::vector<Triangle> tris;
  tris.reserve(indices.size() / 3);
  for (usize i = 0; i + 2 < indices.size(); i += 3) {
    const Triangle t{dense(indices[i]), dense(indices[i + 1]), dense(indices[i + 2])};
    if (!is_degenerate(t)) tris.push_back(t);
  }
  if (tris.empty()) return {};
  std::vector<Strip> strips =
      Stripper(std::move(tris), static_cast<u32>(unique.size()), opts).run();
  for (Strip& s : strips) {
    for (u32& v : s) v = unique[v];
  }
  if (opts.stitch) strips = stitch_strips(std::move(strips), opts);
  return strips;
}

void stitch_onto(Strip& a, std::span<const u32> b) {
  if (b.empty()) return;
  if (a.empty()) {
    a.assign(b.begin(), b.end());
    return;
  }
  // Every strip starts clockwise: after an odd count the next triangle would be counterclockwise.
  if (a.size() % 2 == 1) a.push_back(a.back());
  a.push_back(a.back());
  a.push_back(b.front());
  a.insert(a.end(), b.begin(), b.end());
}

namespace {

// A cache as drawing `a` leaves it (its last few cache sizes of references are enough).
VertexCache warmed_cache(std::span<const u32> a, const CacheModel& model) {
  VertexCache cache(model);
  const usize warm = std::min<usize>(a.size(), usize{4} * model.size);
  for (u32 v : a.subspan(a.size() - warm)) cache.access(v);
  return cache;
}

// stitch_cost of drawing `b` into `cache` (a copy: the caller's stays warm for other candidates).
float stitch_cost_from(VertexCache cache, std::span<const u32> b) {
  const CacheModel& model = cache.model();
  float total = 0.0f;
  u32 misses = 0;
  u32 added = 0;
  for (u32 v : b) {
    const CacheAccess access = cache.access(v);
    total += access.cost;
    ++added;
    if (!access.hit && ++misses >= model.size) break;  // the cache has been flushed
  }
  return added == 0 ? 0.0f : total / static_cast<float>(added);
}

}  // namespace

float stitch_cost(std::span<const u32> a, std::span<const u32> b, const CacheModel& model) {
  return stitch_cost_from(warmed_cache(a, model), b);
}

std::vector<Strip> stitch_strips(std::vector<Strip> strips, const StripOptions& options) {
  constexpr usize kWindow = 16;  // candidates looked at per join (strips come out in cache order)
  std::vector<Strip> out;
  std::vector<Strip> pool;
  for (Strip& s : strips) {
    if (!s.empty()) pool.push_back(std::move(s));
  }
  if (pool.empty()) return out;
  std::reverse(pool.begin(), pool.end());  // take from the back: creation order
  Strip current = std::move(pool.back());
  pool.pop_back();
  while (!pool.empty()) {
    usize best = pool.size() - 1;
    float best_cost = 0.0f;
    const usize stop = pool.size() > kWindow ? pool.size() - kWindow : 0;
    const VertexCache warm = warmed_cache(current, options.cache);
    for (usize i = pool.size(); i-- > stop;) {
      const float cost = stitch_cost_from(warm, pool[i]);
      if (i == pool.size() - 1 || cost < best_cost) {
        best = i;
        best_cost = cost;
      }
    }
    Strip next = std::move(pool[best]);
    pool.erase(pool.begin() + static_cast<std::ptrdiff_t>(best));
    const usize joined = current.size() + (current.size() % 2 == 1 ? 2 : 1) + 1 + next.size();
    bool fits = options.max_strip_indices == 0 || joined <= options.max_strip_indices;
    if (fits && options.max_strip_vertices != 0) {
      fits = distinct_count(current, next) <= options.max_strip_vertices;
    }
    if (fits) {
      stitch_onto(current, next);
    } else {
      out.push_back(std::move(current));
      current = std::move(next);
    }
  }
  out.push_back(std::move(current));
  return out;
}

std::vector<Triangle> decode_strip(std::span<const u32> strip) {
  std::vector<Triangle> out;
  for (usize k = 0; k + 2 < strip.size(); ++k) {
    if (k % 2 == 0) {
      out.push_back({strip[k], strip[k + 1], strip[k + 2]});
    } else {
      out.push_back({strip[k], strip[k + 2], strip[k + 1]});
    }
  }
  return out;
}

std::vector<u32> encode_strip_list(std::span<const Strip> strips) {
  std::vector<u32> out;
  out.push_back(static_cast<u32>(strips.size()));
  for (const Strip& s : strips) {
    out.push_back(static_cast<u32>(s.size()));
    out.insert(out.end(), s.begin(), s.end());
  }
  return out;
}

bool decode_strip_list(std::span<const u32> stream, std::vector<Strip>& out) {
  out.clear();
  if (stream.empty()) return false;
  const u32 count = stream[0];
  usize at = 1;
  for (u32 s = 0; s < count; ++s) {
    if (at >= stream.size()) return false;
    const u32 length = stream[at++];
    if (length > stream.size() - at) return false;
    out.emplace_back(stream.begin() + static_cast<std::ptrdiff_t>(at),
                     stream.begin() + static_cast<std::ptrdiff_t>(at + length));
    at += length;
  }
  return at == stream.size();
}

ReorderedStrips reorder_vertices(std::span<const Strip> strips) {
  ReorderedStrips result;
  for (const Strip& strip : strips) {
    std::unordered_map<u32, u32> local;  // old -> new, per strip: shared vertices are duplicated
    Strip remapped;
    remapped.reserve(strip.size());
    for (u32 v : strip) {
      const auto [it, added] = local.try_emplace(v, static_cast<u32>(result.order.size()));
      if (added) result.order.push_back(v);
      remapped.push_back(it->second);
    }
    result.strips.push_back(std::move(remapped));
  }
  return result;
}

}  // namespace keel::assets
