// Fuzz target over World::load: the input is the client data of a save session (sealed into a
// valid save container first, so mutations reach the world's own reader). Must never crash or
// leak; a load that succeeds must leave a consistent world (every tracked component on a live
// entity, views and a flush work).
#include "keel/core/bytes.h"
#include "keel/save/save_file.h"
#include "keel/save/system.h"
#include "keel/world/transform.h"
#include "keel/world/world.h"

#include <cstddef>
#include <cstdint>

using namespace keel;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const save::SaveSystem system({});
  const ByteSpan input(reinterpret_cast<const std::byte*>(data), size);
  save::SaveFile out(system);
  Status st = out.begin_save({}, {save::Compression::kNone});
  if (st) st = out.put(input);
  if (!out.end(st)) return 0;

  world::World world;
  save::SaveFile in(system);
  st = in.begin_load_bytes(out.bytes());
  if (st) st = world.load(in);
  st = in.end(st);
  if (st) {
    usize n = 0;
    for (auto [e, t] : world.view<world::Transform>()) {
      if (!world.alive(e)) __builtin_trap();
      t.position += t.velocity;
      ++n;
    }
    world.for_each_entity([&](world::Entity e) { world.kill(e); });
    world.flush();
    if (world.size() != 0) __builtin_trap();
    (void)world.create();
    (void)n;
  } else if (world.size() != 0) {
    __builtin_trap();  // a failed load leaves the world empty
  }
  return 0;
}
