// OBJ meshes as BSP input (target keel::spatial_build; tinyobjloader). Polygons are triangulated;
// the faces of every group or object whose name starts with "bsp_dummy" are dummy splitting faces.
// The pipeline's own mesh intermediate replaces OBJ here once the assets issue lands it.
#pragma once

#include "keel/core/error.h"
#include "keel/spatial/bsp.h"

#include <string_view>
#include <vector>

namespace keel::spatial {

// The triangles of an OBJ file's text, `source` = the triangle's number in the file (0-based).
// `name` locates errors (bad indices, parse errors).
Result<std::vector<BspInputFace>> load_obj_faces(std::string_view obj_text, std::string_view name);

}  // namespace keel::spatial
