#include "keel/world/build/particle_handler.h"

#include <fmt/format.h>

#include <cmath>
#include <numbers>

namespace keel::world {

namespace {

constexpr f32 kRadiansPerDegree = std::numbers::pi_v<f32> / 180.0f;

f32 number(const text::Token& cmd, u32 index) { return static_cast<f32>(cmd.param(index)->number); }

// One or two numbers: (v) or (min, max).
bool range(pipeline::BuildContext& ctx, const text::Token& cmd, f32& lo, f32& hi) {
  if (!ctx.check(cmd, {text::kNumber, text::kNumber}, {.min_params = 1})) return false;
  lo = number(cmd, 0);
  hi = cmd.param_count() > 1 ? number(cmd, 1) : lo;
  return true;
}

bool single(pipeline::BuildContext& ctx, const text::Token& cmd, f32& value) {
  if (!ctx.check(cmd, {text::kNumber})) return false;
  value = number(cmd, 0);
  return true;
}

bool ease_param(pipeline::BuildContext& ctx, const text::Token& cmd, u32 index, tween::Ease& e) {
  const text::Token* p = cmd.param(index);
  if (p == nullptr) return true;
  const std::optional<tween::Ease> parsed = parse_ease(p->text);
  if (!parsed) {
    ctx.error(*p, fmt::format("unknown easing `{}` (linear, in_quad, out_quad, in_out_quad, ...)",
                              p->text));
    return false;
  }
  e = *parsed;
  return true;
}

bool size_statement(pipeline::BuildContext& ctx, const text::Token& cmd, EffectDef& d) {
  if (!ctx.check(cmd, {text::kNumber, text::kNumber, text::kString | text::kName},
                 {.min_params = 1})) {
    return false;
  }
  d.size_start = number(cmd, 0);
  d.size_end = cmd.param_count() > 1 ? number(cmd, 1) : d.size_start;
  return ease_param(ctx, cmd, 2, d.size_ease);
}

bool colour_statement(pipeline::BuildContext& ctx, const text::Token& cmd, EffectDef& d) {
  if (!ctx.check(cmd, {text::kString, text::kString, text::kString | text::kName},
                 {.min_params = 1})) {
    return false;
  }
  Rgba8 colours[2];
  for (u32 i = 0; i < 2; ++i) {
    const text::Token* p = cmd.param(i);
    if (p == nullptr) {
      colours[i] = colours[0];
      continue;
    }
    const std::optional<Rgba8> c = parse_colour(p->text);
    if (!c) {
      ctx.error(*p, fmt::format("colour `{}` is not #RRGGBB or #RRGGBBAA", p->text));
      return false;
    }
    colours[i] = *c;
  }
  d.colour_start = colours[0];
  d.colour_end = colours[1];
  return ease_param(ctx, cmd, 2, d.colour_ease);
}

bool capacity_statement(pipeline::BuildContext& ctx, const text::Token& cmd, u32& out,
                        std::string_view what) {
  if (!ctx.check(cmd, {text::kNumber})) return false;
  const double v = cmd.params->number;
  if (!(v >= 0) || v > kMaxEffectCapacity || v != std::floor(v)) {
    ctx.error(*cmd.params,
              fmt::format("{} must be a whole number in [0, {}]", what, kMaxEffectCapacity));
    return false;
  }
  out = static_cast<u32>(v);
  return true;
}

bool statement(pipeline::BuildContext& ctx, const text::Token& s, EffectDef& d) {
  if (s.is("Rate")) return single(ctx, s, d.rate);
  if (s.is("Burst")) return capacity_statement(ctx, s, d.burst, "a burst");
  if (s.is("Duration")) return single(ctx, s, d.duration);
  if (s.is("Life")) return range(ctx, s, d.life_min, d.life_max);
  if (s.is("Speed")) return range(ctx, s, d.speed_min, d.speed_max);
  if (s.is("Direction")) {
    if (!single(ctx, s, d.direction)) return false;
    d.direction *= kRadiansPerDegree;
    return true;
  }
  if (s.is("Spread")) {
    if (!single(ctx, s, d.spread)) return false;
    d.spread *= kRadiansPerDegree;
    return true;
  }
  if (s.is("Radius")) return single(ctx, s, d.radius);
  if (s.is("Inherit")) return single(ctx, s, d.inherit);
  if (s.is("Drag")) return single(ctx, s, d.drag);
  if (s.is("Gravity")) {
    if (!ctx.check(s, {text::kNumber, text::kNumber})) return false;
    d.gravity = {number(s, 0), number(s, 1)};
    return true;
  }
  if (s.is("Size")) return size_statement(ctx, s, d);
  if (s.is("Colour") || s.is("Color")) return colour_statement(ctx, s, d);
  if (s.is("Capacity")) return capacity_statement(ctx, s, d.capacity, "a capacity");
  ctx.error(s, fmt::format("unknown Effect statement `{}` (Rate, Burst, Duration, Life, Speed, "
                           "Direction, Spread, Radius, Inherit, Drag, Gravity, Size, Colour, "
                           "Capacity)",
                           s.text));
  return false;
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::optional<Rgba8> parse_colour(std::string_view text) {
  if (text.size() != 7 && text.size() != 9) return std::nullopt;
  if (text[0] != '#') return std::nullopt;
  u8 bytes[4] = {0, 0, 0, 255};
  for (usize i = 0; i + 1 < text.size(); i += 2) {
    const int hi = hex_digit(text[i + 1]);
    const int lo = hex_digit(text[i + 2]);
    if (hi < 0 || lo < 0) return std::nullopt;
    bytes[i / 2] = static_cast<u8>(hi * 16 + lo);
  }
  return Rgba8{bytes[0], bytes[1], bytes[2], bytes[3]};
}

std::optional<tween::Ease> parse_ease(std::string_view name) {
  for (usize i = 0; i < tween::kEaseCount; ++i) {
    const auto e = static_cast<tween::Ease>(i);
    if (tween::ease_name(e) == name) return e;
  }
  return std::nullopt;
}

bool build_effect_asset(pipeline::BuildContext& ctx) {
  const text::Token& cmd = ctx.command();
  if (!ctx.check(cmd, {text::kString}, {.conditional = text::Conditional::kAllowed})) {
    return false;
  }
  const std::string_view name = cmd.params->text;
  if (name.empty()) {
    ctx.error(*cmd.params, "an Effect needs a name");
    return false;
  }
  EffectDef def;
  bool ok = true;
  for (const text::Token& s : text::chain(cmd.conditional)) ok = statement(ctx, s, def) && ok;
  if (!ok) return false;
  if (Status valid = check_effect(def); !valid) {
    ctx.error(cmd, fmt::format("Effect(\"{}\"): {}", name, valid.error().message()));
    return false;
  }
  if (!ctx.set_output(name)) return false;
  if (ctx.up_to_date()) return true;
  const ByteBuffer chunk = encode_effect(def);
  pipeline::OutputFile* out = ctx.create_output();
  if (out == nullptr) return false;
  const u32 primary = out->add_chunk(name, pipeline::kBlockGeneral, chunk);
  if (primary == 0) {
    ctx.error(cmd, "the effect's chunk could not be written");
    return false;
  }
  out->add_item(name, kEffectAssetType, primary);
  return out->close();
}

void register_particle_handlers(pipeline::Registrar& registrar) {
  registrar.add({.platform = pipeline::kCommon,
                 .type = "Effect",
                 .fn = build_effect_asset,
                 .version = 1,
                 .description = "particle effects (rate, burst, life, speed, spread, curves)"});
}

}  // namespace keel::world
