// The "good enough" BSP builder (Golden Rules ch. 2.7.1). Iterative (an explicit task stack), so a
// convex mesh of many thousand faces, whose tree is a list, does not exhaust the call stack.
#include "keel/spatial/bsp.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace keel::spatial {

double h_balance(u32 n_front, u32 n_back) {
  const double sum = static_cast<double>(n_front) + n_back;
  if (sum == 0) return 0;
  return 4.0 * n_front * n_back / (sum * sum);
}

double h_coplanar(u32 n_coplanar, u32 n_total) {
  return n_total == 0 ? 0.0 : static_cast<double>(n_coplanar) / n_total;
}

double h_split(u32 n_split, u32 n_total) {
  return n_total == 0 ? 1.0 : 1.0 - static_cast<double>(n_split) / n_total;
}

double h_regular(Vec3 normal, const Vec3* parent, const Vec3* grandparent) {
  const double p = parent ? std::abs(static_cast<double>(dot(normal, *parent))) : 0.0;
  const double g = grandparent ? std::abs(static_cast<double>(dot(normal, *grandparent))) : 0.0;
  return (2.0 - std::min(p, 1.0)) * (2.0 - std::min(g, 1.0)) / 4.0;
}

double BspHeuristic::combine(double hb, double hc, double hs, double hr) const {
  auto term = [](const BspTerm& t, double h) {
    return std::pow((1.0 - t.weight) + t.weight * h, t.exponent);
  };
  return term(balance, hb) * std::pow(1.0 + coplanar.weight * hc, coplanar.exponent) *
         term(split, hs) * term(regular, hr);
}

u64 bsp_tree_count(u32 faces) {
  u64 count = 1;
  for (u32 i = 2; i <= faces; ++i) {
    if (count > std::numeric_limits<u64>::max() / i) return std::numeric_limits<u64>::max();
    count *= i;
  }
  return count;
}

namespace {

struct WorkFace {
  Triangle tri;
  Plane plane;
  u32 source = 0;
  bool dummy = false;
};

enum class Link : u8 { kRoot, kFront, kBack, kSecondary };

struct Task {
  std::vector<WorkFace> faces;
  u32 parent = kBspNone;
  Link link = Link::kRoot;
  std::optional<Vec3> parent_normal;
  std::optional<Vec3> grandparent_normal;
  u32 depth = 1;
  bool main_tree = true;
};

class Builder {
 public:
  explicit Builder(const BspBuildOptions& options) : opt_(options) {}

  BspTree run(std::span<const BspInputFace> input) {
    Task root;
    tree_.epsilon = opt_.epsilon;
    for (const BspInputFace& in : input) {
      ++tree_.stats.input_faces;
      const std::optional<Plane> plane = plane_of(in.tri);
      if (!plane) {
        ++tree_.stats.dropped_faces;
        continue;
      }
      tree_.stats.dummy_faces += in.dummy ? 1 : 0;
      root.faces.push_back({in.tri, *plane, in.source, in.dummy});
    }
    tasks_.push_back(std::move(root));
    while (!tasks_.empty()) {
      Task task = std::move(tasks_.back());
      tasks_.pop_back();
      make_node(task);
    }
    BspStats& s = tree_.stats;
    s.nodes = static_cast<u32>(tree_.nodes.size());
    s.faces = static_cast<u32>(tree_.faces.size());
    s.balance = s.depth == 0 ? 1.0 : std::log2(static_cast<double>(main_nodes_) + 1) / s.depth;
    return std::move(tree_);
  }

 private:
  // A dummy stays while it separates something: real faces wholly on each side of it.
  void drop_idle_dummies(std::vector<WorkFace>& faces) const {
    std::vector<WorkFace> kept;
    kept.reserve(faces.size());
    for (const WorkFace& f : faces) {
      if (!f.dummy) {
        kept.push_back(f);
        continue;
      }
      bool front = false;
      bool back = false;
      for (const WorkFace& g : faces) {
        if (g.dummy) continue;
        const Side side = classify(g.tri, g.plane.normal, f.plane, opt_.epsilon);
        front |= side == Side::kFront;
        back |= side == Side::kBack;
        if (front && back) break;
      }
      if (front && back) kept.push_back(f);
    }
    faces = std::move(kept);
  }

  double score(const std::vector<WorkFace>& faces, u32 candidate, const Task& task) const {
    const WorkFace& c = faces[candidate];
    u32 n_front = 0, n_back = 0, n_split = 0, n_coplanar = 0, n_total = 0;
    for (u32 i = 0; i < faces.size(); ++i) {
      if (i == candidate || faces[i].dummy) continue;
      ++n_total;
      switch (classify(faces[i].tri, faces[i].plane.normal, c.plane, opt_.epsilon)) {
        case Side::kFront: ++n_front; break;
        case Side::kBack: ++n_back; break;
        case Side::kSpanning: ++n_split; break;
        case Side::kCoplanarSame:
        case Side::kCoplanarOpposite: ++n_coplanar; break;
      }
    }
    // A split face ends up on both sides, so it counts on both for the balance.
    const double hb = h_balance(n_front + n_split, n_back + n_split);
    const double hr = h_regular(c.plane.normal, task.parent_normal ? &*task.parent_normal : nullptr,
                                task.grandparent_normal ? &*task.grandparent_normal : nullptr);
    const double h =
        opt_.heuristic.combine(hb, h_coplanar(n_coplanar, n_total), h_split(n_split, n_total), hr);
    return c.dummy ? h * (1.0 + opt_.heuristic.dummy_bonus) : h;
  }

  u32 choose(const std::vector<WorkFace>& faces, const Task& task) const {
    u32 real = 0;
    for (const WorkFace& f : faces) real += f.dummy ? 0 : 1;
    const u32 stride = opt_.max_candidates == 0 || real <= opt_.max_candidates
                           ? 1
                           : (real + opt_.max_candidates - 1) / opt_.max_candidates;
    u32 best = kBspNone;
    double best_score = -1;
    u32 real_seen = 0;
    for (u32 i = 0; i < faces.size(); ++i) {
      if (!faces[i].dummy && (real_seen++ % stride) != 0) continue;
      const double s = score(faces, i, task);
      if (s > best_score) {  // ties keep the earlier face
        best_score = s;
        best = i;
      }
    }
    return best;
  }

  void link(const Task& task, u32 node) {
    if (task.parent == kBspNone) return;
    BspNode& parent = tree_.nodes[task.parent];
    if (task.link == Link::kFront) parent.front = node;
    if (task.link == Link::kBack) parent.back = node;
    if (task.link == Link::kSecondary) parent.secondary = node;
  }

  void emit(const WorkFace& f) { tree_.faces.push_back({f.tri, f.plane, f.source}); }

  void make_node(Task& task) {
    drop_idle_dummies(task.faces);
    const bool any_real =
        std::any_of(task.faces.begin(), task.faces.end(), [](const auto& f) { return !f.dummy; });
    if (!any_real) return;
    const u32 chosen = choose(task.faces, task);
    const Plane plane = task.faces[chosen].plane;
    const u32 index = static_cast<u32>(tree_.nodes.size());
    tree_.nodes.push_back(
        {plane, kBspNone, kBspNone, kBspNone, static_cast<u32>(tree_.faces.size()), 0});
    link(task, index);
    if (task.main_tree) {
      ++main_nodes_;
      tree_.stats.depth = std::max(tree_.stats.depth, task.depth);
    }
    if (!task.faces[chosen].dummy) emit(task.faces[chosen]);

    Task front{
        {}, index, Link::kFront, plane.normal, task.parent_normal, task.depth + 1, task.main_tree};
    Task back{
        {}, index, Link::kBack, plane.normal, task.parent_normal, task.depth + 1, task.main_tree};
    Task secondary{{}, index, Link::kSecondary, std::nullopt, std::nullopt, 1, false};
    for (u32 i = 0; i < task.faces.size(); ++i) {
      if (i == chosen) continue;
      const WorkFace& f = task.faces[i];
      const Side side = classify(f.tri, f.plane.normal, plane, opt_.epsilon);
      const bool coplanar = side == Side::kCoplanarSame || side == Side::kCoplanarOpposite;
      if (f.dummy) {
        if (coplanar) continue;    // the same cut again: never in the final model
        front.faces.push_back(f);  // an infinite plane: relevant on both sides
        back.faces.push_back(f);
        continue;
      }
      if (coplanar) {
        emit(f);
      } else if (side == Side::kFront) {
        front.faces.push_back(f);
      } else if (side == Side::kBack) {
        back.faces.push_back(f);
      } else if (opt_.multiroot) {
        secondary.faces.push_back(f);
      } else {
        ++tree_.stats.splits;
        const SplitResult pieces = split(f.tri, plane, opt_.epsilon);
        for (u32 k = 0; k < pieces.front_count; ++k) {
          front.faces.push_back({pieces.front[k], f.plane, f.source, false});
        }
        for (u32 k = 0; k < pieces.back_count; ++k) {
          back.faces.push_back({pieces.back[k], f.plane, f.source, false});
        }
      }
    }
    tree_.nodes[index].face_count =
        static_cast<u32>(tree_.faces.size()) - tree_.nodes[index].first_face;
    if (!secondary.faces.empty()) {
      ++tree_.stats.secondary_trees;
      tasks_.push_back(std::move(secondary));
    }
    if (!back.faces.empty()) tasks_.push_back(std::move(back));
    if (!front.faces.empty()) tasks_.push_back(std::move(front));
  }

  const BspBuildOptions& opt_;
  BspTree tree_;
  std::vector<Task> tasks_;
  u32 main_nodes_ = 0;
};

// Lays the nodes out in blocks: the top levels of a subtree (breadth first, kBlock nodes) side by
// side, blocks in depth-first order. A query then reads a few neighbouring cache lines per block
// instead of one distant line per node. Children still come after their parent.
void lay_out_in_blocks(BspTree& tree) {
  constexpr std::size_t kBlock = 7;
  const std::size_t count = tree.nodes.size();
  if (count <= kBlock) return;
  std::vector<u32> order;
  order.reserve(count);
  std::vector<u32> roots{0};
  std::vector<u32> block;
  while (!roots.empty()) {
    const u32 root = roots.back();
    roots.pop_back();
    block.assign(1, root);
    for (std::size_t i = 0; i < block.size(); ++i) {
      for (const u32 child : {tree.nodes[block[i]].front, tree.nodes[block[i]].back}) {
        if (child != kBspNone && block.size() < kBlock) block.push_back(child);
      }
    }
    // Every child outside the block (and every secondary tree) starts a later block.
    const std::size_t first_new = roots.size();
    for (const u32 n : block) {
      for (const u32 child : {tree.nodes[n].front, tree.nodes[n].back, tree.nodes[n].secondary}) {
        if (child != kBspNone && std::find(block.begin(), block.end(), child) == block.end()) {
          roots.push_back(child);
        }
      }
    }
    std::reverse(roots.begin() + static_cast<std::ptrdiff_t>(first_new), roots.end());
    order.insert(order.end(), block.begin(), block.end());
  }
  std::vector<u32> index_of(count, kBspNone);
  for (u32 i = 0; i < order.size(); ++i) index_of[order[i]] = i;
  std::vector<BspNode> nodes;
  nodes.reserve(count);
  auto remap = [&](u32 child) { return child == kBspNone ? kBspNone : index_of[child]; };
  for (const u32 old : order) {
    BspNode n = tree.nodes[old];
    n.front = remap(n.front);
    n.back = remap(n.back);
    n.secondary = remap(n.secondary);
    nodes.push_back(n);
  }
  tree.nodes = std::move(nodes);
}

}  // namespace

BspTree build_bsp(std::span<const BspInputFace> input, const BspBuildOptions& options) {
  BspTree tree = Builder(options).run(input);
  lay_out_in_blocks(tree);
  return tree;
}

}  // namespace keel::spatial
