// The Entity and Chain handlers inside a real build: command file -> keel-build's Builder ->
// data file -> pack::Loader -> EntityDefs / ChainDef -> spawn.
#include "keel/world/build/world_handlers.h"

#include "keel/pack/loader.h"
#include "keel/pipeline/testing/test_project.h"
#include "keel/world/chain.h"
#include "keel/world/components.h"
#include "keel/world/defs_spawn.h"

#include <gtest/gtest.h>

namespace keel::world {
namespace {

namespace fs = std::filesystem;
using pipeline::testing::RecordingObserver;
using pipeline::testing::TestProject;

class WorldHandlers : public ::testing::Test {
 protected:
  WorldHandlers()
      : files_(fs::path(KEEL_TEST_TMPDIR) / "world_handlers" /
               ::testing::UnitTest::GetInstance()->current_test_info()->name()) {
    files_.write("project.kproj",
                 "Project(\"t\");\nIntermediatePath(\"obj\");\nImagePath(\"image\");\n"
                 "Platform(\"PC\");\nIncludePath(\"src\");\nDataFile(\"main.kcmd\");\n");
    files_.write("src/game.kschema", "Component(\"Health\") { Param(hp, number, 0); }\n");
    register_world_handlers(handlers_);
  }
  pipeline::DataFileReport build() {
    project_ = files_.load();
    EXPECT_TRUE(project_) << files_.errors;
    RecordingObserver observer;
    pipeline::Builder builder(*project_, handlers_, {}, &observer);
    pipeline::DataFileReport r = builder.build("PC", "main.kcmd").value();
    messages_ = observer.messages;
    return r;
  }

  TestProject files_;
  pipeline::HandlerRegistry handlers_;
  std::optional<pipeline::Project> project_;
  std::string messages_;
};

TEST_F(WorldHandlers, BuildsDefinitionsAndChainsThatTheGameLoadsAndSpawns) {
  files_.write("main.kcmd",
               "Entity(\"drone\", \"game.kschema\") { Target(); Health(hp, 5); }\n"
               "Chain(\"waves\") { Step() { Start() Spawn(\"drone\", 3); Until() Dead(all); } }\n");
  const pipeline::DataFileReport r = build();
  ASSERT_TRUE(r.ok) << messages_;
  EXPECT_EQ(r.built, 2u);

  pack::Loader loader;
  register_entity_def_type(loader);
  register_chain_type(loader);
  Result<pack::LoadedPack> pack = loader.load(files_.path("image/PC/main.kpk"));
  ASSERT_TRUE(pack) << pack.error().to_string();
  EntityDefs defs;
  ASSERT_TRUE(defs.add_pack(*pack));
  const EntityDef* drone = defs.find("drone");
  ASSERT_NE(drone, nullptr);
  ASSERT_EQ(drone->components.size(), 2u);
  EXPECT_FLOAT_EQ(drone->find("Health")->params.number("hp"), 5);
  const ChainDef* waves = find_chain(*pack, "waves");
  ASSERT_NE(waves, nullptr);
  EXPECT_EQ(waves->steps[0].start[0].count, 3u);

  World world;
  SpawnRegistry registry;
  register_world_components(registry);
  registry.add("Health", [](World&, Entity, const Params&) -> Status { return ok(); });
  Result<Entity> e = spawn(world, registry, defs, "drone", {1, 2});
  ASSERT_TRUE(e) << e.error().to_string();
  EXPECT_TRUE(world.has<Target>(*e));
}

TEST_F(WorldHandlers, HandlerErrorsAreLocatedInTheBuild) {
  files_.write("main.kcmd",
               "Entity(\"a\") { Body(radus, 1); }\n"
               "Entity(\"b\", \"missing.kschema\") { Target(); }\n"
               "Entity(\"c\", \"bad.kschema\") { Target(); }\n"
               "Chain(\"w\") { Step() { Until() Dead(none); } }\n");
  files_.write("src/bad.kschema", "Component(\"X\") { Param(y, colour); }\n");
  const pipeline::DataFileReport r = build();
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.failed, 4u);
  EXPECT_NE(messages_.find("main.kcmd:1:20: error: unknown parameter `radus` of `Body`"),
            std::string::npos)
      << messages_;
  EXPECT_NE(messages_.find("main.kcmd:2:13: error:"), std::string::npos) << messages_;
  EXPECT_NE(messages_.find("bad.kschema:1:27: error: unknown parameter kind `colour`"),
            std::string::npos)
      << messages_;
  EXPECT_NE(messages_.find("main.kcmd:4:36: error: `Dead` takes `all` or a number"),
            std::string::npos)
      << messages_;
}

}  // namespace
}  // namespace keel::world
