// The book's example classes (Golden Rules ch. 8) for tests, the fuzz target and the tool's
// smoke test. Not installed.
#pragma once

#include "keel/save/save_file.h"
#include "keel/save/system.h"

#include <memory>
#include <vector>

namespace keel::save::testing {

// ExObj1 of the book, derived from SaveObject (x86-64: vptr 0..7, the save's mark 8..11,
// padding 12..15, nextObject 16, objID 24, padding 28..31, objName 32, matrix 40..103).
class ExObj1 : public SaveObject {
  KEEL_SAVABLE(ExObj1, 1)
  ExObj1* nextObject = nullptr;
  u32 objID = 0;
  const char* objName = nullptr;
  f32 matrix[4][4] = {};
  static inline int load_calls = 0;  // counts load() of every ExObj1 and derived object

  Status load(SaveFile& file) override;
};

// ExObj2: ExObj1 plus velocity, health, maxHealth, and a 32-byte buffer it declares as a memory
// block of its own in pre_save/pre_load; `cache` is deliberately not saved.
class ExObj2 : public ExObj1 {
  KEEL_SAVABLE(ExObj2, 2)
  f32 velocity[4] = {};
  u32 health = 0;
  u32 maxHealth = 0;
  u8 buf[32] = {};
  std::vector<int> cache;

  Status pre_save(SaveFile& file) override;
  Status pre_load(SaveFile& file) override;
};

// ExObj3: a pointer to a member of another object, and a pointer into ExObj2's own block.
class ExObj3 : public ExObj1 {
  KEEL_SAVABLE(ExObj3, 3)
  u32* watched = nullptr;
  u8* inBuf = nullptr;
};

// ExObj4: custom data after the template (a count and that many floats).
class ExObj4 : public ExObj1 {
  KEEL_SAVABLE(ExObj4, 4)
  std::vector<f32> samples;  // not in the template: written by save(), read by load()
  static inline bool read_one_too_few = false;

  Status save(SaveFile& file) override;
  Status load(SaveFile& file) override;
};

// A plain struct whose template is defined in book_objects.cpp and used nowhere there: a class
// elsewhere that applies it (KEEL_SAVESTRUCT) links only if the definition is emitted, and gets
// no compiled writer (the template is not a constant where the class is registered).
struct Badge {
  KEEL_SAVE_STRUCT();
  u32 rank = 0;
  u32 medals = 0;
};

// All four classes.
SaveSystem book_system();

// The spec's A13 scenario: level block (64 bytes); a (ExObj1, 10) → b (ExObj2, 20) → c (ExObj1,
// 30) → a; a->objName = level+0, b->objName = level+6; b.health 77, maxHealth 100.
struct BookScene {
  alignas(8) char level[64] = "level-data";
  ExObj1 a;
  ExObj2 b;
  ExObj1 c;
  BookScene();
};

// Saves the scene (client header data u32 0xABCD, the level block, root `a`) into memory.
Result<ByteBuffer> save_scene(const SaveSystem& system, BookScene& scene, SaveOptions options = {});

// Saves the graph found from `root` into memory (no blocks) and loads it back: the new objects.
Result<std::vector<std::unique_ptr<SaveObject>>> round_trip(const SaveSystem& system,
                                                            SaveObject& root);

// Not the book's: two classes that keep every default hook, so a set of them is loaded in one
// pass with parked links (the fuzz target's second system). Object pointers both ways, a
// pointer into another object's block and one into the level.
class PlainLeaf;
class PlainNode : public SaveObject {
  KEEL_SAVABLE(PlainNode, 11)
  u32 id = 0;
  PlainNode* next = nullptr;
  PlainLeaf* leaf = nullptr;
  const u32* watched = nullptr;  // another leaf's weight
};
class PlainLeaf : public SaveObject {
  KEEL_SAVABLE(PlainLeaf, 12)
  u32 weight = 0;
  PlainNode* owner = nullptr;
  const char* name = nullptr;  // into the level block
};
SaveSystem plain_system();

// Four nodes in a ring, each with a leaf; saved like save_scene (client data u32 0xABCD, the
// 64-byte `level` block, the first node).
Result<ByteBuffer> save_plain_scene(const SaveSystem& system, char* level, SaveOptions options = {},
                                    ByteBuffer* body = nullptr);

}  // namespace keel::save::testing
