// Fuzz target: the text intermediate mesh format (exporters' files are external data).
#include "keel/assets/build/mesh_source.h"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  keel::Result<keel::assets::MeshSource> mesh =
      keel::assets::parse_mesh_source(std::move(text), "fuzz.mesh");
  if (!mesh) return 0;
  for (const keel::assets::SourceTriangle& t : mesh->triangles) {
    for (keel::u32 v : t.v) {
      if (v >= mesh->vertices.size()) std::abort();  // validated indices only
    }
  }
  // What the writer emits parses again.
  if (!keel::assets::parse_mesh_source(keel::assets::write_mesh_source(*mesh), "again.mesh")) {
    std::abort();
  }
  return 0;
}
