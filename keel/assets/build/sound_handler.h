// The `Sound` pipeline handler: sound effects and music from WAV or Ogg Vorbis sources.
//
//   Sound("laser", "sounds/laser.wav") { Volume(0.8); }          // decoded, 48 kHz s16 PCM
//   Sound("theme", "sounds/theme.ogg") { Stream(true); Loop(true); }  // Vorbis kept, streamed
//
// Options (each at most once): Volume(0 .. 4) the asset's default gain (1); Stream(true|false)
// keeps an Ogg source's Vorbis bytes to decode while playing (false: decode at build time);
// Loop(true|false) whether play() loops it by default. The chunk is keel/assets/sound.h's.
#pragma once

#include "keel/assets/sound.h"
#include "keel/core/bytes.h"
#include "keel/core/error.h"
#include "keel/pipeline/handler.h"

#include <string_view>

namespace keel::assets {

struct SoundOptions {
  float volume = 1.0f;
  bool stream = false;
  bool loop = false;
};

// The sound chunk of one source file (`name` locates errors): WAV or Ogg decoded, resampled to
// kSoundRate and stored as s16; with options.stream an Ogg source is checked by decoding it and
// stored as it is. Stream with a WAV source is kInvalidArgument.
Result<ByteBuffer> build_sound_chunk(ByteSpan source, std::string_view name,
                                     const SoundOptions& options);

// Registers the `Sound` handler (every platform). Called by register_asset_handlers.
void register_sound_handlers(pipeline::Registrar& registrar);

}  // namespace keel::assets
