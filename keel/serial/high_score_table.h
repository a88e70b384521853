// The high-score table of the Enginuity seed, on keel::serial.
//
// Ten entries {name, score}, best first; the defaults are "Nobody" with 100, 90, ... 10. The
// file is the seed's layout, big-endian: for each entry a u32 name length, the name bytes and a
// u32 score — 140 bytes with the defaults. It is written atomically (temporary file + rename),
// so a crash while saving keeps the previous table; deleting the file resets the table.
//
// Header-only, in keel/serial so that its tests check it (acceptance check 21) and both the
// keel-highscore example and the Voidfarer game use the one table.
#pragma once

#include "keel/serial/serial.h"

#include <array>
#include <filesystem>
#include <optional>
#include <string>

namespace keel::serial {

class HighScoreTable {
 public:
  static constexpr usize kEntries = 10;
  static constexpr usize kMaxNameLength = 64;  // a longer name in the file is rejected as corrupt

  struct Entry {
    std::string name;
    u32 score = 0;

    template <class Archive>
    void serialize(Archive& ar) {
      ar(name, score);
      if constexpr (Archive::kLoading) {
        if (name.size() > kMaxNameLength) ar.fail(ErrorCode::kCorrupt, "name too long");
      }
    }
    friend bool operator==(const Entry&, const Entry&) = default;
  };

  HighScoreTable() { reset(); }

  // The defaults: "Nobody", 100 down to 10.
  void reset() {
    for (usize i = 0; i < kEntries; ++i) {
      entries_[i] = Entry{"Nobody", static_cast<u32>(100 - 10 * i)};
    }
  }

  // One definition of the layout, for the sizer, the savers and the loaders. A std::array is
  // written without a count: exactly ten entries, as in the seed. Loading also checks the order.
  template <class Archive>
  void serialize(Archive& ar) {
    ar(entries_);
    if constexpr (Archive::kLoading) {
      for (usize i = 1; i < kEntries && ar.ok(); ++i) {
        if (entries_[i].score > entries_[i - 1].score) {
          ar.fail(ErrorCode::kCorrupt, "scores are not in descending order");
        }
      }
    }
  }

  // Inserts a score if it makes the table (strictly better than an entry; ties keep the older
  // entry first). Returns its rank (0 = best) or nullopt.
  std::optional<usize> add(std::string name, u32 score) {
    for (usize i = 0; i < kEntries; ++i) {
      if (score > entries_[i].score) {
        for (usize j = kEntries - 1; j > i; --j) entries_[j] = std::move(entries_[j - 1]);
        if (name.size() > kMaxNameLength) name.resize(kMaxNameLength);
        entries_[i] = Entry{std::move(name), score};
        return i;
      }
    }
    return std::nullopt;
  }

  // Loads the table; on any error (kNotFound when the file does not exist) the table is
  // unchanged.
  Status load(const std::filesystem::path& path) { return load_file(path, *this); }
  Status save(const std::filesystem::path& path) const { return save_file(path, *this); }

  const std::array<Entry, kEntries>& entries() const { return entries_; }
  friend bool operator==(const HighScoreTable&, const HighScoreTable&) = default;

 private:
  std::array<Entry, kEntries> entries_;
};

}  // namespace keel::serial
