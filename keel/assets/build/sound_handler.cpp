// Sound("name", "file.wav|file.ogg") { Volume(v); Stream(b); Loop(b); }: see sound_handler.h.
#include "keel/assets/build/sound_handler.h"

#include "keel/assets/build/sound_source.h"

#include <fmt/format.h>

#include <cmath>

namespace keel::assets {
namespace {

using text::kName;
using text::kNumber;
using text::kString;

// true/false/yes/no/on/off or a number (non-zero is true).
bool read_flag(pipeline::BuildContext& ctx, const text::Token& opt, bool& out) {
  if (!ctx.check(opt, {kName | kNumber})) return false;
  const text::Token& v = *opt.param(0);
  if (v.is_number()) {
    out = v.number != 0.0;
    return true;
  }
  if (v.is("true") || v.is("yes") || v.is("on")) {
    out = true;
    return true;
  }
  if (v.is("false") || v.is("no") || v.is("off")) {
    out = false;
    return true;
  }
  ctx.error(v, fmt::format("{}: true or false, not `{}`", opt.text, v.text));
  return false;
}

bool read_option(pipeline::BuildContext& ctx, const text::Token& opt, SoundOptions& options) {
  if (opt.is("Volume")) {
    if (!ctx.check(opt, {kNumber})) return false;
    const double v = opt.param(0)->number;
    if (!(v >= 0.0 && v <= kMaxSoundVolume)) {
      ctx.error(*opt.param(0), "Volume is 0 to 4 (1 = as recorded)");
      return false;
    }
    options.volume = static_cast<float>(v);
    return true;
  }
  if (opt.is("Stream")) return read_flag(ctx, opt, options.stream);
  if (opt.is("Loop")) return read_flag(ctx, opt, options.loop);
  ctx.error(opt, fmt::format("unknown Sound option `{}` (Volume, Stream, Loop)", opt.text));
  return false;
}

bool build_sound_asset(pipeline::BuildContext& ctx) {
  const text::Token& cmd = ctx.command();
  if (!ctx.check(cmd, {kString, kString}, {.conditional = text::Conditional::kAllowed})) {
    return false;
  }
  SoundOptions options;
  bool options_ok = true;
  for (const text::Token& opt : text::chain(cmd.conditional)) {
    options_ok = read_option(ctx, opt, options) && options_ok;
  }
  if (!options_ok) return false;
  const std::string_view name = cmd.param(0)->text;
  const text::Token& source = *cmd.param(1);
  const Result<std::string> path = ctx.find_source(source.text);
  if (!path) {
    ctx.error(source, fmt::format("source `{}` not found in the include paths of ({}, {})",
                                  source.text, ctx.platform(), ctx.asset_type()));
    return false;
  }
  if (!ctx.set_output(name)) return false;
  if (ctx.up_to_date()) return true;
  const Result<std::string> bytes = ctx.read_file(*path);
  if (!bytes) return false;
  Result<ByteBuffer> chunk = build_sound_chunk(as_bytes(*bytes), source.text, options);
  if (!chunk) {
    const Error& e = chunk.error();  // "laser.wav: byte 36: sample rate outside ..."
    ctx.error(source, e.where().binary ? fmt::format("{}: byte {}: {}", e.where().file,
                                                     e.where().offset, e.message())
                                       : e.message());
    return false;
  }
  pipeline::OutputFile* out = ctx.create_output();
  if (out == nullptr) return false;
  const u32 id = out->add_chunk(name, pipeline::kBlockGeneral, *chunk);
  if (id == 0) {
    out->close();
    return false;
  }
  out->add_item(name, kSoundType, id);
  return out->close();
}

}  // namespace

Result<ByteBuffer> build_sound_chunk(ByteSpan source, std::string_view name,
                                     const SoundOptions& options) {
  if (options.stream && !is_ogg(source)) {
    return fail_at(SourceLocation::bytes(std::string(name), 0), ErrorCode::kInvalidArgument,
                   "Stream(true) needs an Ogg Vorbis source (a WAV is decoded at build time)");
  }
  Result<DecodedSound> decoded = read_sound(source, name);
  if (!decoded) return Unexpected(decoded.error());
  SoundInfo info;
  info.channels = decoded->channels;
  info.volume = options.volume;
  info.loop = options.loop;
  if (options.stream) {
    info.encoding = SoundEncoding::kVorbis;
    info.sample_rate = decoded->sample_rate;
    info.frame_count = static_cast<u32>(decoded->frames());
    return encode_sound(info, source);
  }
  const std::vector<float> resampled =
      resample(decoded->samples, decoded->channels, decoded->sample_rate, kSoundRate);
  const std::vector<s16> pcm = to_pcm16(resampled);
  info.encoding = SoundEncoding::kPcm16;
  info.sample_rate = kSoundRate;
  info.frame_count = static_cast<u32>(pcm.size() / info.channels);
  return encode_sound_pcm(info, pcm);
}

void register_sound_handlers(pipeline::Registrar& registrar) {
  registrar.add({.platform = pipeline::kCommon,
                 .type = "Sound",
                 .fn = build_sound_asset,
                 .version = 1,
                 .description = "sounds from WAV or Ogg Vorbis: 48 kHz PCM, or Vorbis to stream"});
}

}  // namespace keel::assets
