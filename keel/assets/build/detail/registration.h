// One registration function per asset family, each defined beside its handler.
#pragma once

#include "keel/pipeline/handler.h"

namespace keel::assets::detail {

void register_texture_handlers(pipeline::Registrar& registrar);
void register_font_handlers(pipeline::Registrar& registrar);
void register_mesh_handlers(pipeline::Registrar& registrar);
void register_atlas_handlers(pipeline::Registrar& registrar);

}  // namespace keel::assets::detail
