// Fuzz target for the loaders: arbitrary bytes into a structure using every kind of value.
// Must never crash, leak or allocate beyond what the input can hold; whatever loads cleanly
// (finish() succeeds) must save back to exactly the input bytes, since the format is canonical;
// and FileLoader, streaming the same bytes through a tiny buffer, must agree with BufferLoader
// (same result, or the same error code at the same offset).
#include "keel/serial/serial.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
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

ByteBuffer saved(Root& root) {
  auto bytes = save_to_bytes(Versioned(root, Root::kMagic, 2));
  return bytes ? *bytes : ByteBuffer{};
}

// The same input through FileLoader with a 64-byte staging buffer.
void check_file_loader(const uint8_t* data, size_t size, const LoadLimits& limits,
                       const Status& expected, Root& expected_root) {
  static const std::filesystem::path path =
      std::filesystem::temp_directory_path() / ("keel_serial_fuzz." + std::to_string(::getpid()));
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) return;
  const bool written = std::fwrite(data, 1, size, f) == size;
  std::fclose(f);
  if (!written) return;
  Root root;
  Versioned versioned(root, Root::kMagic, 2);
  FileLoader loader(path, limits, 64);
  loader.io(versioned);
  const Status status = loader.finish();
  if (status.has_value() != expected.has_value()) std::abort();
  if (!status) {
    if (status.error().code() != expected.error().code()) std::abort();
    if (status.error().where().offset != expected.error().where().offset) std::abort();
  } else if (saved(root) != saved(expected_root)) {
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // Small limits so that the limit paths are reached too.
  const LoadLimits limits{1000, 1000};
  Root root;
  Versioned versioned(root, Root::kMagic, 2);
  BufferLoader loader(as_bytes(std::span<const u8>(data, size)), limits);
  loader.io(versioned);
  const Status status = loader.finish();
  check_file_loader(data, size, limits, status, root);
  if (status) {
    // Saved at the version it was loaded from (saving normally writes the current one).
    auto bytes = save_to_bytes(Versioned(root, Root::kMagic, versioned.version()));
    if (!bytes || bytes->size() != size || (size != 0 && std::memcmp(bytes->data(), data, size))) {
      std::abort();  // a clean load must save back to the same bytes
    }
  }
  // The plain (unversioned) entry point, no limits beyond the data itself.
  Root plain;
  BufferLoader raw(as_bytes(std::span<const u8>(data, size)));
  plain.serialize(raw, 2);
  (void)raw.finish();
  return 0;
}
