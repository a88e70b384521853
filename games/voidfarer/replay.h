// Replays: the Controls of every frame of a run, one byte each, after a small header naming what
// the run started from (the pack's hash, the difficulty and the seed). A replay played on the
// same pack with the same options reaches the same Sim::state_hash() as the recorded run.
//
//   Replay replay{.pack_hash = *pack_file_hash(pack), .difficulty = d, .seed = 1};
//   replay.controls.push_back(controls.bits());              // every frame
//   replay.save("run.vfr");                                  // keel/serial, atomic
//   Result<Replay> loaded = Replay::load("run.vfr");         // checked: magic, version, bits
//
// File layout (keel/serial, big-endian): u32 magic 'VFRP', u16 version (1), u64 pack hash,
// u8 difficulty (0 easy, 1 normal, 2 hard), u64 seed, u32 frame count, one byte per frame
// (bits 0-4: thrust, reverse, left, right, fire; the others must be zero).
#pragma once

#include "sim.h"

#include "keel/core/bytes.h"
#include "keel/core/error.h"
#include "keel/core/types.h"

#include <filesystem>
#include <vector>

namespace keel::voidfarer {

struct Replay {
  static constexpr u32 kMagic = 0x56465250;  // "VFRP"
  static constexpr u16 kVersion = 1;
  static constexpr u32 kMaxFrames = 60u * 60 * 60 * 24;  // a day of play at 60 Hz

  u64 pack_hash = 0;
  Difficulty difficulty = Difficulty::kNormal;
  u64 seed = 1;
  std::vector<u8> controls;  // Controls::bits() per frame

  // Written atomically through keel/serial.
  Status save(const std::filesystem::path& path) const;
  // Bad files (wrong magic or version, unknown difficulty, stray bits, truncation, trailing
  // bytes) are errors naming the file and the byte offset.
  static Result<Replay> load(const std::filesystem::path& path);
  // The same checks on bytes in memory (the fuzz target's entry), and the bytes save() writes.
  static Result<Replay> parse(ByteSpan bytes);
  Result<ByteBuffer> to_bytes() const;

  // Whether this replay was recorded on `pack_hash` with `options` (an error saying what differs).
  Status matches(u64 pack_hash, const SimOptions& options) const;

  template <class Archive>
  void serialize(Archive& ar);
};

// The 64-bit hash of a pack file's bytes (what a replay and a run must agree on).
Result<u64> pack_file_hash(const std::filesystem::path& pack);

const char* difficulty_name(Difficulty d);

}  // namespace keel::voidfarer
