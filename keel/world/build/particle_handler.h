// The `Effect` pipeline handler (target keel::world_build): a particle effect definition in the
// command language becomes one asset of type "ParticleEffect" whose one chunk (block 0) is
// keel/world/particles_effect.h's format, loaded with ParticleSystem::load_effect.
//
//   Effect("sparks")                        // every statement is optional (defaults in EffectDef)
//   {
//       Burst(40);                          // particles when the emitter starts / per burst
//       Rate(0);                            // particles per second while on
//       Duration(0.2);                      // seconds of rate emission (0: while on)
//       Life(0.2, 0.5);                     // seconds, uniform in [min, max] (one value: fixed)
//       Speed(2, 6);                        // world units per second, uniform in [min, max]
//       Direction(0);                       // degrees from the emitter's facing
//       Spread(360);                        // degrees, the full width of the spray
//       Radius(0.1);                        // start inside this disc
//       Inherit(0.3);                       // fraction of the entity's velocity
//       Drag(3);                            // velocity decays as e^(-drag t)
//       Gravity(0, -2);                     // acceleration
//       Size(0.2, 0, "out_quad");           // start, end, keel::tween easing name
//       Colour("#FFE678", "#FF500000", "in_quad");   // #RRGGBB or #RRGGBBAA, end, easing
//       Capacity(512);                      // live particles of this effect at most
//   }
#pragma once

#include "keel/pipeline/handler.h"
#include "keel/world/particles_effect.h"

#include <optional>
#include <string_view>

namespace keel::world {

// Registers `Effect` for every platform.
void register_particle_handlers(pipeline::Registrar& registrar);

bool build_effect_asset(pipeline::BuildContext& context);

// "#RRGGBB" / "#RRGGBBAA" (case-insensitive hex); nullopt otherwise.
std::optional<Rgba8> parse_colour(std::string_view text);
// A keel::tween easing by its name ("linear", "out_quad", ...); nullopt when unknown.
std::optional<tween::Ease> parse_ease(std::string_view name);

}  // namespace keel::world
