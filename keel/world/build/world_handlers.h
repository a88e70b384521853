// The world's pipeline handlers (target keel::world_build): the `Entity`, `Chain` and `Effect`
// statements of command files become one asset each (types "Entity", "Chain" and
// "ParticleEffect", one chunk in block 0, read back by keel/world/defs.h, keel/world/chain.h and
// keel/world/particles.h). keel-build registers them like the built-in handlers.
#pragma once

#include "keel/pipeline/handler.h"

namespace keel::world {

void register_world_handlers(pipeline::Registrar& registrar);

bool build_entity_asset(pipeline::BuildContext& context);
bool build_chain_asset(pipeline::BuildContext& context);

}  // namespace keel::world
