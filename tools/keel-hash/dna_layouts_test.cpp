// C3-16 and C3-17: the book's two DNA layouts (Tables 3.2 and 3.3), printed by keel-hash dna.
#include "dna_layouts.h"

#include <gtest/gtest.h>

#include <random>

namespace keel::hash_tool {
namespace {

// C3-16: vertex-shader DNA (Table 3.2): the worked example, illegal light values, round trips
// for every field and the book's counts.
TEST(Dna, C3_16_VertexShaderDna) {
  VertexShaderDna vs;
  vs.lights[0] = LightMode::kPointSpecular;  // 2
  vs.bones = 3;
  vs.tex_coords[0] = TexCoordSource::kInputSet0;  // 4
  vs.fog = true;
  ASSERT_EQ(*encode(vs), 0x40013002u);
  EXPECT_EQ(*encode(vs), 1073819650u);
  EXPECT_EQ(*decode_vertex_shader(0x40013002u), vs);

  const DnaLayout& layout = vertex_shader_layout();
  for (u32 light = 0; light < 4; ++light) {
    for (u32 bad = 5; bad <= 7; ++bad) {
      const u32 code = bad << (3 * light);
      EXPECT_EQ(decode_vertex_shader(code).error().code(), ErrorCode::kOutOfRange);
      EXPECT_FALSE(layout.validate(code));
    }
  }
  VertexShaderDna illegal;
  illegal.lights[2] = static_cast<LightMode>(5);
  EXPECT_FALSE(encode(illegal));
  illegal = {};
  illegal.bones = 4;
  EXPECT_FALSE(encode(illegal));

  // Every legal value of every field round-trips, with random legal values elsewhere.
  std::mt19937 rng(16);
  for (usize f = 0; f < layout.field_count(); ++f) {
    for (u32 value = 0; value < layout.field(f).values; ++value) {
      std::vector<u32> genes(layout.field_count());
      for (usize g = 0; g < genes.size(); ++g) genes[g] = rng() % layout.field(g).values;
      genes[f] = value;
      const Result<u32> code = layout.encode(genes);
      ASSERT_TRUE(code);
      EXPECT_EQ(layout.get(*code, f), value);
      EXPECT_EQ(*layout.decode(*code), genes);
      const Result<VertexShaderDna> typed = decode_vertex_shader(*code);
      ASSERT_TRUE(typed);
      EXPECT_EQ(*encode(*typed), *code);
    }
  }
  // Random 32-bit codes: legal exactly when every light field is below 5.
  for (int i = 0; i < 20000; ++i) {
    const u32 code = static_cast<u32>(rng());
    bool legal = true;
    for (u32 l = 0; l < 4; ++l) legal = legal && ((code >> (3 * l)) & 7u) < 5;
    EXPECT_EQ(decode_vertex_shader(code).has_value(), legal);
    if (legal) {
      EXPECT_EQ(*encode(*decode_vertex_shader(code)), code);
    }
  }

  EXPECT_EQ(layout.used_bits(), 0xFFFFFFFFu);  // all 32 bits used, no tangent bit
  EXPECT_EQ(layout.legal_count(), 655360000u);
  EXPECT_EQ(layout.legal_count(0, 4), 625u);             // lights
  EXPECT_EQ(layout.legal_count(0, 5), 2500u);            // with bones
  EXPECT_EQ(layout.legal_count(0, 9), 10240000u);        // with 4 texture outputs
  EXPECT_EQ(layout.legal_count(0, 5) * 1024, 2560000u);  // 2,500 shaders x 1 KB = 2.5 MB
}

// C3-17: material DNA (Table 3.3): bits 0-16, 3-bit RGB write, 131,072 codes; exhaustive.
TEST(Dna, C3_17_MaterialDna) {
  const DnaLayout& layout = material_layout();
  EXPECT_EQ(layout.used_bits(), 0x1FFFFu);
  EXPECT_EQ(layout.legal_count(), 131072u);
  EXPECT_EQ(layout.field(*layout.find_field("rgb_write")).bits, 3);

  MaterialDna m;
  m.type = 0xA5;
  m.z_write = true;
  m.rgb_write = 5;  // R and B
  m.stencil = true;
  EXPECT_EQ(*encode(m), 0xA5u | (1u << 10) | (5u << 11) | (1u << 16));

  usize legal = 0;
  for (u32 code = 0; code < (1u << 17); ++code) {
    const Result<MaterialDna> d = decode_material(code);
    ASSERT_TRUE(d) << code;
    ASSERT_EQ(*encode(*d), code);
    ++legal;
  }
  EXPECT_EQ(legal, 131072u);
  EXPECT_EQ(decode_material(1u << 17).error().code(), ErrorCode::kCorrupt);
  EXPECT_FALSE(decode_material(0x80000000u));
  MaterialDna bad;
  bad.rgb_write = 8;
  EXPECT_EQ(encode(bad).error().code(), ErrorCode::kOutOfRange);
}

}  // namespace
}  // namespace keel::hash_tool
