// keel-bsp: build BSP trees from OBJ meshes, print their statistics, query them and draw them
// (Golden Rules ch. 2.7). People would rather look at a tree than read it.
//   keel-bsp build MESH.obj -o OUT.kbsp [heuristic options]   the packed, load-ready tree
//   keel-bsp stats TREE                                       depth, nodes, splits, balance, time
//   keel-bsp query TREE --from X,Y,Z --to X,Y,Z [--radius R]  first hit of a point or sphere
//   keel-bsp query TREE --eye X,Y,Z [--back-to-front]         faces in drawing order
//   keel-bsp svg TREE -o OUT.svg [--png OUT.png] [--slice Y]  top view or slice at height Y
// TREE is an OBJ mesh (built on the fly with the options), a .kbsp file, or a pack (.kpk) with
// --asset NAME (the chunk keel-build wrote for BSP("NAME", ...)). Exit status: 0 fine (a query
// that hits nothing too), 1 bad data, 2 usage or I/O error.
#include "keel/core/file.h"
#include "keel/pack/pack_file.h"
#include "keel/spatial/bsp.h"
#include "keel/spatial/build/bsp_obj.h"
#include "keel/spatial/build/bsp_picture.h"

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <chrono>
#include <cmath>
#include <set>
#include <string>
#include <vector>

namespace {

using namespace keel;
using namespace keel::spatial;

int report(const Error& error) {
  fmt::print(stderr, "keel-bsp: {}\n", error.to_string());
  return error.code() == ErrorCode::kIo || error.code() == ErrorCode::kNotFound ? 2 : 1;
}

// A tree from any input, with the bytes (or the built arrays) it views.
struct Loaded {
  BspTree built;     // an OBJ built here
  ByteBuffer bytes;  // a packed tree read from a file
  BspView view;
  bool from_mesh = false;
  double build_ms = 0;
};

struct Input {
  std::string path;
  std::string asset;
  BspBuildOptions options;
  std::vector<double> balance, coplanar, split, regular;
};

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

void apply_term(const std::vector<double>& values, BspTerm& term) {
  if (!values.empty()) term.weight = values[0];
  if (values.size() > 1) term.exponent = values[1];
}

Result<Loaded> load(Input& in) {
  Loaded out;
  if (ends_with(in.path, ".obj")) {
    Result<std::string> text = read_file(in.path);
    if (!text) return std::unexpected(text.error());
    Result<std::vector<BspInputFace>> faces = load_obj_faces(*text, in.path);
    if (!faces) return std::unexpected(faces.error());
    apply_term(in.balance, in.options.heuristic.balance);
    apply_term(in.coplanar, in.options.heuristic.coplanar);
    apply_term(in.split, in.options.heuristic.split);
    apply_term(in.regular, in.options.heuristic.regular);
    const auto start = std::chrono::steady_clock::now();
    out.built = build_bsp(*faces, in.options);
    out.build_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    out.from_mesh = true;
    return out;
  }
  if (ends_with(in.path, ".kpk")) {
    Result<pack::PackFile> pack = pack::PackFile::open(in.path);
    if (!pack) return std::unexpected(pack.error());
    const pack::PackItem* item = pack->find_item(in.asset);
    if (item == nullptr) {
      return fail(ErrorCode::kNotFound, "{}: no asset named '{}' (use --asset)", in.path, in.asset);
    }
    Result<ByteBuffer> bytes = pack->read_chunk(item->name_hash, item->primary);
    if (!bytes) return std::unexpected(bytes.error());
    out.bytes = std::move(*bytes);
  } else {
    Result<std::string> text = read_file(in.path);
    if (!text) return std::unexpected(text.error());
    out.bytes = to_buffer(*text);
  }
  return out;
}

// The view must be made where the Loaded object finally lives (it points into it).
Status bind_view(Loaded& l, const std::string& name) {
  if (l.from_mesh) {
    l.view = l.built.view();
    return ok();
  }
  Result<BspView> view = BspView::load(l.bytes, name);
  if (!view) return std::unexpected(view.error());
  l.view = *view;
  return ok();
}

Result<Vec3> parse_vec(const std::string& text) {
  Vec3 v;
  if (std::sscanf(text.c_str(), "%f,%f,%f", &v.x, &v.y, &v.z) != 3 || !std::isfinite(v.x) ||
      !std::isfinite(v.y) || !std::isfinite(v.z)) {
    return fail(ErrorCode::kParse, "'{}' is not a point X,Y,Z", text);
  }
  return v;
}

u32 depth_of(const BspView& view) {
  u32 depth = 0;
  std::vector<std::pair<u32, u32>> todo;
  if (!view.empty()) todo.push_back({0, 1});
  while (!todo.empty()) {
    const auto [n, d] = todo.back();
    todo.pop_back();
    depth = std::max(depth, d);
    for (const u32 c : {view.nodes()[n].front, view.nodes()[n].back}) {
      if (c != kBspNone) todo.push_back({c, d + 1});
    }
  }
  return depth;
}

int stats(const Loaded& l) {
  const BspView& v = l.view;
  std::set<u32> sources;
  u32 secondary = 0;
  for (const BspFace& f : v.faces()) sources.insert(f.source);
  for (const BspNode& n : v.nodes()) secondary += n.secondary != kBspNone ? 1 : 0;
  const u32 depth = depth_of(v);
  fmt::print("nodes {}\nfaces {}\ndepth {}\n", v.nodes().size(), v.faces().size(), depth);
  fmt::print("balance {:.3f} (log2(nodes + 1) / depth; 1 is perfect)\n",
             depth == 0 ? 1.0 : std::log2(static_cast<double>(v.nodes().size()) + 1) / depth);
  fmt::print("secondary trees {}\n", secondary);
  if (l.from_mesh) {
    const BspStats& s = l.built.stats;
    fmt::print("input faces {} ({} dummies, {} degenerate dropped)\n", s.input_faces, s.dummy_faces,
               s.dropped_faces);
    fmt::print("splits {}\nbuild time {:.2f} ms\n", s.splits, l.build_ms);
  } else {
    fmt::print("faces added by splits {}\n", v.faces().size() - sources.size());
  }
  return 0;
}

struct QueryArgs {
  std::string from, to, eye;
  float radius = 0;
  bool back_to_front = false;
};

int run_query(const BspView& tree, const QueryArgs& q) {
  if (!q.eye.empty()) {
    Result<Vec3> e = parse_vec(q.eye);
    if (!e) return report(e.error()), 2;  // usage
    std::vector<u32> order;
    BspQueryStats qs;
    tree.sort(*e, q.back_to_front ? BspOrder::kBackToFront : BspOrder::kFrontToBack, order, &qs);
    fmt::print("{} faces, {} nodes visited\n", order.size(), qs.nodes_visited);
    for (const u32 f : order) fmt::print("face {} (source {})\n", f, tree.faces()[f].source);
    return 0;
  }
  Result<Vec3> a = parse_vec(q.from);
  Result<Vec3> b = parse_vec(q.to);
  if (!a) return report(a.error()), 2;  // usage
  if (!b) return report(b.error()), 2;  // usage
  BspQueryStats qs;
  const auto hit = q.radius > 0 ? tree.sphere(*a, *b, q.radius, &qs) : tree.segment(*a, *b, &qs);
  if (hit) {
    fmt::print("hit t={:.6f} at ({:.4f}, {:.4f}, {:.4f}) face {} source {}\n", hit->t, hit->point.x,
               hit->point.y, hit->point.z, hit->face, hit->source);
  } else {
    fmt::print("no hit\n");
  }
  fmt::print("{} nodes visited, {} faces tested\n", qs.nodes_visited, qs.faces_tested);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"keel-bsp: build, inspect, query and draw BSP trees"};
  app.require_subcommand(1);
  Input in;
  std::string out_path, png_path;
  QueryArgs q;
  float slice = 0;
  u32 size = 800;
  auto inputs = [&](CLI::App* sub) {
    sub->add_option("input", in.path, "an OBJ mesh, a .kbsp tree or a .kpk pack")->required();
    sub->add_option("--asset", in.asset, "the BSP asset's name in a pack");
    sub->add_option("--balance", in.balance, "weight [exponent] of h_balance")->expected(1, 2);
    sub->add_option("--coplanar", in.coplanar, "weight [exponent] of h_coplanar")->expected(1, 2);
    sub->add_option("--split", in.split, "weight [exponent] of h_split")->expected(1, 2);
    sub->add_option("--regularity", in.regular, "weight [exponent] of h_regular")->expected(1, 2);
    sub->add_option("--dummy-bonus", in.options.heuristic.dummy_bonus, "dummy score bonus");
    sub->add_option("--epsilon", in.options.epsilon, "on-plane tolerance");
    sub->add_option("--candidates", in.options.max_candidates, "faces scored per node (0: all)");
    sub->add_flag("--multiroot", in.options.multiroot, "secondary trees instead of splits");
  };
  CLI::App* build = app.add_subcommand("build", "build a packed tree from an OBJ mesh");
  inputs(build);
  build->add_option("-o,--output", out_path, "the .kbsp file")->required();
  CLI::App* stat = app.add_subcommand("stats", "depth, nodes, splits, balance, build time");
  inputs(stat);
  CLI::App* query = app.add_subcommand("query", "first hit of a moving point or sphere, or sort");
  inputs(query);
  query->add_option("--from", q.from, "start X,Y,Z");
  query->add_option("--to", q.to, "end X,Y,Z");
  query->add_option("--radius", q.radius, "sphere radius (0: a point)");
  query->add_option("--eye", q.eye, "sort the faces for this viewpoint");
  query->add_flag("--back-to-front", q.back_to_front, "sort back to front");
  CLI::App* svg = app.add_subcommand("svg", "an SVG (and PNG) of the top view or a slice");
  inputs(svg);
  svg->add_option("-o,--output", out_path, "the .svg file")->required();
  svg->add_option("--png", png_path, "also write a PNG");
  auto* slice_opt = svg->add_option("--slice", slice, "draw the cut at height Y");
  svg->add_option("--size", size, "longer side in pixels")->check(CLI::Range(16u, 8192u));
  CLI11_PARSE(app, argc, argv);

  Result<Loaded> loaded = load(in);
  if (!loaded) return report(loaded.error());
  if (Status bound = bind_view(*loaded, in.asset.empty() ? in.path : in.asset); !bound) {
    return report(bound.error());
  }
  const BspView& tree = loaded->view;

  if (build->parsed()) {
    const ByteBuffer bytes = pack_bsp(tree);
    if (Status s = write_file_atomic(out_path, bytes); !s) return report(s.error());
    fmt::print("{} -> {} ({} nodes, {} faces, {} bytes)\n", in.path, out_path, tree.nodes().size(),
               tree.faces().size(), bytes.size());
    return 0;
  }
  if (stat->parsed()) return stats(*loaded);
  if (query->parsed()) return run_query(tree, q);
  const BspPictureOptions pic{.slice = slice_opt->count() > 0, .height = slice, .size = size};
  if (Status s = write_file_atomic(out_path, bsp_svg(tree, pic)); !s) return report(s.error());
  fmt::print("{}\n", out_path);
  if (!png_path.empty()) {
    const ByteBuffer png = bsp_png(tree, pic);
    if (png.empty()) return report(Error(ErrorCode::kIo, "the PNG encoder failed"));
    if (Status s = write_file_atomic(png_path, png); !s) return report(s.error());
    fmt::print("{}\n", png_path);
  }
  return 0;
}
