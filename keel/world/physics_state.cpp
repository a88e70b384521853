#include "keel/world/physics_state.h"

#include "keel/core/bytes.h"
#include "keel/save/record.h"
#include "keel/save/save_file.h"

#include <type_traits>

namespace keel::world {

static_assert(std::is_trivially_copyable_v<PhysicsBodyRecord>);
static_assert(std::is_trivially_copyable_v<PhysicsTurretRecord>);
static_assert(std::is_trivially_copyable_v<PhysicsContactRecord>);

KEEL_SAVE_TEMPLATE(PhysicsState) = {
    KEEL_SAVEDEF(PhysicsState),
    KEEL_SAVEDATA(PhysicsState, accumulator),
    KEEL_SAVEDATA(PhysicsState, steps),
    KEEL_DONTSAVE(PhysicsState, bodies),    // custom data: save()/load()
    KEEL_DONTSAVE(PhysicsState, turrets),   // custom data
    KEEL_DONTSAVE(PhysicsState, touching),  // custom data
    KEEL_SAVEEND(),
};

namespace {

template <class T>
Status put_records(save::SaveFile& file, const std::vector<T>& records) {
  Status st = file.put_value(static_cast<u64>(records.size()));
  if (st && !records.empty()) st = file.put(std::as_bytes(std::span(records)));
  return st;
}

// One record at a time: a forged count costs no more memory than the data that is really there.
template <class T>
Status get_records(save::SaveFile& file, std::vector<T>& records) {
  u64 count = 0;
  Status st = file.get_value(count);
  records.clear();
  for (u64 i = 0; st && i < count; ++i) {
    T record;
    st = file.get_value(record);
    if (st) records.push_back(record);
  }
  return st;
}

bool bools_ok(const PhysicsBodyRecord& r) {
  return bool_byte_ok(r.def.bullet) && bool_byte_ok(r.def.fixed_rotation) &&
         bool_byte_ok(r.steering.steer_heading);
}

}  // namespace

Status PhysicsState::save(save::SaveFile& file) {
  Status st = SaveObject::save(file);
  if (st) st = put_records(file, bodies);
  if (st) st = put_records(file, turrets);
  if (st) st = put_records(file, touching);
  return st;
}

Status PhysicsState::load(save::SaveFile& file) {
  Status st = SaveObject::load(file);
  if (st) st = get_records(file, bodies);
  if (st) st = get_records(file, turrets);
  if (st) st = get_records(file, touching);
  if (!st) return st;
  return check_flags();
}

Status PhysicsState::check_flags() const {
  for (usize i = 0; i < bodies.size(); ++i) {
    if (!bools_ok(bodies[i]))
      return fail(ErrorCode::kCorrupt, "physics state: body {} has a flag that is not 0 or 1", i);
  }
  for (usize i = 0; i < turrets.size(); ++i) {
    if (!bool_byte_ok(turrets[i].def.limit_angle))
      return fail(ErrorCode::kCorrupt, "physics state: turret {} has a flag that is not 0 or 1", i);
  }
  return {};
}

}  // namespace keel::world
