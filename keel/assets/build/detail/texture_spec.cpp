#include "keel/assets/build/detail/texture_spec.h"

#include "keel/text/signature.h"

#include <algorithm>
#include <cctype>

namespace keel::assets::detail {
namespace {

using text::kNumber;
using text::kString;

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

int channel_index(char c) {
  switch (c) {
    case 'r': return 0;
    case 'g': return 1;
    case 'b': return 2;
    case 'a': return 3;
    default: return -1;
  }
}

constexpr std::string_view kValidChannels =
    "red/r, green/g, blue/b, alpha/a, none/n, max/min/avg of 2-4 of r g b a (e.g. maxrgb), nx, ny, "
    "nz or "
    "gray";

bool byte_number(const text::Token& t, text::Diagnostics& diag, f32& out) {
  if (t.number < 0.0 || t.number > 255.0) {
    diag.error(t, "a colour component is 0 to 255, not {}", t.number);
    return false;
  }
  out = static_cast<f32>(t.number / 255.0);
  return true;
}

bool read_color(const text::Token& cmd, text::Diagnostics& diag, Rgba& out) {
  bool ok = byte_number(*cmd.param(0), diag, out.r);
  ok = byte_number(*cmd.param(1), diag, out.g) && ok;
  ok = byte_number(*cmd.param(2), diag, out.b) && ok;
  return byte_number(*cmd.param(3), diag, out.a) && ok;
}

template <typename E, usize N>
bool read_choice(const text::Token& t, text::Diagnostics& diag, std::string_view what,
                 const std::array<std::pair<std::string_view, E>, N>& choices, E& out) {
  const std::string value = lower(t.text);
  for (const auto& [name, e] : choices) {
    if (value == name) {
      out = e;
      return true;
    }
  }
  std::string valid;
  for (const auto& [name, e] : choices) valid += (valid.empty() ? "" : ", ") + std::string(name);
  diag.error(t, "unknown {} \"{}\" ({})", what, t.text, valid);
  return false;
}

bool read_image(const text::Token& cmd, text::Diagnostics& diag, TextureSpec& spec) {
  if (!text::check_command(cmd, diag, {kString, kString, kString, kString, kString},
                           {.min_params = 1})) {
    return false;
  }
  ImageSpec image;
  image.file = std::string(cmd.param(0)->text);
  image.at = &cmd;
  bool ok = true;
  for (u32 i = 1; i < cmd.param_count(); ++i) {
    Result<ChannelSpec> channel = parse_channel(cmd.param(i)->text);
    if (!channel) {
      diag.error(*cmd.param(i), channel.error().message());
      ok = false;
      continue;
    }
    image.channels[i - 1] = *channel;
  }
  spec.images.push_back(std::move(image));
  return ok;
}

bool read_size(const text::Token& opt, text::Diagnostics& diag, TextureSpec& spec) {
  const double x = opt.param(0)->number;
  const double y = opt.param(1)->number;
  if (x < 1 || y < 1 || x > kMaxTextureSize || y > kMaxTextureSize || x != static_cast<u32>(x) ||
      y != static_cast<u32>(y)) {
    diag.error(opt, "Size is two whole numbers from 1 to {}, not ({}, {})", kMaxTextureSize, x, y);
    return false;
  }
  spec.size = std::array<u32, 2>{static_cast<u32>(x), static_cast<u32>(y)};
  return true;
}

// Format, Filter, Wrap, Quality, MipSpace: one string each.
bool read_string_option(const text::Token& opt, text::Diagnostics& diag, TextureSpec& spec) {
  const text::Token& value = *opt.param(0);
  if (opt.is("Format")) {
    spec.format = std::string(value.text);
    spec.format_at = &opt;
    return true;
  }
  if (opt.is("Filter")) {
    TextureFilter filter{};
    if (!read_choice<TextureFilter, 3>(value, diag, "filter",
                                       {{{"point", TextureFilter::kPoint},
                                         {"bilinear", TextureFilter::kBilinear},
                                         {"trilinear", TextureFilter::kTrilinear}}},
                                       filter)) {
      return false;
    }
    spec.filter = filter;
    return true;
  }
  if (opt.is("Wrap")) {
    return read_choice<TextureWrap, 3>(value, diag, "wrap mode",
                                       {{{"wrap", TextureWrap::kWrap},
                                         {"clamp", TextureWrap::kClamp},
                                         {"mirror", TextureWrap::kMirror}}},
                                       spec.wrap);
  }
  if (opt.is("Quality")) {
    return read_choice<BlockQuality, 2>(
        value, diag, "quality", {{{"fast", BlockQuality::kFast}, {"best", BlockQuality::kBest}}},
        spec.quality);
  }
  bool srgb = true;
  if (!read_choice<bool, 2>(value, diag, "mip space", {{{"srgb", true}, {"linear", false}}}, srgb))
    return false;
  spec.srgb = srgb;
  return true;
}

bool read_number_option(const text::Token& opt, text::Diagnostics& diag, TextureSpec& spec) {
  const double value = opt.param(0)->number;
  if (opt.is("Levels")) {
    if (value < 0 || value > 32 || value != static_cast<u32>(value)) {
      diag.error(*opt.param(0), "Levels is a whole number from 0 (a full chain) to 32, not {}",
                 value);
      return false;
    }
    spec.levels = static_cast<u32>(value);
    return true;
  }
  if (!(value > 0.0 && value <= 1024.0)) {  // NormalHeight
    diag.error(*opt.param(0), "NormalHeight is above 0 and at most 1024, not {}", value);
    return false;
  }
  spec.normal_height = static_cast<f32>(value);
  return true;
}

// One definition command; false after reporting an error.
bool read_definition(const text::Token& opt, text::Diagnostics& diag, TextureSpec& spec) {
  if (opt.is("Size"))
    return text::check_command(opt, diag, {kNumber, kNumber}) && read_size(opt, diag, spec);
  if (opt.is("Format") || opt.is("Filter") || opt.is("Wrap") || opt.is("Quality") ||
      opt.is("MipSpace")) {
    return text::check_command(opt, diag, {kString}) && read_string_option(opt, diag, spec);
  }
  if (opt.is("Levels") || opt.is("NormalHeight")) {
    return text::check_command(opt, diag, {kNumber}) && read_number_option(opt, diag, spec);
  }
  if (opt.is("Color")) {
    return text::check_command(opt, diag, {kNumber, kNumber, kNumber, kNumber}) &&
           read_color(opt, diag, spec.color);
  }
  if (opt.is("MipFade")) {
    if (!text::check_command(opt, diag, {kNumber, kNumber, kNumber, kNumber, kNumber}))
      return false;
    MipFade fade;
    if (!read_color(opt, diag, fade.color)) return false;
    fade.amount = static_cast<f32>(opt.param(4)->number);
    if (!(fade.amount >= 0.0f && fade.amount <= 1.0f)) {
      diag.error(*opt.param(4), "the MipFade amount per level is 0 to 1, not {}", fade.amount);
      return false;
    }
    spec.fade = fade;
    return true;
  }
  if (opt.is("ArtistMips")) {
    spec.artist_mips = true;
    return text::check_command(opt, diag, {});
  }
  diag.error(
      opt,
      "unknown Texture command `{}` (Size, Format, Levels, Filter, Wrap, Color, Quality, MipSpace, "
      "NormalHeight, MipFade, ArtistMips, Image)",
      opt.text);
  return false;
}

}  // namespace

Result<ChannelSpec> parse_channel(std::string_view text) {
  const std::string t = lower(text);
  static constexpr std::array<std::string_view, 4> kChannelNames = {"red", "green", "blue",
                                                                    "alpha"};
  for (u8 i = 0; i < 4; ++i) {
    if (t == kChannelNames[i] || (t.size() == 1 && channel_index(t[0]) == i)) {
      return ChannelSpec{ChannelOp::kChannel, i, 0};
    }
  }
  if (t == "none" || t == "n") return ChannelSpec{ChannelOp::kNone, 0, 0};
  if (t == "nx") return ChannelSpec{ChannelOp::kNx, 0, 0};
  if (t == "ny") return ChannelSpec{ChannelOp::kNy, 0, 0};
  if (t == "nz") return ChannelSpec{ChannelOp::kNz, 0, 0};
  if (t == "gray") return ChannelSpec{ChannelOp::kGray, 0, 0};
  const std::string_view prefix = std::string_view(t).substr(0, 3);
  if (t.size() > 3 && (prefix == "max" || prefix == "min" || prefix == "avg")) {
    const std::string_view letters = std::string_view(t).substr(3);
    u8 mask = 0;
    bool valid = letters.size() >= 2 && letters.size() <= 4;
    for (char c : letters) {
      const int index = channel_index(c);
      if (index < 0 || (mask & (1u << index)) != 0) valid = false;
      if (index >= 0) mask = static_cast<u8>(mask | (1u << index));
    }
    if (!valid) {
      return fail(
          ErrorCode::kParse,
          "channel specifier \"{}\": {} takes 2 to 4 different channels of r, g, b, a (e.g. {}rgb)",
          text, prefix, prefix);
    }
    const ChannelOp op = prefix == "max"   ? ChannelOp::kMax
                         : prefix == "min" ? ChannelOp::kMin
                                           : ChannelOp::kAvg;
    return ChannelSpec{op, 0, mask};
  }
  return fail(ErrorCode::kParse, "unknown channel specifier \"{}\" (valid: {})", text,
              kValidChannels);
}

bool TextureSpec::filter_in_srgb() const {
  if (srgb) return *srgb;
  for (const ImageSpec& image : images) {
    for (const ChannelSpec& c : image.channels) {
      if (c.op == ChannelOp::kNx || c.op == ChannelOp::kNy || c.op == ChannelOp::kNz) return false;
    }
  }
  return true;
}

std::optional<TextureSpec> parse_texture(const text::Token& cmd, text::Diagnostics& diag) {
  const usize errors_before = diag.error_count();
  if (!text::check_command(cmd, diag, {kString}, {.conditional = text::Conditional::kAllowed})) {
    return std::nullopt;
  }
  TextureSpec spec;
  spec.name = std::string(cmd.param(0)->text);
  for (const text::Token& opt : text::chain(cmd.conditional)) {
    if (opt.is("Image")) {
      read_image(opt, diag, spec);
      continue;
    }
    if (!spec.images.empty()) {
      diag.error(opt,
                 "`{}` must come before the first Image (the book: definitions begin the block)",
                 opt.text);
      continue;
    }
    read_definition(opt, diag, spec);
  }
  if (!spec.size && spec.images.empty()) {
    diag.error(cmd, "texture \"{}\" needs a Size when it loads no Image", spec.name);
  }
  if (spec.artist_mips && spec.images.empty()) {
    diag.error(cmd, "texture \"{}\": ArtistMips needs an Image holding the chain", spec.name);
  }
  if (diag.error_count() != errors_before) return std::nullopt;
  return spec;
}

}  // namespace keel::assets::detail
