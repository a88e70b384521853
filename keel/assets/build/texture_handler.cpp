#include "keel/assets/build/detail/registration.h"

namespace keel::assets::detail {

// Placeholder until the texture processor lands.
void register_texture_handlers(pipeline::Registrar& /*registrar*/) {}

}  // namespace keel::assets::detail
