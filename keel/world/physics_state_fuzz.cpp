// Fuzz target over saved physics states. The first byte picks the mode:
//   0: the rest is a whole save file holding a PhysicsState (container, checksums, the object's
//      custom data), loaded through keel/save and restored into a Physics;
//   1: the rest is the records themselves (body, turret and contact records back to back, each
//      group after a one-byte count), so mutations reach restore()'s checks directly.
// Must never crash; a refused state leaves the Physics unchanged.
#include "keel/save/save_file.h"
#include "keel/save/system.h"
#include "keel/world/physics.h"
#include "keel/world/physics_state.h"

#include <cstddef>
#include <cstdint>
#include <cstring>

using namespace keel;
using namespace keel::world;

namespace {

template <class T>
bool take_records(ByteSpan& in, std::vector<T>& out) {
  if (in.empty()) return false;
  const usize count = static_cast<u8>(in[0]);
  in = in.subspan(1);
  for (usize i = 0; i < count && in.size() >= sizeof(T); ++i) {
    T record;
    std::memcpy(static_cast<void*>(&record), in.data(), sizeof(T));
    in = in.subspan(sizeof(T));
    out.push_back(record);
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const save::SaveSystem system({save::type<PhysicsState>()});
  if (size < 1) return 0;
  ByteSpan input(reinterpret_cast<const std::byte*>(data) + 1, size - 1);
  Physics physics({}, *collision_filters(spatial::citizen_group_table()));
  (void)physics.add_body(Entity{1, 1}, BodyDef{});
  const u64 before = physics.state_hash();
  Status st;
  if (data[0] == 0) {
    save::LoadLimits limits;
    limits.max_body_bytes = 1 << 20;
    limits.max_file_bytes = 1 << 20;
    save::SaveFile f(system);
    st = f.begin_load_bytes(input, limits);
    if (st) st = f.process_objects();
    st = f.end(st);
    for (auto& object : f.take_objects()) {
      if (auto* s = dynamic_cast<PhysicsState*>(object.get())) st = physics.restore(*s);
    }
  } else {
    PhysicsState state;
    take_records(input, state.bodies);
    take_records(input, state.turrets);
    take_records(input, state.touching);
    st = state.check_flags();
    if (st) st = physics.restore(state);
  }
  if (!st && physics.state_hash() != before) __builtin_trap();  // a refusal changed the world
  for (int i = 0; st && i < 3; ++i) physics.step();
  return 0;
}
