// BSP("name", "mesh.obj") [{ options }]: an OBJ mesh as a packed, load-ready BSP tree (one
// chunk, type "BSP", viewed in place by keel::spatial::BspView::load). Options, all optional:
//   Balance(weight [, exponent]);  Coplanar(...);  Split(...);  Regularity(...);
//   DummyBonus(b);  Epsilon(e);  Candidates(n);  Multiroot(1);
#include "keel/spatial/build/spatial_handlers.h"

#include "keel/spatial/bsp.h"
#include "keel/spatial/build/bsp_obj.h"

#include <fmt/format.h>

#include <cmath>

namespace keel::spatial {
namespace {

using text::kNumber;
using text::kString;

bool read_term(pipeline::BuildContext& ctx, const text::Token& opt, BspTerm& term) {
  if (!ctx.check(opt, {kNumber, kNumber}, {.min_params = 1})) return false;
  term.weight = opt.param(0)->number;
  if (opt.param_count() > 1) term.exponent = opt.param(1)->number;
  if (!std::isfinite(term.weight) || !std::isfinite(term.exponent) || term.exponent < 0) {
    ctx.error(opt, "a heuristic term takes a finite weight and an exponent >= 0");
    return false;
  }
  return true;
}

bool read_number(pipeline::BuildContext& ctx, const text::Token& opt, double lo, double hi,
                 double& out) {
  if (!ctx.check(opt, {kNumber})) return false;
  const double value = opt.param(0)->number;
  if (!(value >= lo && value <= hi)) {
    ctx.error(*opt.param(0), fmt::format("`{}` takes a number from {} to {}", opt.text, lo, hi));
    return false;
  }
  out = value;
  return true;
}

bool read_option(pipeline::BuildContext& ctx, const text::Token& opt, BspBuildOptions& o) {
  BspHeuristic& h = o.heuristic;
  double value = 0;
  if (opt.is("Balance")) return read_term(ctx, opt, h.balance);
  if (opt.is("Coplanar")) return read_term(ctx, opt, h.coplanar);
  if (opt.is("Split")) return read_term(ctx, opt, h.split);
  if (opt.is("Regularity")) return read_term(ctx, opt, h.regular);
  if (opt.is("DummyBonus")) return read_number(ctx, opt, 0, 1e6, h.dummy_bonus);
  if (opt.is("Epsilon")) {
    if (!read_number(ctx, opt, 0, 1e3, value)) return false;
    o.epsilon = static_cast<float>(value);
    return true;
  }
  if (opt.is("Candidates")) {
    if (!read_number(ctx, opt, 0, 1e9, value)) return false;
    o.max_candidates = static_cast<u32>(value);
    return true;
  }
  if (opt.is("Multiroot")) {
    if (!read_number(ctx, opt, 0, 1, value)) return false;
    o.multiroot = value != 0;
    return true;
  }
  ctx.error(opt, fmt::format("unknown BSP option `{}` (Balance, Coplanar, Split, Regularity, "
                             "DummyBonus, Epsilon, Candidates, Multiroot)",
                             opt.text));
  return false;
}

bool build_bsp_asset(pipeline::BuildContext& ctx) {
  const text::Token& cmd = ctx.command();
  if (!ctx.check(cmd, {kString, kString}, {.conditional = text::Conditional::kAllowed})) {
    return false;
  }
  BspBuildOptions options;
  bool options_ok = true;
  for (const text::Token& opt : text::chain(cmd.conditional)) {
    options_ok = read_option(ctx, opt, options) && options_ok;
  }
  if (!options_ok) return false;

  const std::string_view name = cmd.param(0)->text;
  const text::Token& source_at = *cmd.param(1);
  const Result<std::string> path = ctx.find_source(source_at.text);
  if (!path) {
    ctx.error(source_at, path.error().message());
    return false;
  }
  if (!ctx.set_output(name)) return false;
  if (ctx.up_to_date()) return true;
  const Result<std::string> text = ctx.read_file(*path);
  if (!text) return false;
  const Result<std::vector<BspInputFace>> faces = load_obj_faces(*text, *path);
  if (!faces) {
    ctx.error(source_at, faces.error().to_string());
    return false;
  }
  const BspTree tree = build_bsp(*faces, options);
  if (tree.nodes.empty()) {
    ctx.error(source_at, "the mesh has no triangles to build a BSP tree from");
    return false;
  }
  ctx.log(log::Level::kDebug,
          fmt::format("BSP {}: {} faces in, {} nodes, {} faces out, {} splits, depth {}", name,
                      tree.stats.input_faces, tree.stats.nodes, tree.stats.faces, tree.stats.splits,
                      tree.stats.depth));
  pipeline::OutputFile* out = ctx.create_output();
  if (out == nullptr) return false;
  const ByteBuffer bytes = pack_bsp(tree.view());
  const u32 chunk = out->add_chunk(name, pipeline::kBlockGeneral, bytes, 4);
  out->add_item(name, "BSP", chunk);
  return out->close();
}

}  // namespace

void register_spatial_handlers(pipeline::Registrar& registrar) {
  registrar.add({.platform = pipeline::kCommon,
                 .type = "BSP",
                 .fn = build_bsp_asset,
                 .version = 1,
                 .description = "a BSP tree from an OBJ mesh, heuristic weights from the block"});
}

}  // namespace keel::spatial
