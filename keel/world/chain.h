// Event chains (the Citizen blog's wave logic): a queue of steps, each with start actions, end
// actions and an end condition — "spawn 10 of type A; when all are dead spawn 15 of type B; when
// 5 of those are dead spawn the boss" — written in data:
//
//   Chain("waves") {
//     Step("first") { Start() Spawn("fighter", 10); Until() Dead(all); }
//     Step() { Start() Spawn("bomber", 15); Until() Dead(5); End() Call("boss_music"); }
//     Step() { Start() Spawn("boss", 1); Until() Dead(all); }
//   }
//
// Actions: Spawn("definition", count [, x, y [, spread]]), Call("game function").
// Conditions: Dead(all) / Dead(n) (of the entities this step spawned), Time(seconds) (since the
// step started), Check("game predicate"); a step without Until ends at once.
// This header is the data (ChainDef and its pack chunk); chain_runner.h runs it against a World.
#pragma once

#include "keel/core/bytes.h"
#include "keel/core/error.h"
#include "keel/core/types.h"
#include "keel/world/entity.h"

#include <string>
#include <string_view>
#include <vector>

namespace keel::pack {
class Loader;
class LoadedPack;
}  // namespace keel::pack

namespace keel::world {

enum class ChainActionKind : u8 { kSpawn = 1, kCall = 2 };

struct ChainAction {
  ChainActionKind kind = ChainActionKind::kSpawn;
  std::string name;  // the entity definition (Spawn) or the game function (Call)
  u32 count = 0;     // Spawn: how many
  bool at = false;   // Spawn: true when a position was given, else the runner's placer decides
  Vec2 position;     // Spawn: the centre
  f32 spread = 0;    // Spawn: radius of the ring the entities are placed on around the centre
};

enum class ChainConditionKind : u8 { kNone = 0, kDead = 1, kTime = 2, kCheck = 3 };

struct ChainCondition {
  ChainConditionKind kind = ChainConditionKind::kNone;
  u32 count = 0;     // Dead: how many must be dead; 0 = all of them
  f32 seconds = 0;   // Time
  std::string name;  // Check: the game predicate
};

struct ChainStep {
  std::string name;  // optional, for messages and tools
  std::vector<ChainAction> start;
  std::vector<ChainAction> end;
  ChainCondition until;
};

struct ChainDef {
  std::string name;
  std::vector<ChainStep> steps;
};

// The chunk of one chain (asset type "Chain", little-endian, strings as u32 length + bytes):
//   u32 magic "KCHN" | u32 version | str name | u32 step_count
//   step: str name | u32 n + n actions (start) | u32 n + n actions (end) | condition
//   action: u8 kind | str name | u32 count | u8 at | f64 x | f64 y | f64 spread
//   condition: u8 kind | u32 count | f64 seconds | str name (may be empty)
inline constexpr u32 kChainMagic = 0x4E48434Bu;  // "KCHN"
inline constexpr u32 kChainVersion = 1;
inline constexpr std::string_view kChainAssetType = "Chain";

ByteBuffer encode_chain(const ChainDef& chain);
// Validated once: bounds, kinds, names where required, spawn counts >= 1, finite non-negative
// numbers, no trailing bytes.
Result<ChainDef> decode_chain(ByteSpan bytes, std::string_view label = "<chain>");

// Registers the "Chain" asset type with a pack loader (setup decodes into a ChainDef owned by
// the loaded pack), and finds one in a loaded pack by name (nullptr when there is none).
void register_chain_type(pack::Loader& loader);
const ChainDef* find_chain(const pack::LoadedPack& pack, std::string_view name);

}  // namespace keel::world
