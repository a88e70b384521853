// Effect("name") { ... } end to end: command file -> intermediate -> data file -> load_effect,
// the sample effects in data/particles.kcmd, and located errors.
#include "keel/world/build/particle_handler.h"
#include "keel/core/file.h"
#include "keel/pack/loader.h"
#include "keel/pack/pack_file.h"
#include "keel/pipeline/builder.h"
#include "keel/pipeline/testing/test_project.h"
#include "keel/world/particles.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

namespace keel::world {
namespace {

namespace fs = std::filesystem;

class EffectHandler : public ::testing::Test {
 protected:
  EffectHandler()
      : files_(fs::path(KEEL_TEST_TMPDIR) / "effect_handler" /
               ::testing::UnitTest::GetInstance()->current_test_info()->name()) {
    files_.write("project.kproj",
                 "Platform(\"PC\");\nIncludePath(\"src\");\nDataFile(\"main.kcmd\");\n");
    register_particle_handlers(handlers_);
  }

  bool build(std::string_view commands) {
    files_.write("main.kcmd", commands);
    text::Diagnostics diag;
    project_ = pipeline::load_project(files_.path("project.kproj"), diag);
    EXPECT_TRUE(project_) << diag.render();
    pipeline::testing::RecordingObserver observer;
    pipeline::Builder builder(*project_, handlers_, {}, &observer);
    Result<pipeline::DataFileReport> r = builder.build("PC", "main.kcmd");
    messages_ = observer.messages;
    return r && r->failed == 0;
  }

  // Loads every ParticleEffect of the built data file into `system`; the number loaded.
  usize load(ParticleSystem& system) {
    Result<pack::PackFile> p = pack::PackFile::open(files_.path("build/image/PC/main.kpk"));
    EXPECT_TRUE(p) << p.error().to_string();
    if (!p) return 0;
    usize n = 0;
    for (const pack::PackItem& item : p->items()) {
      if (item.type_hash != pack::type_hash(kEffectAssetType)) continue;
      Result<ByteBuffer> bytes = p->read_chunk(item.name_hash, item.primary);
      EXPECT_TRUE(bytes);
      Result<EffectId> id = system.load_effect(item.name, *bytes);
      EXPECT_TRUE(id) << id.error().to_string();
      n += id ? 1 : 0;
    }
    return n;
  }

  pipeline::testing::TestProject files_;
  pipeline::HandlerRegistry handlers_;
  std::optional<pipeline::Project> project_;
  std::string messages_;
};

TEST_F(EffectHandler, CompilesEveryStatement) {
  ASSERT_TRUE(build(R"(
    Effect("sparks") {
      Burst(40); Rate(5); Duration(0.2); Life(0.2, 0.5); Speed(2, 6);
      Direction(90); Spread(180); Radius(0.1); Inherit(0.3); Drag(3); Gravity(0, -2);
      Size(0.2, 0, "out_quad"); Colour("#FFE678", "#ff500000", "in_quad"); Capacity(512);
    }
    Effect("plain");
  )")) << messages_;
  ParticleSystem system;
  ASSERT_EQ(load(system), 2u);
  const EffectDef& d = system.pool(system.find_effect("sparks")).effect();
  EXPECT_EQ(d.burst, 40u);
  EXPECT_EQ(d.rate, 5.0f);
  EXPECT_EQ(d.duration, 0.2f);
  EXPECT_EQ(d.life_min, 0.2f);
  EXPECT_EQ(d.life_max, 0.5f);
  EXPECT_EQ(d.speed_max, 6.0f);
  EXPECT_NEAR(d.direction, std::numbers::pi / 2, 1e-6);
  EXPECT_NEAR(d.spread, std::numbers::pi, 1e-6);
  EXPECT_EQ(d.gravity, (spatial::Vec2{0, -2}));
  EXPECT_EQ(d.size_ease, tween::Ease::kOutQuad);
  EXPECT_EQ(d.colour_start, (Rgba8{0xFF, 0xE6, 0x78, 0xFF}));
  EXPECT_EQ(d.colour_end, (Rgba8{0xFF, 0x50, 0, 0}));
  EXPECT_EQ(d.colour_ease, tween::Ease::kInQuad);
  EXPECT_EQ(d.capacity, 512u);
  EXPECT_EQ(system.pool(system.find_effect("plain")).effect().capacity, EffectDef{}.capacity);
  EXPECT_EQ(system.find_effect("sparks"), system.find_effect(runtime_id("sparks")));
}

TEST_F(EffectHandler, SampleEffectsBuildAndLoad) {
  Result<std::string> sample = read_file(fs::path(KEEL_SOURCE_DIR) / "data/particles.kcmd");
  ASSERT_TRUE(sample);
  ASSERT_TRUE(build(*sample)) << messages_;
  ParticleSystem system;
  EXPECT_GE(load(system), 4u);
  for (std::string_view name : {"gun_flame", "sparks", "blast", "ship_trail"}) {
    EXPECT_TRUE(system.find_effect(name)) << name;
  }
}

TEST_F(EffectHandler, PackLoaderSetsEffectsUp) {
  ASSERT_TRUE(build("Effect(\"sparks\") { Burst(3); }\nEffect(\"trail\") { Rate(10); }\n"))
      << messages_;
  ParticleSystem system;
  pack::Loader loader;
  register_particle_effects(loader, system);
  pack::LoadOptions options;
  options.load_names = true;
  Result<pack::LoadedPack> loaded = loader.load(files_.path("build/image/PC/main.kpk"), options);
  ASSERT_TRUE(loaded) << loaded.error().to_string();
  EXPECT_EQ(system.effect_count(), 2u);
  const EffectId sparks = system.find_effect("sparks"_id);
  ASSERT_TRUE(sparks);
  EXPECT_EQ(loaded->find_as<ParticlePool>("sparks"), &system.pool(sparks));
  EXPECT_EQ(system.pool(sparks).effect().burst, 3u);
  // Without names the effects cannot be named: the load fails as a whole.
  ParticleSystem other;
  pack::Loader nameless;
  register_particle_effects(nameless, other);
  EXPECT_FALSE(nameless.load(files_.path("build/image/PC/main.kpk")));
}

TEST_F(EffectHandler, ReportsLocatedErrors) {
  EXPECT_FALSE(build("Effect(\"a\") {\n  Life(0.5, 0.1);\n}\n"));
  EXPECT_NE(messages_.find("main.kcmd:1"), std::string::npos) << messages_;
  EXPECT_NE(messages_.find("life_max"), std::string::npos) << messages_;
  EXPECT_FALSE(build("Effect(\"a\") {\n  Wobble(3);\n}\n"));
  EXPECT_NE(messages_.find("main.kcmd:2"), std::string::npos) << messages_;
  EXPECT_FALSE(build("Effect(\"a\") { Size(1, 2, \"wobbly\"); }\n"));
  EXPECT_NE(messages_.find("unknown easing"), std::string::npos) << messages_;
  EXPECT_FALSE(build("Effect(\"a\") { Colour(\"#12345\"); }\n"));
  EXPECT_NE(messages_.find("#RRGGBB"), std::string::npos) << messages_;
  EXPECT_FALSE(build("Effect(\"a\") { Capacity(2.5); }\n"));
  EXPECT_FALSE(build("Effect(\"a\") { Rate(\"fast\"); }\n"));
  EXPECT_FALSE(build("Effect(3);\n"));
}

TEST(EffectHandlerParsing, ColoursAndEasings) {
  EXPECT_EQ(parse_colour("#102030"), (Rgba8{0x10, 0x20, 0x30, 0xFF}));
  EXPECT_EQ(parse_colour("#a0B0c0d0"), (Rgba8{0xA0, 0xB0, 0xC0, 0xD0}));
  EXPECT_FALSE(parse_colour("102030"));
  EXPECT_FALSE(parse_colour("#1020g0"));
  EXPECT_EQ(parse_ease("in_out_bounce"), tween::Ease::kInOutBounce);
  EXPECT_FALSE(parse_ease("bouncy"));
}

}  // namespace
}  // namespace keel::world
