#include "demo_data.h"

#include "keel/assets/font.h"
#include "keel/assets/mesh.h"
#include "keel/assets/sound.h"
#include "keel/assets/texture.h"
#include "keel/core/bytes.h"
#include "keel/fsm/compiled.h"
#include "keel/pack/format.h"
#include "keel/pipeline/string_table_asset.h"
#include "keel/script/library.h"
#include "keel/spatial/bsp.h"

#include <fmt/format.h>

#include <map>
#include <memory>
#include <vector>

namespace demo {
namespace {

using keel::Hash;
using keel::Result;
using keel::pack::SetupContext;
using keel::pack::type_hash;

struct Blob {
  keel::ByteSpan bytes;
};
struct TileMap {
  keel::u32 width = 0;
  keel::u32 height = 0;
};

keel::u32 read_u32(keel::ByteSpan b, keel::usize at) {
  keel::u32 v = 0;
  for (int i = 0; i < 4; ++i) v |= static_cast<keel::u32>(b[at + i]) << (8 * i);
  return v;
}

// Each setup turns the primary chunk into a runtime object the teardown deletes.
template <typename T>
void register_type(keel::pack::Loader& loader, std::string_view type,
                   Result<T*> (*make)(keel::ByteSpan)) {
  loader.register_type(
      type_hash(type),
      [make](SetupContext& ctx) -> Result<void*> {
        Result<T*> made = make(ctx.primary());
        if (!made) return std::unexpected(made.error());
        return static_cast<void*>(*made);
      },
      [](void* asset) { delete static_cast<T*>(asset); });
}

Result<Blob*> make_blob(keel::ByteSpan b) { return new Blob{b}; }

Result<keel::script::Library*> make_scripts(keel::ByteSpan b) {
  Result<keel::script::Library> lib = keel::script::Library::from_bytes(b, "script asset");
  if (!lib) return std::unexpected(lib.error());
  return new keel::script::Library(std::move(*lib));
}

Result<keel::fsm::CompiledFsms*> make_fsms(keel::ByteSpan b) {
  Result<keel::fsm::CompiledFsms> image = keel::fsm::CompiledFsms::from_bytes(b, "FSM asset");
  if (!image) return std::unexpected(image.error());
  return new keel::fsm::CompiledFsms(std::move(*image));
}

Result<keel::pipeline::StringTableView*> make_strings(keel::ByteSpan b) {
  Result<keel::pipeline::StringTableView> view = keel::pipeline::StringTableView::parse(b);
  if (!view) return std::unexpected(view.error());
  return new keel::pipeline::StringTableView(*view);
}

// Textures, fonts, meshes and BSP trees are views over their chunks, validated once here.
template <typename View, auto Parse>
Result<View*> make_view(keel::ByteSpan b) {
  Result<View> view = Parse(b);
  if (!view) return std::unexpected(view.error());
  return new View(std::move(*view));
}

Result<keel::assets::Texture*> make_texture(keel::ByteSpan b) {
  return make_view<keel::assets::Texture, [](keel::ByteSpan c) {
    return keel::assets::Texture::view(c, "texture asset");
  }>(b);
}

Result<keel::spatial::BspView*> make_bsp(keel::ByteSpan b) {
  return make_view<keel::spatial::BspView, [](keel::ByteSpan c) {
    return keel::spatial::BspView::load(c, "BSP asset");
  }>(b);
}

Result<TileMap*> make_tile_map(keel::ByteSpan b) {
  if (b.size() < 8) return keel::fail(keel::ErrorCode::kCorrupt, "tile map shorter than 8 bytes");
  TileMap map{read_u32(b, 0), read_u32(b, 4)};
  if (static_cast<keel::u64>(map.width) * map.height != b.size() - 8) {
    return keel::fail(keel::ErrorCode::kCorrupt, "tile map size does not match {}x{}", map.width,
                      map.height);
  }
  return new TileMap(map);
}

std::string describe(std::string_view type, const void* asset) {
  if (type == "Blob") {
    return fmt::format("{} bytes", static_cast<const Blob*>(asset)->bytes.size());
  }
  if (type == "Script") {
    std::string names;
    for (const keel::script::Script& s :
         static_cast<const keel::script::Library*>(asset)->scripts()) {
      names += (names.empty() ? "" : " ") +
               (s.name.empty() ? fmt::format("#{:08x}", s.name_hash) : s.name);
    }
    return fmt::format("scripts: {}", names);
  }
  if (type == "FSM") {
    const auto* image = static_cast<const keel::fsm::CompiledFsms*>(asset);
    std::string names;
    for (keel::u32 i = 0; i < image->fsm_count(); ++i) {
      const keel::fsm::FsmView f = image->fsm(i);
      names += fmt::format("{}{} ({} states)", i == 0 ? "" : ", ", f.name(), f.state_count());
    }
    return names;
  }
  if (type == "StringTable") {
    const auto* table = static_cast<const keel::pipeline::StringTableView*>(asset);
    std::string texts;
    for (keel::usize l = 0; l < table->language_count(); ++l) {
      texts += fmt::format("{}{} \"{}\"", l == 0 ? "" : ", ", table->language(l),
                           table->find(l, "TITLE").value_or("?"));
    }
    return fmt::format("{} keys; TITLE = {}", table->key_count(), texts);
  }
  if (type == "TileMap") {
    const auto* map = static_cast<const TileMap*>(asset);
    return fmt::format("{}x{} tiles", map->width, map->height);
  }
  if (type == "Texture") {
    const auto* t = static_cast<const keel::assets::Texture*>(asset);
    return fmt::format("{}x{} {}, {} level{}", t->width(), t->height(),
                       keel::assets::format_name(t->format()), t->level_count(),
                       t->level_count() == 1 ? "" : "s");
  }
  if (type == "Font") {
    const auto* f = static_cast<const keel::assets::FontView*>(asset);
    return fmt::format("{} px, {} glyphs", f->pixel_size(), f->glyph_count());
  }
  if (type == "Mesh") {
    const auto* m = static_cast<const keel::assets::Mesh*>(asset);
    keel::u32 vertices = 0;
    for (const keel::assets::SubMesh& sub : m->submeshes()) vertices += sub.vertex_count;
    return fmt::format("{} sub-mesh{}, {} vertices", m->submeshes().size(),
                       m->submeshes().size() == 1 ? "" : "es", vertices);
  }
  if (type == "Sound") {
    const auto* sound = static_cast<const keel::assets::SoundView*>(asset);
    return fmt::format(
        "{:.2f} s, {} Hz, {} channel{}{}", sound->duration(), sound->sample_rate(),
        sound->channels(), sound->channels() == 1 ? "" : "s",
        sound->encoding() == keel::assets::SoundEncoding::kPcm16 ? "" : ", streamed");
  }
  if (type == "BSP") {
    const auto* bsp = static_cast<const keel::spatial::BspView*>(asset);
    return fmt::format("{} nodes, {} faces", bsp->nodes().size(), bsp->faces().size());
  }
  return {};
}

}  // namespace

Result<DemoData> load_demo_data(const std::filesystem::path& path) {
  keel::pack::Loader loader;
  register_type<Blob>(loader, "Blob", make_blob);
  register_type<keel::script::Library>(loader, "Script", make_scripts);
  register_type<keel::fsm::CompiledFsms>(loader, "FSM", make_fsms);
  register_type<keel::pipeline::StringTableView>(loader, "StringTable", make_strings);
  register_type<TileMap>(loader, "TileMap", make_tile_map);
  register_type<keel::assets::Texture>(loader, "Texture", make_texture);
  register_type<keel::assets::FontView>(
      loader, "Font", make_view<keel::assets::FontView, keel::assets::FontView::parse>);
  register_type<keel::assets::Mesh>(loader, "Mesh",
                                    make_view<keel::assets::Mesh, keel::assets::Mesh::parse>);
  register_type<keel::assets::SoundView>(
      loader, "Sound", make_view<keel::assets::SoundView, keel::assets::SoundView::parse>);
  register_type<keel::spatial::BspView>(loader, "BSP", make_bsp);

  keel::pack::LoadOptions options;
  options.load_names = true;
  options.raw_unregistered = true;  // the world's definitions (Entity, Chain, ParticleEffect)
  Result<keel::pack::LoadedPack> pack = loader.load(path, options);
  if (!pack) return std::unexpected(pack.error());

  const std::map<Hash, std::string_view> types = {{type_hash("Blob"), "Blob"},
                                                  {type_hash("Script"), "Script"},
                                                  {type_hash("FSM"), "FSM"},
                                                  {type_hash("StringTable"), "StringTable"},
                                                  {type_hash("TileMap"), "TileMap"},
                                                  {type_hash("Texture"), "Texture"},
                                                  {type_hash("Font"), "Font"},
                                                  {type_hash("Mesh"), "Mesh"},
                                                  {type_hash("BSP"), "BSP"},
                                                  {type_hash("Sound"), "Sound"},
                                                  {type_hash("Entity"), "Entity"},
                                                  {type_hash("Chain"), "Chain"},
                                                  {type_hash("ParticleEffect"), "ParticleEffect"}};
  std::map<std::string_view, std::vector<std::string>> by_type;
  const auto assets = pack->assets();
  for (keel::usize i = 0; i < assets.size(); ++i) {
    auto it = types.find(assets[i].type_hash);
    const std::string_view type = it == types.end() ? "?" : it->second;
    const std::string name =
        i < pack->names().size() ? pack->names()[i] : fmt::format("#{:08x}", assets[i].name_hash);
    by_type[type].push_back(fmt::format("{} ({})", name, describe(type, assets[i].asset)));
  }
  DemoData data;
  data.report = fmt::format("loaded {}: {} assets, {} bytes resident\n", path.string(),
                            assets.size(), pack->resident_bytes());
  for (const auto& [type, items] : by_type) {
    data.report += fmt::format("  {:<12}{:>2}  ", type, items.size());
    for (keel::usize i = 0; i < items.size(); ++i) {
      data.report += (i == 0 ? "" : "; ") + items[i];
    }
    data.report += '\n';
  }
  data.pack = std::move(*pack);
  return data;
}

}  // namespace demo
