// The asset processors as pipeline handlers (target keel::assets_build): Texture, Font, Mesh,
// Atlas and Sound command-file statements. keel-build registers them like the built-in handlers;
// the command languages are documented for artists in keel/assets/README.md.
#pragma once

#include "keel/pipeline/handler.h"

namespace keel::assets {

// Registers every asset handler (all platforms the handlers support).
void register_asset_handlers(pipeline::Registrar& registrar);

}  // namespace keel::assets
