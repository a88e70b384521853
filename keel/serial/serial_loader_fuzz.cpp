// Fuzz target for the loaders: arbitrary bytes into a structure using every kind of value.
// Must never crash, leak or allocate beyond what the input can hold; and whatever loads cleanly
// (finish() succeeds) must save back to exactly the input bytes, since the format is canonical.
#include "keel/serial/serial.h"

#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace {

using namespace keel;
using namespace keel::serial;

enum class Kind : u8 { kA, kB, kC };

struct Leaf {
  std::string name;
  std::optional<f32> weight;
  Kind kind = Kind::kA;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(name, weight, kind);
    if constexpr (Archive::kLoading) {
      if (static_cast<u8>(kind) > 2) ar.fail(ErrorCode::kCorrupt, "bad kind");
    }
  }
};

struct Root {
  static constexpr u32 kMagic = fourcc("FUZZ");
  u16 id = 0;
  bool flag = false;
  std::vector<s32> numbers;
  std::vector<Leaf> leaves;
  std::vector<std::vector<u8>> blobs;
  std::array<f64, 2> pair{};
  std::vector<bool> bits;
  std::tuple<u64, s8> tail;
  template <class Archive>
  void serialize(Archive& ar, u32 version) {
    ar(id, flag, numbers, leaves);
    if (version >= 2) ar(blobs, pair, bits, tail);
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // Small limits so that the limit paths are reached too.
  const LoadLimits limits{1000, 1000};
  Root root;
  Versioned versioned(root, Root::kMagic, 2);
  BufferLoader loader(std::span<const u8>(data, size), limits);
  loader.io(versioned);
  if (loader.finish()) {
    // Saved at the version it was loaded from (saving normally writes the current one).
    auto bytes = save_to_bytes(Versioned(root, Root::kMagic, versioned.version()));
    if (!bytes || bytes->size() != size || (size != 0 && std::memcmp(bytes->data(), data, size))) {
      std::abort();  // a clean load must save back to the same bytes
    }
  }
  // The plain (unversioned) entry point, no limits beyond the data itself.
  Root plain;
  BufferLoader raw(std::span<const u8>(data, size));
  plain.serialize(raw, 2);
  (void)raw.finish();
  return 0;
}
