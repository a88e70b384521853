#include "keel/world/build/world_handlers.h"

#include "keel/text/document.h"
#include "keel/world/build/chain_compiler.h"
#include "keel/world/build/entity_compiler.h"
#include "keel/world/build/particle_handler.h"

#include <memory>
#include <optional>
#include <string>

namespace keel::world {
namespace {

// One asset with one chunk, its primary (keel::pipeline_handlers has the same helper; this target
// stays off that one, which links the script and FSM compilers).
bool write_chunk(pipeline::BuildContext& ctx, std::string_view name, std::string_view type,
                 ByteSpan data) {
  pipeline::OutputFile* out = ctx.create_output();
  if (out == nullptr) return false;
  const u32 chunk = out->add_chunk(name, pipeline::kBlockGeneral, data, 8);
  if (chunk == 0) {
    out->close();
    return false;
  }
  out->add_item(name, type, chunk);
  return out->close();
}

// The built-in schema plus the game's schema file when the command names one (parameter 2).
std::optional<EntitySchema> load_schema(pipeline::BuildContext& ctx, const text::Token& cmd,
                                        std::unique_ptr<text::Document>& doc) {
  EntitySchema schema = world_schema();
  const text::Token* file = cmd.param(1);
  if (file == nullptr || !file->is_string()) return schema;
  const Result<std::string> path = ctx.find_source(file->text);
  if (!path) {
    ctx.error(*file, path.error().message());
    return std::nullopt;
  }
  Result<std::string> source = ctx.read_file(*path);
  if (!source) return std::nullopt;
  text::Diagnostics diag;
  doc = text::parse(std::move(*source), *path, diag);
  if (doc != nullptr) schema.add_from(doc->first(), diag);
  if (!diag.empty()) ctx.report(diag, doc.get());
  if (doc == nullptr || diag.has_errors()) return std::nullopt;
  return schema;
}

}  // namespace

bool build_entity_asset(pipeline::BuildContext& ctx) {
  const text::Token& cmd = ctx.command();
  std::unique_ptr<text::Document> schema_doc;
  const std::optional<EntitySchema> schema = load_schema(ctx, cmd, schema_doc);
  if (!schema) return false;
  text::Diagnostics diag;
  const std::optional<EntityDef> def = compile_entity(cmd, *schema, diag);
  if (!diag.empty()) ctx.report(diag);
  if (!def) return false;
  if (!ctx.set_output(def->name)) return false;
  if (ctx.up_to_date()) return true;
  const ByteBuffer bytes = encode_entity_def(*def);
  return write_chunk(ctx, def->name, kEntityAssetType, bytes);
}

bool build_chain_asset(pipeline::BuildContext& ctx) {
  text::Diagnostics diag;
  const std::optional<ChainDef> chain = compile_chain(ctx.command(), diag);
  if (!diag.empty()) ctx.report(diag);
  if (!chain) return false;
  if (!ctx.set_output(chain->name)) return false;
  if (ctx.up_to_date()) return true;
  const ByteBuffer bytes = encode_chain(*chain);
  return write_chunk(ctx, chain->name, kChainAssetType, bytes);
}

void register_world_handlers(pipeline::Registrar& registrar) {
  registrar.add({.platform = pipeline::kCommon,
                 .type = "Entity",
                 .fn = build_entity_asset,
                 .version = 1,
                 .description = "an entity definition: components and their parameters"});
  registrar.add(
      {.platform = pipeline::kCommon,
       .type = "Chain",
       .fn = build_chain_asset,
       .version = 1,
       .description = "an event chain: steps with start/end actions and an end condition"});
  register_particle_handlers(registrar);  // Effect
}

}  // namespace keel::world
