// Mesh("name", "file") { options }: reads the book's intermediate format (.mesh), OBJ (+ its MTL)
// or glTF (.gltf, .glb), processes it (mesh_process.h) and writes the mesh chunk (mesh.h).
//
//   Mesh("crate", "crate.mesh") { Faces("book"); Cache("fifo", 16); StripLimit(0, 0); }
//   Mesh("knot", "knot.obj");                        // defaults: meshoptimizer, compressed
//
// Options: Faces("meshopt" | "book" | "list"), Compress("on" | "off"), Streams("split" |
// "single"), PositionTolerance(units), TexCoordTolerance(units), Cache("fifo" | "lru", size
// [, bad_tail]), StripLimit(max_indices, max_vertices), Weights(neighbours, miss, swap, bad).
#include "keel/assets/build/detail/registration.h"
#include "keel/assets/build/mesh_import.h"
#include "keel/assets/build/mesh_process.h"
#include "keel/assets/build/mesh_source.h"

#include <fmt/format.h>

#include <filesystem>

namespace keel::assets {

namespace {

using text::kName;
using text::kNumber;
using text::kString;
using text::Token;

constexpr text::ParamKinds kWord = kString | kName;

bool one_of(pipeline::BuildContext& ctx, const Token& at,
            std::initializer_list<std::string_view> names, usize& chosen) {
  usize i = 0;
  std::string list;
  for (std::string_view n : names) {
    if (at.is(n)) {
      chosen = i;
      return true;
    }
    list += fmt::format("{}{}", i == 0 ? "" : ", ", n);
    ++i;
  }
  ctx.error(at, fmt::format("expected one of {}, got `{}`", list, at.text));
  return false;
}

bool positive(pipeline::BuildContext& ctx, const Token& at) {
  if (at.number > 0 && at.number < 1e30) return true;
  ctx.error(at, "expected a positive number");
  return false;
}

bool read_cache(pipeline::BuildContext& ctx, const Token& opt, CacheModel& cache) {
  if (!ctx.check(opt, {kWord, kNumber, kNumber}, {.min_params = 2})) return false;
  usize kind = 0;
  if (!one_of(ctx, *opt.param(0), {"fifo", "lru"}, kind)) return false;
  cache.kind = kind == 0 ? CacheKind::kFifo : CacheKind::kLru;
  const s32 size = opt.param(1)->as_int();
  const s32 bad = opt.param(2) != nullptr ? opt.param(2)->as_int() : 0;
  if (size < 1 || size > 256 || bad < 0 || bad >= size) {
    ctx.error(opt, "a cache has 1 to 256 entries and fewer bad ones than entries");
    return false;
  }
  cache.size = static_cast<u32>(size);
  cache.bad_tail = static_cast<u32>(bad);
  return true;
}

bool read_option(pipeline::BuildContext& ctx, const Token& opt, MeshBuildOptions& o) {
  usize pick = 0;
  if (opt.is("Faces")) {
    if (!ctx.check(opt, {kWord}) || !one_of(ctx, *opt.param(0), {"meshopt", "book", "list"}, pick))
      return false;
    o.faces = static_cast<FaceMode>(pick);
  } else if (opt.is("Compress")) {
    if (!ctx.check(opt, {kWord}) || !one_of(ctx, *opt.param(0), {"on", "off"}, pick)) return false;
    o.compress = pick == 0;
  } else if (opt.is("Streams")) {
    if (!ctx.check(opt, {kWord}) || !one_of(ctx, *opt.param(0), {"split", "single"}, pick))
      return false;
    o.split_streams = pick == 0;
  } else if (opt.is("PositionTolerance") || opt.is("TexCoordTolerance")) {
    if (!ctx.check(opt, {kNumber}) || !positive(ctx, *opt.param(0))) return false;
    (opt.is("PositionTolerance") ? o.position_tolerance : o.texcoord_tolerance) =
        static_cast<float>(opt.param(0)->number);
  } else if (opt.is("Cache")) {
    return read_cache(ctx, opt, o.strip.cache);
  } else if (opt.is("StripLimit")) {
    if (!ctx.check(opt, {kNumber, kNumber})) return false;
    const s32 indices = opt.param(0)->as_int(), vertices = opt.param(1)->as_int();
    if ((indices != 0 && indices < 3) || (vertices != 0 && vertices < 3)) {
      ctx.error(opt, "strip limits are 0 (none) or at least 3");
      return false;
    }
    o.strip.max_strip_indices = static_cast<u32>(indices);
    o.strip.max_strip_vertices = static_cast<u32>(vertices);
  } else if (opt.is("Weights")) {
    if (!ctx.check(opt, {kNumber, kNumber, kNumber, kNumber})) return false;
    o.strip.weights = {
        static_cast<float>(opt.param(0)->number), static_cast<float>(opt.param(1)->number),
        static_cast<float>(opt.param(2)->number), static_cast<float>(opt.param(3)->number)};
  } else {
    ctx.error(opt,
              fmt::format("unknown Mesh option `{}` (Faces, Compress, Streams, PositionTolerance, "
                          "TexCoordTolerance, Cache, StripLimit, Weights)",
                          opt.text));
    return false;
  }
  return true;
}

std::string extension_of(std::string_view file) {
  std::string ext = std::filesystem::path(file).extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext;
}

// The source's bytes and, for an OBJ, its material library (found first: a dependency too).
struct SourceFiles {
  std::string path;
  std::string bytes;
  std::string mtl_text;
};

std::optional<SourceFiles> read_sources(pipeline::BuildContext& ctx, const Token& at,
                                        const std::string& path) {
  Result<std::string> bytes = ctx.read_file(path);
  if (!bytes) return std::nullopt;
  SourceFiles files{path, std::move(*bytes), {}};
  const std::string library = extension_of(path) == ".obj" ? obj_material_library(files.bytes) : "";
  if (!library.empty()) {
    // Named relative to the OBJ, as the OBJ was named in the command.
    const std::string beside = (std::filesystem::path(at.text).parent_path() / library).string();
    Result<std::string> mtl_path = ctx.find_source(library);
    if (!mtl_path) mtl_path = ctx.find_source(beside);
    if (!mtl_path) {
      ctx.error(
          at, fmt::format("`{}` names material library `{}`, which was not found", path, library));
      return std::nullopt;
    }
    Result<std::string> mtl = ctx.read_file(*mtl_path);
    if (!mtl) return std::nullopt;
    files.mtl_text = std::move(*mtl);
  }
  return files;
}

std::optional<MeshSource> load_source(pipeline::BuildContext& ctx, const Token& at,
                                      const SourceFiles& files, const std::string& name) {
  const std::string ext = extension_of(files.path);
  Result<MeshSource> mesh = fail(ErrorCode::kInvalidArgument,
                                 "unknown mesh file type `{}` (.mesh, .obj, .gltf, .glb)", ext);
  if (ext == ".mesh") {
    text::Diagnostics diag;
    std::optional<MeshSource> parsed = parse_mesh_source(files.bytes, files.path, diag);
    if (!parsed) ctx.report(diag);
    return parsed;
  }
  if (ext == ".obj") {
    mesh = import_obj(files.bytes, files.mtl_text, name);
  } else if (ext == ".gltf" || ext == ".glb") {
    mesh = import_gltf(as_bytes(files.bytes),
                       std::filesystem::path(files.path).parent_path().string(), name);
  }
  if (!mesh) {
    ctx.error(at, fmt::format("{}: {}", files.path, mesh.error().message()));
    return std::nullopt;
  }
  return std::move(*mesh);
}

bool build_mesh(pipeline::BuildContext& ctx) {
  const Token& cmd = ctx.command();
  if (!ctx.check(cmd, {kString, kString}, {.conditional = text::Conditional::kAllowed}))
    return false;
  const std::string name(cmd.param(0)->text);
  MeshBuildOptions options;
  bool ok = true;
  for (const Token& opt : text::chain(cmd.conditional)) ok = read_option(ctx, opt, options) && ok;
  if (!ok) return false;
  const Result<std::string> path = ctx.find_source(cmd.param(1)->text);
  if (!path) {
    ctx.error(*cmd.param(1), path.error().message());
    return false;
  }
  if (!ctx.set_output(name)) return false;
  const std::optional<SourceFiles> files = read_sources(ctx, *cmd.param(1), *path);
  if (!files) return false;
  if (ctx.up_to_date()) return true;
  const std::optional<MeshSource> source = load_source(ctx, *cmd.param(1), *files, name);
  if (!source) return false;
  Result<BuiltMesh> built = process_mesh(*source, options);
  if (!built) {
    ctx.error(cmd, built.error().message());
    return false;
  }
  built->name = name;
  const ByteBuffer chunk = encode_mesh(*built);
  pipeline::OutputFile* out = ctx.create_output();
  if (out == nullptr) return false;
  const u32 id = out->add_chunk(name, pipeline::kBlockGeneral, chunk);
  out->add_item(name, "Mesh", id);
  return out->close();
}

}  // namespace

namespace detail {

void register_mesh_handlers(pipeline::Registrar& registrar) {
  registrar.add({.platform = pipeline::kCommon,
                 .type = "Mesh",
                 .fn = build_mesh,
                 .version = 1,
                 .description = "meshes from the intermediate format, OBJ or glTF"});
}

}  // namespace detail

}  // namespace keel::assets
