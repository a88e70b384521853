// The game's data-only components (the Citizen game's types) and the events they exchange.
// Plain structs: systems hold the behaviour, the platform draws Sprite and HudElement and plays
// Audio. Names (textures, sounds, definitions) are StringIds ("laser"_id): hashes that need no
// string storage and keep the structs trivially copyable, so they can be tracked for the state
// hash and saves (World::track_state). Body (physics), Vehicle (steering) and Emitter (particles)
// live in their own headers.
#pragma once

#include "keel/core/color.h"
#include "keel/core/hash.h"
#include "keel/core/types.h"
#include "keel/spatial/group_culling.h"
#include "keel/world/entity.h"

#include <array>

namespace keel::world {

// Takes part in collision culling (spatial/group_culling.h): a circle in a collision group.
struct Obstacle {
  spatial::GroupId group = 0;
  f32 radius = 1;
};

// What this entity tracks: a weak link (the id is simply dead once the target ends; check it
// with World::alive).
struct Target {
  Entity entity;
};

// Fires bullets: `timer` counts down to the next possible shot.
struct Gun {
  f32 cooldown = 0.25f;          // seconds between shots
  f32 timer = 0;                 // seconds until the gun may fire again
  Vec2 muzzle;                   // offset from the entity's position, in its own frame
  StringId bullet;               // entity definition of the bullet
  f32 bullet_speed = 0;          // world units per second, along the entity's facing
  bool trigger = false;          // held: fire whenever the timer allows
  std::array<u8, 3> reserved{};  // explicit, zeroed: no padding (World::track_state hashes bytes)
};
static_assert(sizeof(Gun) == 28, "Gun must have no padding bytes (state hashes read its bytes)");

// A textured quad drawn at the entity's Transform (platform's 2D renderer).
struct Sprite {
  StringId texture;  // texture or atlas name
  StringId frame;    // atlas frame name (none: the whole texture)
  Vec2 size{1, 1};   // world units
  Rgba8 colour{};    // white
  s32 layer = 0;     // drawn from low to high
};

// Something the HUD draws in screen space: a text, a bar (value in [0, 1]) or an icon.
struct HudElement {
  enum class Kind : u8 { kText, kBar, kIcon };
  Kind kind = Kind::kText;
  StringId content;  // string-table entry (text) or texture (icon)
  Vec2 position;     // pixels from the top-left corner
  Vec2 size;         // pixels
  f32 value = 0;     // bars: filled fraction
  Rgba8 colour{};
};

// The sounds an entity makes, one per game event name ("shoot"_id -> "laser"_id).
struct Audio {
  struct Cue {
    StringId event;
    StringId sound;
  };
  static constexpr usize kMaxCues = 4;
  std::array<Cue, kMaxCues> cues{};
  u8 count = 0;
  f32 volume = 1;

  // The sound for an event name, or a zero StringId.
  constexpr StringId sound_for(StringId event) const {
    for (usize i = 0; i < count && i < kMaxCues; ++i) {
      if (cues[i].event == event) return cues[i].sound;
    }
    return {};
  }
  // False when all kMaxCues are used.
  constexpr bool add(StringId event, StringId sound) {
    if (count >= kMaxCues) return false;
    cues[count++] = {event, sound};
    return true;
  }
};

// A limited life: tick_lifetimes (systems.h) counts it down, then signals done<Lifetime> and
// kills the entity (when kill_entity).
struct Lifetime {
  f32 remaining = 1;  // seconds
  bool kill_entity = true;
  std::array<u8, 3> reserved{};  // explicit, zeroed: no padding bytes
};
static_assert(sizeof(Lifetime) == 8, "Lifetime must have no padding bytes");

// --- events between components (World::emit / World::on) ----------------------------------------

// A gun fired (its audio plays "shoot", the bullet spawner makes the bullet).
struct Shoot {
  Entity shooter;
  StringId bullet;
  Vec2 position;  // world position of the muzzle
  Vec2 velocity;  // of the bullet
};

// An entity asks for a sound (an Audio cue matched an event); the platform plays it.
struct PlaySound {
  Entity source;
  StringId sound;
  f32 volume = 1;
};

}  // namespace keel::world
