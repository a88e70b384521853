// Fuzz target over rumble's match loader (match_save.h). The first byte picks the mode:
//   0: the rest is a whole save file;
//   1: the rest is an object stream, sealed into a valid container (right checksums and level
//      version) first, so mutations reach MatchSave/FighterSave loading and Match::restore().
// A restored match then plays a few ticks: whatever a save can restore must simulate.
#include "match_save.h"

#include "keel/save/format.h"

#include <cstddef>
#include <cstdint>
#include <memory>

#ifndef KEEL_RUMBLE_DATA_DIR
#define KEEL_RUMBLE_DATA_DIR "games/rumble/data"
#endif

using namespace keel;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static std::unique_ptr<rumble::Match> match;
  static rumble::MatchState pristine;
  if (size < 1) return 0;
  // The same starting match for every input: a new one after a restored finished fight (its
  // tasks are gone), else the first one put back.
  if (match == nullptr || match->over()) {
    rumble::MatchSetup setup = rumble::MatchSetup::from_data_dir(KEEL_RUMBLE_DATA_DIR);
    setup.seed = 7;
    auto created = rumble::Match::create(std::move(setup));
    if (!created) __builtin_trap();  // the shipped data must load
    match = std::move(*created);
    pristine = match->capture();
  } else if (!match->restore(pristine)) {
    __builtin_trap();
  }
  ByteSpan input(reinterpret_cast<const std::byte*>(data) + 1, size - 1);
  ByteBuffer sealed;
  if (data[0] == 1) {
    save::FileHeader header;
    header.compression = save::Compression::kNone;
    header.version = rumble::match_save_system().version();
    header.client.level_name = "rumble-arena";
    header.client.level_version = rumble::kMatchSaveLevelVersion;
    auto file = save::encode_file(header, input);
    if (!file) return 0;
    sealed = std::move(*file);
    input = sealed;
  }
  save::LoadLimits limits;
  limits.max_body_bytes = 1 << 20;
  limits.max_file_bytes = 1 << 20;
  if (rumble::load_into_bytes(*match, input, limits)) {
    for (int i = 0; i < 30; ++i) match->step();
  }
  return 0;
}
