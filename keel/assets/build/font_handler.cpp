#include "keel/assets/build/detail/registration.h"

namespace keel::assets::detail {

// Placeholder until the font processor lands.
void register_font_handlers(pipeline::Registrar& /*registrar*/) {}

}  // namespace keel::assets::detail
