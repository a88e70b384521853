// BSP trees (Golden Rules ch. 2.7): the "good enough" builder with configurable heuristic weights
// and exponents, artist-placed dummy splitting faces, the multiroot variant that never splits, and
// the queries: front-to-back / back-to-front sort, first hit of a moving point (segment) and of a
// moving sphere (with the book's area of uncertainty).
//
// The tree is flat: nodes and faces in two arrays, children by index. The packed form (pack_bsp)
// is those arrays behind a small header; BspView::load validates a packed tree once and then
// queries it in place, e.g. straight from a pack chunk:
//
//   keel::Result<BspView> tree = BspView::load(chunk_bytes, "level1");
//   if (!tree) return tree.error();                       // located: "level1: byte 60: ..."
//   if (auto hit = tree->segment(from, to)) walk_to(hit->point);
#pragma once

#include "keel/core/bytes.h"
#include "keel/core/error.h"
#include "keel/core/types.h"
#include "keel/spatial/bsp_geometry.h"

#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace keel::spatial {

// ---- The heuristic (eqs 2.11-2.15) ----

// Eq 2.11: 4 n_front n_back / (n_front + n_back)^2; 0 when both are 0.
double h_balance(u32 n_front, u32 n_back);
// Eq 2.12: n_coplanar / n_total; 0 when n_total is 0.
double h_coplanar(u32 n_coplanar, u32 n_total);
// Eq 2.13: 1 - n_split / n_total; 1 when n_total is 0.
double h_split(u32 n_split, u32 n_total);
// Eq 2.14 with unit normals; a missing parent or grandparent counts as perpendicular.
double h_regular(Vec3 normal, const Vec3* parent, const Vec3* grandparent);

// One term of eq 2.15: factor = ((1 - weight) + weight * term) ^ exponent, so weight 1 is the
// book's term, weight 0 switches it off and exponent 0 too. The coplanar term is
// (1 + weight * h_coplanar) ^ exponent (it can only raise a score, as in the book).
struct BspTerm {
  double weight = 1.0;
  double exponent = 1.0;
};

struct BspHeuristic {
  BspTerm balance{1.0, 1.0};
  BspTerm coplanar{1.0, 1.0};
  BspTerm split{1.0, 4.0};
  BspTerm regular{1.0, 1.0};
  // A dummy face's score is multiplied by 1 + dummy_bonus.
  double dummy_bonus = 0.25;

  // Eq 2.15 from the four terms.
  double combine(double hb, double hc, double hs, double hr) const;
};

struct BspBuildOptions {
  BspHeuristic heuristic;
  float epsilon = 1e-4f;  // vertices this close to a plane are on it
  // Candidate faces scored per node (spread evenly over the set; dummies always). 0: every face,
  // the book's O(n^2) per node.
  u32 max_candidates = 0;
  // The multiroot variant: faces a node would split go to a secondary tree of that node.
  bool multiroot = false;
};

// One input face. Dummy faces (artist-placed splitting planes) only ever become node planes.
struct BspInputFace {
  Triangle tri;
  bool dummy = false;
  u32 source = 0;  // the caller's id, kept by every piece the face is split into
};

// ---- The flat tree (also the packed layout; little-endian, 4-byte aligned) ----

inline constexpr u32 kBspNone = 0xFFFFFFFFu;

struct BspNode {
  Plane plane;
  u32 front = kBspNone;  // child indices are always greater than the node's own index
  u32 back = kBspNone;
  u32 secondary = kBspNone;  // multiroot: the tree of the faces this node would have split
  u32 first_face = 0;        // this node's faces (on its plane) are faces[first, first + count)
  u32 face_count = 0;
};

struct BspFace {
  Triangle tri;
  Plane plane;  // the plane of the source face (pieces keep it exactly)
  u32 source = 0;
};

struct BspStats {
  u32 input_faces = 0;
  u32 dropped_faces = 0;  // degenerate (zero-area) input faces
  u32 dummy_faces = 0;
  u32 nodes = 0;
  u32 faces = 0;   // output faces (input + pieces added by splits)
  u32 splits = 0;  // faces split (each adds 1 or 2 faces)
  u32 secondary_trees = 0;
  u32 depth = 0;  // nodes on the longest root-to-leaf path of the main tree
  // log2(nodes + 1) / depth: 1 for a perfectly balanced tree, towards 0 for a list.
  double balance = 0;
};

enum class BspOrder : u8 { kFrontToBack, kBackToFront };

struct BspQueryStats {
  u32 nodes_visited = 0;
  u32 faces_tested = 0;
};

struct BspHit {
  float t = 0;     // along the motion, 0..1
  Vec3 point;      // the point's position (segment) or the sphere centre (sphere) at t
  u32 face = 0;    // index into faces()
  u32 source = 0;  // the face's source id
};

// A read-only tree over nodes and faces that live elsewhere (a BspTree or a packed chunk).
class BspView {
 public:
  BspView() = default;
  // The arrays must satisfy what load() checks (a BspTree's always do).
  BspView(std::span<const BspNode> nodes, std::span<const BspFace> faces, float epsilon)
      : nodes_(nodes), faces_(faces), epsilon_(epsilon) {}

  // Validates a packed tree (pack_bsp's output) and views it in place: the bytes must outlive
  // the view and be 4-byte aligned. Errors carry `name` and the byte offset of the problem.
  static Result<BspView> load(ByteSpan bytes, std::string_view name = "bsp");

  std::span<const BspNode> nodes() const { return nodes_; }
  std::span<const BspFace> faces() const { return faces_; }
  bool empty() const { return nodes_.empty(); }
  float epsilon() const { return epsilon_; }  // the builder's: faces within it are on a plane

  // Every face in drawing order for the eye (book: visits each node once). Appends face indices.
  void sort(Vec3 eye, BspOrder order, std::vector<u32>& out, BspQueryStats* stats = nullptr) const;
  // The first face the moving point a -> b hits.
  std::optional<BspHit> segment(Vec3 a, Vec3 b, BspQueryStats* stats = nullptr) const;
  // The first face a sphere of `radius` moving a -> b touches.
  std::optional<BspHit> sphere(Vec3 a, Vec3 b, float radius, BspQueryStats* stats = nullptr) const;

 private:
  std::span<const BspNode> nodes_;
  std::span<const BspFace> faces_;
  float epsilon_ = 1e-4f;
};

// A built tree owning its arrays. Node 0 is the root.
struct BspTree {
  std::vector<BspNode> nodes;
  std::vector<BspFace> faces;
  BspStats stats;
  float epsilon = 1e-4f;

  BspView view() const { return {nodes, faces, epsilon}; }
};

// The builder (book, 13 steps; dummies and multiroot as in the book's text).
BspTree build_bsp(std::span<const BspInputFace> input, const BspBuildOptions& options = {});

// The load-ready bytes of a tree (header, nodes, faces) and back.
ByteBuffer pack_bsp(const BspView& tree);

// The book's count of possible trees for n faces of a convex set: n! (saturates at u64 max).
u64 bsp_tree_count(u32 faces);

}  // namespace keel::spatial
