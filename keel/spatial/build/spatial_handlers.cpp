#include "keel/spatial/build/spatial_handlers.h"

namespace keel::spatial {

// Placeholder until the BSP builder lands.
void register_spatial_handlers(pipeline::Registrar& /*registrar*/) {}

}  // namespace keel::spatial
