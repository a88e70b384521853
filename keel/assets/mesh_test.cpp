#include "keel/assets/mesh.h"

#include <gtest/gtest.h>

#include <cstring>

namespace keel::assets {
namespace {

ByteBuffer words(std::initializer_list<u32> values) {
  ByteBuffer out(values.size() * 4);
  usize at = 0;
  for (u32 v : values) {
    std::memcpy(out.data() + at, &v, 4);
    at += 4;
  }
  return out;
}

TEST(EntryPoints, MeshParseBadInput) {
  EXPECT_FALSE(Mesh::parse({}));
  EXPECT_FALSE(Mesh::parse(words({1, 2, 3})));
  EXPECT_FALSE(Mesh::parse(words({kMeshMagic, 99, 0, 0, 0, 0})));
  EXPECT_TRUE(Mesh::parse(words({kMeshMagic, kMeshVersion, 7, 0, 0, 0})));
  // A sub-mesh promising more vertices than the chunk holds.
  const Result<Mesh> short_chunk =
      Mesh::parse(words({kMeshMagic, kMeshVersion, 7, 0, 0, 1, 1000, 0x02000101u, 0, 0, 12,
                         0x00000100u, 0, 0, 0, 0, 0, 0, 0}));
  ASSERT_FALSE(short_chunk);
  EXPECT_TRUE(short_chunk.error().where().binary);
  // Trailing bytes are corruption too.
  EXPECT_FALSE(Mesh::parse(words({kMeshMagic, kMeshVersion, 7, 0, 0, 0, 0})));
}

TEST(Mesh, DecodesEveryType) {
  VertexElement e;
  e.type = VertexType::kPacked101010;
  e.scale = {5, 5, 5};
  e.bias = {5, 5, 5};
  const u32 word = 1023u | (0u << 10) | (512u << 20);
  const ByteBuffer bytes = words({word});
  const std::array<float, 4> v = decode_element(e, bytes, 4, 0);
  EXPECT_FLOAT_EQ(v[0], 10.0f);
  EXPECT_FLOAT_EQ(v[1], 0.0f);
  EXPECT_NEAR(v[2], 5.0f, 0.01f);
  VertexElement c;
  c.type = VertexType::kColorA8R8G8B8;
  const std::array<float, 4> rgba = decode_element(c, words({0xFF800000u}), 4, 0);
  EXPECT_FLOAT_EQ(rgba[0], 128.0f / 255.0f);
  EXPECT_FLOAT_EQ(rgba[3], 1.0f);
  for (u8 t = 0; t < static_cast<u8>(VertexType::kCount); ++t) {
    EXPECT_GT(vertex_type_size(static_cast<VertexType>(t)), 0u);
  }
}

}  // namespace
}  // namespace keel::assets
