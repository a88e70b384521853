// Format versions: a header of a format tag (magic) and a version number in front of an object,
// so a file format can evolve.
//
//   struct Options {
//     static constexpr u32 kMagic = fourcc("OPTS"), kVersion = 2;
//     u32 volume = 80;
//     bool subtitles = false;  // new in version 2
//     template <class Archive>
//     void serialize(Archive& ar, u32 version) {
//       ar(volume);
//       if (version >= 2) ar(subtitles);
//     }
//   };
//   Options options;
//   FileSaver saver(path);
//   Versioned(options, Options::kMagic, Options::kVersion).serialize(saver);   // or io_versioned
//
// Saving writes the tag and the current version. Loading checks the tag (kCorrupt if it is not
// there), refuses a version newer than this build knows (kUnsupported) or 0 (kCorrupt), and hands
// older versions to the object's serialize(ar, version) so it can read the old layout. A type
// with only serialize(ar) (no version parameter) is read the same way for every version.
#pragma once

#include "keel/serial/archive.h"

#include <fmt/format.h>

#include <type_traits>

namespace keel::serial {

// A four-character format tag, e.g. fourcc("KHSC"): its bytes read as text in a hex dump.
constexpr u32 fourcc(const char (&tag)[5]) {
  return (static_cast<u32>(static_cast<u8>(tag[0])) << 24) |
         (static_cast<u32>(static_cast<u8>(tag[1])) << 16) |
         (static_cast<u32>(static_cast<u8>(tag[2])) << 8) |
         static_cast<u32>(static_cast<u8>(tag[3]));
}

// "'KHSC'" for a printable tag, else "0x4b485343".
std::string describe_tag(u32 tag);

namespace detail {
template <class T, class Ar>
concept HasMemberVersionedSerialize = requires(Ar& ar, T& value, u32 version) {
  value.serialize(ar, version);
};
template <class T, class Ar>
concept HasFreeVersionedSerialize = requires(Ar& ar, T& value, u32 version) {
  serialize(ar, value, version);
};
template <class Ar, class T>
void call_free_versioned_serialize(Ar& ar, T& value, u32 version) {
  serialize(ar, value, version);
}
}  // namespace detail

// Reads or writes the header and then `value`. Returns the version of the data: the loaded one,
// or `current_version` when saving or sizing (0 if loading failed before the body).
template <class Archive, class T>
u32 io_versioned(Archive& ar, T& value, u32 magic, u32 current_version) {
  using Value = std::remove_const_t<T>;
  KEEL_ASSERT(current_version != 0, "format versions start at 1");
  if constexpr (std::is_const_v<T>) {
    static_assert(!Archive::kLoading, "a loader cannot load into a const value");
    return io_versioned(ar, const_cast<Value&>(value), magic, current_version);
  } else {
    const u64 start = ar.offset();
    u32 tag = magic;
    u32 version = current_version;
    ar(tag, version);
    if constexpr (Archive::kLoading) {
      if (!ar.ok()) return 0;
      if (tag != magic) {
        ar.fail_at(start, ErrorCode::kCorrupt,
                   fmt::format("format tag {} where {} was expected", describe_tag(tag),
                               describe_tag(magic)));
        return 0;
      }
      if (version == 0 || version > current_version) {
        ar.fail_at(start + 4, version == 0 ? ErrorCode::kCorrupt : ErrorCode::kUnsupported,
                   fmt::format("{} format version {} (this build reads versions 1 to {})",
                               describe_tag(magic), version, current_version));
        return 0;
      }
    }
    if constexpr (detail::HasMemberVersionedSerialize<Value, Archive>) {
      value.serialize(ar, version);
    } else if constexpr (detail::HasFreeVersionedSerialize<Value, Archive>) {
      detail::call_free_versioned_serialize(ar, value, version);
    } else {
      ar.io(value);
    }
    return version;
  }
}

// An object wrapped with its header, usable wherever an object is: ar.io(versioned),
// save_file(path, versioned), ...
template <class T>
class Versioned {
 public:
  Versioned(T& value, u32 magic, u32 current_version)
      : value_(&value), magic_(magic), current_(current_version) {}

  template <class Archive>
  void serialize(Archive& ar) {
    version_ = io_versioned(ar, *value_, magic_, current_);
  }
  // The version of the data last loaded (or written); 0 before any, or after a failed load.
  u32 version() const { return version_; }

 private:
  T* value_;
  u32 magic_;
  u32 current_;
  mutable u32 version_ = 0;  // savers see the wrapper through a const reference
};

}  // namespace keel::serial
