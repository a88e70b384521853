#include "replay.h"

#include "keel/core/file.h"
#include "keel/core/hash.h"
#include "keel/serial/serial.h"

#include <fmt/format.h>

namespace keel::voidfarer {
namespace {

constexpr serial::LoadLimits kLimits{.max_string_bytes = 0, .max_elements = Replay::kMaxFrames};

}  // namespace

const char* difficulty_name(Difficulty d) {
  switch (d) {
    case Difficulty::kEasy: return "easy";
    case Difficulty::kNormal: return "normal";
    case Difficulty::kHard: return "hard";
  }
  return "?";
}

template <class Archive>
void Replay::serialize(Archive& ar) {
  u32 magic = kMagic;
  u16 version = kVersion;
  u8 difficulty_byte = static_cast<u8>(difficulty);
  ar(magic, version);
  if constexpr (Archive::kLoading) {
    if (ar.ok() && magic != kMagic) return ar.fail(ErrorCode::kCorrupt, "not a Voidfarer replay");
    if (ar.ok() && version != kVersion) {
      return ar.fail(ErrorCode::kUnsupported,
                     fmt::format("replay version {} (this build reads {})", version, kVersion));
    }
  }
  ar(pack_hash, difficulty_byte, seed);
  if constexpr (Archive::kLoading) {
    if (ar.ok() && difficulty_byte > static_cast<u8>(Difficulty::kHard)) {
      return ar.fail(ErrorCode::kCorrupt, fmt::format("unknown difficulty {}", difficulty_byte));
    }
    difficulty = static_cast<Difficulty>(difficulty_byte);
  }
  ar(controls);
  if constexpr (Archive::kLoading) {
    if (ar.ok() && controls.size() > kMaxFrames) {
      return ar.fail(ErrorCode::kCorrupt, fmt::format("{} frames is too long", controls.size()));
    }
    for (usize i = 0; i < controls.size() && ar.ok(); ++i) {
      if ((controls[i] & ~u8{0x1f}) != 0) {
        ar.fail(ErrorCode::kCorrupt,
                fmt::format("frame {}: control byte {:#04x} has unknown bits", i, controls[i]));
      }
    }
  }
}

Status Replay::save(const std::filesystem::path& path) const {
  return serial::save_file(path, *this);
}

Result<Replay> Replay::load(const std::filesystem::path& path) {
  Replay replay;
  if (Status st = serial::load_file(path, replay, kLimits); !st) {
    return fail(st.error().code(), "{}: {}", path.string(), st.error().to_string());
  }
  return replay;
}

Result<Replay> Replay::parse(ByteSpan bytes) {
  Replay replay;
  if (Status st = serial::load_from_bytes(bytes, replay, kLimits); !st)
    return Unexpected(st.error());
  return replay;
}

Result<ByteBuffer> Replay::to_bytes() const { return serial::save_to_bytes(*this); }

Status Replay::matches(u64 hash, const SimOptions& options) const {
  if (hash != pack_hash) {
    return fail(ErrorCode::kInvalidArgument,
                "the replay was recorded on another pack (hash {:016x}, this one {:016x})",
                pack_hash, hash);
  }
  if (options.difficulty != difficulty || options.seed != seed) {
    return fail(ErrorCode::kInvalidArgument,
                "the replay was recorded at difficulty {} seed {} (this run: {} seed {})",
                difficulty_name(difficulty), seed, difficulty_name(options.difficulty),
                options.seed);
  }
  return {};
}

Result<u64> pack_file_hash(const std::filesystem::path& pack) {
  Result<std::string> bytes = read_file(pack);
  if (!bytes) return Unexpected(bytes.error());
  return hash64(*bytes);
}

}  // namespace keel::voidfarer
