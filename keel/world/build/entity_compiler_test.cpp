#include "keel/world/build/entity_compiler.h"

#include "keel/text/document.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace keel::world {
namespace {

struct EntityCompiled {
  std::unique_ptr<text::Document> doc;
  text::Diagnostics diag;
  std::optional<EntityDef> def;
};

std::unique_ptr<EntityCompiled> compile_entities(const std::string& source,
                                                 const EntitySchema& schema = world_schema()) {
  auto c = std::make_unique<EntityCompiled>();
  c->doc = text::parse(source, "ships.kcmd", c->diag);
  EXPECT_NE(c->doc, nullptr) << c->diag.render();
  if (c->doc) c->def = compile_entity(*c->doc->first(), schema, c->diag);
  return c;
}

// The first error as "line:col: message".
std::string entity_first_error(const EntityCompiled& c) {
  if (c.diag.items().empty()) return "(no error)";
  const Error& e = c.diag.items().front().error;
  return std::to_string(e.where().line) + ":" + std::to_string(e.where().column) + ": " +
         std::string(e.message());
}

TEST(EntityCompiler, CompilesComponentsAndParameterKinds) {
  auto c = compile_entities(
      "Entity(\"fighter\") {\n"
      "  Body(radius, 12, mass, 3);\n"
      "  Gun(bullet, \"bullet\", muzzle, 0, 16, cooldown, 0.25);\n"
      "  Sprite(\"ships/fighter\", size, 32, 32);\n"
      "  fsm(\"Fighter\");\n"
      "}\n");
  ASSERT_TRUE(c->def) << c->diag.render();
  const EntityDef& d = *c->def;
  EXPECT_EQ(d.name, "fighter");
  ASSERT_EQ(d.components.size(), 4u);
  EXPECT_EQ(d.components[0].name, "Body");
  EXPECT_FLOAT_EQ(d.components[0].params.number("radius"), 12);
  EXPECT_FLOAT_EQ(d.components[0].params.number("mass"), 3);
  const Params& gun = d.components[1].params;
  EXPECT_EQ(gun.text("bullet"), "bullet");
  EXPECT_FLOAT_EQ(gun.vec2("muzzle").y, 16);
  EXPECT_FLOAT_EQ(gun.number("cooldown"), 0.25f);
  EXPECT_EQ(d.components[2].params.text("name"), "ships/fighter");
  EXPECT_FLOAT_EQ(d.components[2].params.vec2("size").x, 32);
  EXPECT_EQ(d.components[3].name, "Fsm");  // the schema's spelling
  EXPECT_EQ(d.components[3].params.text("name"), "Fighter");
}

struct BadCase {
  const char* body;
  const char* error;  // "line:col: start of the message"
};

TEST(EntityCompiler, EveryErrorIsLocated) {
  const BadCase cases[] = {
      {"  Bodyy(radius, 1);", "2:3: unknown component `Bodyy`"},
      {"  Body(radus, 1);", "2:8: unknown parameter `radus` of `Body`"},
      {"  Body(radius, \"big\");", "2:16: `radius` of `Body` takes a number, got a string"},
      {"  Body(radius, -1);", "2:16: `radius` of `Body` is -1, outside 0"},
      {"  Body(radius, 1, radius, 2);", "2:19: parameter `radius` of `Body` is given twice"},
      {"  Body(radius);", "2:8: parameter `radius` needs a value"},
      {"  Vehicle(mode, delicate);", "2:11: parameter `mode` needs a value"},
      {"  Body(radius, 1, 2, 3);", "2:16: the value of `radius` must be a number"},
      {"  Body(12);", "2:8: `Body` takes `name, value` pairs"},
      {"  Sprite(size, 2, 2);", "2:3: `Sprite` needs its `name`"},
      {"  Body(radius, 1);\n  Body(mass, 1);", "3:3: component `Body` appears twice"},
      {"  Body(radius, 1) { Mass(2); }", "2:21: a component takes no block"},
  };
  for (const BadCase& bad : cases) {
    auto c = compile_entities(std::string("Entity(\"x\") {\n") + bad.body + "\n}\n");
    EXPECT_FALSE(c->def) << bad.body;
    EXPECT_EQ(entity_first_error(*c).substr(0, std::string(bad.error).size()), bad.error)
        << bad.body;
  }
}

TEST(EntityCompiler, ReportsEveryMistakeOfADefinition) {
  auto c =
      compile_entities("Entity(\"x\") { Bodyy(radius, 1); Body(radus, 1); Gun(speed, \"fast\"); }");
  EXPECT_FALSE(c->def);
  EXPECT_EQ(c->diag.error_count(), 3u);
}

TEST(EntityCompiler, EntityStatementNeedsANameAndABlock) {
  EXPECT_EQ(entity_first_error(*compile_entities("Entity(\"x\");")).substr(0, 4), "1:1:");
  EXPECT_EQ(entity_first_error(*compile_entities("Entity(5) { }")).substr(0, 4), "1:8:");
  auto empty = compile_entities("Entity(\"\") { }");
  EXPECT_FALSE(empty->def);
  EXPECT_EQ(entity_first_error(*empty).substr(0, 4), "1:8:");
}

TEST(EntityCompiler, GameSchemaAddsComponents) {
  text::Diagnostics diag;
  auto doc = text::parse(
      "Component(\"Shield\") { Param(capacity, number, 0, 500); Param(sound, string, required); }",
      "game.kschema", diag);
  ASSERT_TRUE(doc);
  EntitySchema schema = world_schema();
  ASSERT_TRUE(schema.add_from(doc->first(), diag)) << diag.render();
  auto ok = compile_entities("Entity(\"x\") { Shield(capacity, 100, sound, \"hum\"); }", schema);
  ASSERT_TRUE(ok->def) << ok->diag.render();
  EXPECT_FLOAT_EQ(ok->def->components[0].params.number("capacity"), 100);
  auto high = compile_entities("Entity(\"x\") { Shield(capacity, 900, sound, \"hum\"); }", schema);
  EXPECT_EQ(entity_first_error(*high).substr(0, 5), "1:32:");
  auto missing = compile_entities("Entity(\"x\") { Shield(capacity, 9); }", schema);
  EXPECT_EQ(entity_first_error(*missing).substr(0, 5), "1:15:");
}

TEST(EntityCompiler, BadSchemaFilesAreLocated) {
  text::Diagnostics diag;
  auto doc = text::parse(
      "Component(\"A\") { Param(x, colour); }\nWidget(\"B\");\nComponent(\"C\") { Param(y); }",
      "game.kschema", diag);
  ASSERT_TRUE(doc);
  EntitySchema schema;
  EXPECT_FALSE(schema.add_from(doc->first(), diag));
  ASSERT_EQ(diag.error_count(), 3u);
  EXPECT_EQ(diag.items()[0].error.where().line, 1u);
  EXPECT_EQ(diag.items()[1].error.where().line, 2u);
  EXPECT_EQ(diag.items()[2].error.where().line, 3u);
}

}  // namespace
}  // namespace keel::world
