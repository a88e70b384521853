#include "keel/hashing/factory.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace keel::hashing {
namespace {

struct Object {
  virtual ~Object() = default;
  virtual std::string kind() const = 0;
};
struct Player : Object {
  std::string kind() const override { return "PLAYER"; }
};
struct Alien : Object {
  std::string kind() const override { return "ALIEN"; }
};
struct Bullet : Object {
  std::string kind() const override { return "BULLET"; }
};

std::string kind_of(const Factory<Object>& f, std::string_view name) {
  auto obj = f.create(name);
  return obj ? (*obj)->kind() : obj.error().to_string();
}

// C3-15: case-insensitive creation by name, unknown names, and the registration order the book
// advises (the most frequently created type first: found after one node visit).
TEST(Factory, C3_15_CreateByNameCaseInsensitive) {
  Factory<Object> factory;
  ASSERT_EQ(*factory.add<Bullet>("Bullet"), 1u);
  ASSERT_EQ(*factory.add<Alien>("Alien"), 2u);
  ASSERT_EQ(*factory.add<Player>("Player"), 3u);
  EXPECT_EQ(kind_of(factory, "Bullet"), "BULLET");
  EXPECT_EQ(kind_of(factory, "bullet"), "BULLET");
  EXPECT_EQ(kind_of(factory, "BULLET"), "BULLET");
  EXPECT_EQ(kind_of(factory, "Player"), "PLAYER");
  EXPECT_EQ(kind_of(factory, "Alien"), "ALIEN");

  // Unknown: id 0 (the book's OBJID_UNDEFINED); creation is an error value, not a crash.
  EXPECT_EQ(factory.id_of("Dragon"), NameRegistry::kUndefined);
  EXPECT_EQ(kind_of(factory, "Dragon"), "error: unknown type name 'Dragon'");
  EXPECT_EQ(factory.create(0u), nullptr);
  EXPECT_EQ(factory.create(4u), nullptr);

  EXPECT_EQ(factory.visits("Bullet"), 1u);  // defined first: the root
  Factory<Object> book_order;               // the book's order: Player, Alien, Bullet
  ASSERT_TRUE(book_order.add<Player>("Player"));
  ASSERT_TRUE(book_order.add<Alien>("Alien"));
  ASSERT_TRUE(book_order.add<Bullet>("Bullet"));
  EXPECT_EQ(book_order.visits("Player"), 1u);
  EXPECT_EQ(book_order.visits("Bullet"), 2u);
}

TEST(Factory, CollisionsAndDuplicatesAreRejected) {
  Factory<Object> factory;
  ASSERT_TRUE(factory.add<Alien>("aaaab"));
  auto collide = factory.add<Bullet>("qaaaa");  // filename_hash 0x1C3870E8 for both
  ASSERT_FALSE(collide);
  EXPECT_EQ(collide.error().message(),
            "name 'qaaaa' collides with 'aaaab' (both hash to 0x1C3870E8); rename one");
  EXPECT_EQ(factory.type_count(), 1u);
  // A lookup that only shares the hash is not bound to the registered type.
  EXPECT_EQ(factory.id_of("QAAAA"), NameRegistry::kUndefined);
  EXPECT_EQ(factory.id_of("AAAAB"), 1u);
  auto dup = factory.add<Alien>("AaAaB");
  ASSERT_FALSE(dup);
  EXPECT_EQ(dup.error().code(), ErrorCode::kAlreadyExists);

  // Aliases: several names for one type.
  ASSERT_TRUE(factory.alias("Enemy", 1));
  EXPECT_EQ(kind_of(factory, "enemy"), "ALIEN");
  EXPECT_FALSE(factory.alias("Ghost", 7));
}

TEST(NameRegistry, FoldsCaseAndSlashes) {
  EXPECT_TRUE(same_filename("Textures/Wall.TGA", "textures\\wall.tga"));
  EXPECT_FALSE(same_filename("a", "b"));
  EXPECT_FALSE(same_filename("ab", "a"));
  NameRegistry ids;
  ASSERT_TRUE(ids.define("textures/wall.tga", 5));
  EXPECT_EQ(ids.find("TEXTURES\\WALL.TGA"), 5u);
  EXPECT_EQ(ids.size(), 1u);
  NameRegistry moved = std::move(ids);
  EXPECT_EQ(moved.find("textures/wall.tga"), 5u);
  moved.clear();
  EXPECT_EQ(moved.find("textures/wall.tga"), NameRegistry::kUndefined);
}

}  // namespace
}  // namespace keel::hashing
