// The systems of the plain components that need no other module: Lifetime countdown, Gun
// triggers and the Audio reaction to game events.
#pragma once

#include "keel/core/types.h"
#include "keel/world/components.h"
#include "keel/world/listeners.h"

namespace keel::world {

class World;

// Counts every Lifetime down by dt; one that reaches zero signals done<Lifetime> (its on_done
// listeners run at the next flush) and kills its entity when kill_entity is set.
void tick_lifetimes(World& world, f32 dt);

// Counts Gun timers down; a gun whose trigger is held and whose timer ran out emits Shoot from its
// muzzle (entity Transform applied) and restarts its timer.
void tick_guns(World& world, f32 dt);

// Subscribes the Audio reaction: each Shoot whose shooter has an Audio cue for "shoot" emits a
// PlaySound (delivered in the same flush, after the events already queued).
ListenerId connect_audio(World& world);

}  // namespace keel::world
