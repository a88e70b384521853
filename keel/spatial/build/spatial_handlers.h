// The offline spatial builders as pipeline handlers (target keel::spatial_build): the BSP
// command-file statement. keel-build registers them like the built-in handlers.
#pragma once

#include "keel/pipeline/handler.h"

namespace keel::spatial {

void register_spatial_handlers(pipeline::Registrar& registrar);

}  // namespace keel::spatial
