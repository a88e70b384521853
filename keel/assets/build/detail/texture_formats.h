// The platform format lookup table (Golden Rules ch. 6): artists get one list of format names
// gathered from every target platform; each platform maps every name to its closest format.
#pragma once

#include "keel/assets/texture.h"
#include "keel/core/error.h"

#include <span>
#include <string_view>

namespace keel::assets::detail {

struct FormatChoice {
  TextureFormat format = TextureFormat::kA8R8G8B8;
  bool premultiplied = false;  // DXT2, DXT4: colour multiplied by alpha
};

// Every name artists may write in Format("..."), case-insensitive.
std::span<const std::string_view> artist_format_names();
// The format an artist's name asks for; kNotFound with the list of valid names otherwise.
Result<FormatChoice> artist_format(std::string_view name);
// The closest format `platform` supports (the identity for a platform with every format, and
// for platforms the table does not know).
TextureFormat closest_format(std::string_view platform, TextureFormat wanted);

}  // namespace keel::assets::detail
