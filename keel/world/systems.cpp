#include "keel/world/systems.h"

#include "keel/world/transform.h"
#include "keel/world/world.h"

namespace keel::world {

void tick_lifetimes(World& world, f32 dt) {
  world.view<Lifetime>().each([&](Entity e, Lifetime& life) {
    if (life.remaining <= 0) return;  // already signalled
    life.remaining -= dt;
    if (life.remaining > 0) return;
    life.remaining = 0;
    world.done<Lifetime>(e);
    if (life.kill_entity) world.kill(e);
  });
}

void tick_guns(World& world, f32 dt) {
  world.view<Gun, Transform>().each([&](Entity e, Gun& gun, Transform& t) {
    gun.timer = gun.timer > dt ? gun.timer - dt : 0;
    if (!gun.trigger || gun.timer > 0) return;
    gun.timer = gun.cooldown;
    const Vec2 facing = spatial::from_angle(t.angle);
    world.emit(Shoot{.shooter = e,
                     .bullet = gun.bullet,
                     .position = t.position + spatial::rotated(gun.muzzle, t.angle),
                     .velocity = t.velocity + facing * gun.bullet_speed});
  });
}

ListenerId connect_audio(World& world) {
  return world.on<Shoot>([](World& w, const Shoot& shot) {
    const Audio* audio = w.get<Audio>(shot.shooter);
    if (audio == nullptr) return;
    const StringId sound = audio->sound_for("shoot"_id);
    if (sound.value != 0) w.emit(PlaySound{shot.shooter, sound, audio->volume});
  });
}

}  // namespace keel::world
