#include "keel/assets/build/asset_handlers.h"

#include "keel/assets/build/detail/registration.h"
#include "keel/assets/build/sound_handler.h"

namespace keel::assets {

void register_asset_handlers(pipeline::Registrar& registrar) {
  detail::register_texture_handlers(registrar);
  detail::register_font_handlers(registrar);
  detail::register_mesh_handlers(registrar);
  detail::register_atlas_handlers(registrar);
  register_sound_handlers(registrar);
}

}  // namespace keel::assets
