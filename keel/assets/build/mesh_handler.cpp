#include "keel/assets/build/detail/registration.h"

namespace keel::assets::detail {

// Placeholder until the mesh processor lands.
void register_mesh_handlers(pipeline::Registrar& /*registrar*/) {}

}  // namespace keel::assets::detail
