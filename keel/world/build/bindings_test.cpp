// Tests of keel/world/bindings.h. They live in keel::world_build's test binary because they
// compile scripts and FSMs from text (the compilers are test dependencies of this target only).
#include "keel/world/bindings.h"

#include "keel/fsm/testing/fsm_fixture.h"
#include "keel/props/container.h"
#include "keel/script/testing/script_testing.h"
#include "keel/world/components.h"
#include "keel/world/transform.h"

#include <gtest/gtest.h>

namespace keel::world {
namespace {

EntityDef def_of(std::string name, std::vector<ComponentDef> components) {
  return EntityDef{.name = std::move(name), .components = std::move(components)};
}

ComponentDef named(std::string component, std::string_view name) {
  Params p;
  p.set_text("name", name);
  return ComponentDef{.name = std::move(component), .params = std::move(p)};
}

class Scripts : public ::testing::Test {
 protected:
  Scripts() {
    register_world_components(registry);
    EXPECT_TRUE(bindings.add_commands(commands));
    Params life;
    life.set_number("seconds", 2);
    EXPECT_TRUE(defs.add(def_of("bullet", {{.name = "Lifetime", .params = life}})));
  }
  void load(std::string_view source) {
    text::Diagnostics diag;
    library = script::testing::compile_text(source, commands, diag);
    ASSERT_TRUE(library) << diag.render();
    vm = std::make_unique<script::Machine>(commands);
    ASSERT_TRUE(vm->add_library(*library));
    bindings.register_component(registry, *vm);
  }
  usize count_bullets() {
    usize n = 0;
    for (auto&& row : world.view<Lifetime>()) {
      (void)row;
      ++n;
    }
    return n;
  }

  World world;
  SpawnRegistry registry;
  EntityDefs defs;
  script::CommandSet commands = script::default_commands();
  ScriptBindings bindings{world, registry, defs};
  std::optional<script::Library> library;
  std::unique_ptr<script::Machine> vm;
};

TEST_F(Scripts, SpawnKillAndPropertiesFromAScript) {
  load(
      "SCRIPT(\"gunner\") {\n"
      "  SPAWN(\"bullet\", 5, -2);\n"
      "  GETPROP(hp, \"health\");\n"
      "  ADD(hp, -10);\n"
      "  SETPROP(\"health\", hp);\n"
      "  SETPROP(\"kills\", 3);\n"
      "  PAUSE(1);\n"
      "  KILL();\n"
      "  SPAWN(\"bullet\");\n"  // never runs: KILL stops the script
      "}\n");
  ASSERT_TRUE(defs.add(def_of("gunner", {named("Script", "gunner")})));
  Result<Entity> e = spawn(world, registry, defs, "gunner", {100, 0});
  ASSERT_TRUE(e) << e.error().to_string();
  ASSERT_TRUE(world.props(*e)->set<f32>("health", 50.0f));
  ASSERT_NE(world.get<EntityScript>(*e), nullptr);
  const script::InstanceId id = world.get<EntityScript>(*e)->instance;
  EXPECT_EQ(bindings.entity_of(*vm, id), *e);

  vm->update(1.0 / 60);
  EXPECT_EQ(count_bullets(), 1u);
  for (auto [b, l, t] : world.view<Lifetime, Transform>()) {
    EXPECT_FLOAT_EQ(t.position.x, 105);
    EXPECT_FLOAT_EQ(t.position.y, -2);
  }
  const props::PropertyContainer& props = *world.props(*e);
  EXPECT_EQ(props.get<f32>("health").value_or(0), 40.0f);  // stays an f32
  EXPECT_EQ(props.get<s32>("kills").value_or(0), 3);
  EXPECT_TRUE(world.alive(*e));

  vm->update(1.0 / 60);  // the pause
  vm->update(1.0 / 60);  // KILL
  EXPECT_TRUE(world.dying(*e));
  EXPECT_EQ(count_bullets(), 1u);
  world.flush();
  EXPECT_FALSE(world.alive(*e));
  EXPECT_EQ(bindings.size(), 0u);                          // released with its entity
  EXPECT_EQ(vm->state(id), script::InstanceState::kFree);  // and the instance is gone
}

TEST_F(Scripts, EntryPointsScriptCommandsFailCleanly) {
  load(
      "SCRIPT(\"bad_spawn\") { SPAWN(\"nobody\"); }\n"
      "SCRIPT(\"bad_prop\") { SETPROP(\"name\", 1); }\n"
      "SCRIPT(\"loose\") { KILL(); }\n");
  const Entity e = world.create();
  Result<script::InstanceId> a = bindings.attach(*vm, e, "bad_spawn");
  ASSERT_TRUE(a);
  ASSERT_TRUE(world.props(e)->set<std::string>("name", "x"));
  const Entity f = world.create();
  ASSERT_TRUE(world.props(f)->set<std::string>("name", "x"));
  Result<script::InstanceId> b = bindings.attach(*vm, f, "bad_prop");
  ASSERT_TRUE(b);
  Result<script::InstanceId> loose = vm->start("loose");  // not bound to an entity
  ASSERT_TRUE(loose);
  vm->update(1.0 / 60);
  EXPECT_EQ(vm->state(*a), script::InstanceState::kFailed);
  EXPECT_NE(vm->error(*a)->message().find("nobody"), std::string::npos);
  EXPECT_EQ(vm->state(*b), script::InstanceState::kFailed);
  EXPECT_EQ(vm->state(*loose), script::InstanceState::kFailed);
  EXPECT_EQ(bindings.entity_of(*vm, *loose), Entity{});

  // attach: dead entities and unknown scripts are errors.
  world.kill(e);
  world.flush();
  EXPECT_EQ(bindings.attach(*vm, e, "loose").error().code(), ErrorCode::kInvalidArgument);
  EXPECT_FALSE(bindings.attach(*vm, f, "no_such_script"));
}

TEST(EntryPoints, ScriptBindingsCommandsAddedTwice) {
  World world;
  SpawnRegistry registry;
  EntityDefs defs;
  ScriptBindings bindings(world, registry, defs);
  script::CommandSet commands = script::default_commands();
  EXPECT_TRUE(bindings.add_commands(commands));
  EXPECT_FALSE(bindings.add_commands(commands));  // names and opcodes are taken
}

constexpr std::string_view kDrone = R"(
FSM("Drone")
{
    InitialState("Patrol");
    State("Patrol")
    {
        On("hit")      Transition("Hurt");
    }
    State("Hurt")
    {
        On("hit")      Execute("Kill");
    }
}
)";

TEST(Fsms, FsmFunctionsActOnTheirEntity) {
  std::optional<fsm::CompiledFsms> image =
      fsm::testing::compile_text(std::string(kDrone), fsm::TypeRegistry{});
  ASSERT_TRUE(image);
  fsm::FsmLibrary library;
  ASSERT_TRUE(library.add(std::move(*image)));
  ASSERT_TRUE(library.link());
  fsm::FunctionRegistry functions;
  ASSERT_TRUE(FsmBindings::declare_functions(functions));
  fsm::Environment env(functions);

  World world;
  SpawnRegistry registry;
  EntityDefs defs;
  FsmBindings brains(world, library, env);
  brains.register_component(registry);
  ASSERT_TRUE(defs.add(def_of("drone", {named("Fsm", "Drone")})));
  Result<Entity> a = spawn(world, registry, defs, "drone", {});
  Result<Entity> b = spawn(world, registry, defs, "drone", {});
  ASSERT_TRUE(a && b);
  ASSERT_NE(brains.find(*a), nullptr);
  EXPECT_EQ(FsmBindings::entity_of(*brains.find(*a)), *a);

  EXPECT_EQ(brains.event(*a, "hit"), fsm::EventResult::kChangedState);
  EXPECT_EQ(brains.find(*a)->state_name(), "Hurt");
  EXPECT_EQ(brains.find(*b)->state_name(), "Patrol");
  brains.event(*a, "hit");  // Execute("Kill") kills a, not b
  EXPECT_TRUE(world.dying(*a));
  EXPECT_FALSE(world.dying(*b));
  brains.run();
  world.flush();
  EXPECT_FALSE(world.alive(*a));
  EXPECT_EQ(brains.size(), 1u);
  EXPECT_EQ(brains.event(*a, "hit"), fsm::EventResult::kNotFound);
}

TEST(EntryPoints, FsmBindingsUnknownFsmAndDeadEntity) {
  fsm::FsmLibrary library;
  ASSERT_TRUE(library.link());
  fsm::FunctionRegistry functions;
  fsm::Environment env(functions);
  World world;
  FsmBindings brains(world, library, env);
  const Entity e = world.create();
  EXPECT_EQ(brains.attach(e, "Nobody").error().code(), ErrorCode::kNotFound);
  EXPECT_EQ(brains.attach(Entity{}, "Nobody").error().code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(brains.event(e, "hit"), fsm::EventResult::kNotFound);
  EXPECT_EQ(FsmBindings::entity_of(fsm::FsmInstance{}), Entity{});
  brains.run();  // nothing bound: nothing happens
}

}  // namespace
}  // namespace keel::world
