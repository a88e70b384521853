// Importers into the intermediate format (mesh_source.h): Wavefront OBJ + MTL through
// tinyobjloader, glTF 2.0 (.gltf with embedded or external buffers, .glb) through tinygltf.
// Like the book's exporter they process nothing: unique (position, normal, texcoord) corners
// become vertices, faces become triangles, materials keep what the format says.
#pragma once

#include "keel/assets/build/mesh_source.h"
#include "keel/core/bytes.h"
#include "keel/core/error.h"

#include <string>
#include <string_view>

namespace keel::assets {

// `mtl_text` is the material library the OBJ's `mtllib` names (empty: one "default" material).
Result<MeshSource> import_obj(std::string_view obj_text, std::string_view mtl_text,
                              std::string name);
// The `mtllib` file name an OBJ text names, if any.
std::string obj_material_library(std::string_view obj_text);

// `bytes` is a .gltf (JSON) or .glb file; external buffers are read from `base_dir`. Every
// triangle primitive of every mesh is imported in mesh space (node transforms are not applied).
Result<MeshSource> import_gltf(ByteSpan bytes, const std::string& base_dir, std::string name);

}  // namespace keel::assets
