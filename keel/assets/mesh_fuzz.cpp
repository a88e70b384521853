// Fuzz target: the mesh chunk reader (data files are external data).
#include "keel/assets/mesh.h"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const keel::ByteSpan bytes = keel::as_bytes(std::span<const uint8_t>(data, size));
  keel::Result<keel::assets::Mesh> mesh = keel::assets::Mesh::parse(bytes);
  if (!mesh) return 0;
  float sum = 0;
  for (const keel::assets::SubMesh& sub : mesh->submeshes()) {
    for (const keel::assets::MeshDraw& d : sub.draws) {
      for (keel::u32 i = d.first_index; i < d.first_index + d.index_count; ++i) {
        const keel::u32 v = sub.index(i);
        if (v >= sub.vertex_count) std::abort();  // validated indices only
        for (const keel::assets::VertexElement& e : sub.declaration.elements) {
          sum += sub.read(e.semantic, v, e.channel)[0];
        }
      }
    }
  }
  return sum == 12345.0f ? 1 : 0;
}
