// DNA hashes (Golden Rules ch. 3): a 32-bit code made of small bit fields ("genes") that both
// describes a procedural resource completely and serves as its hash.
//
//   auto layout = DnaLayout::make("material", {{"type", 0, 8, 256}, {"fog", 8, 1, 2}});
//   Result<u32> dna = layout->encode({{17, 1}});          // 0x111
//   Result<std::vector<u32>> genes = layout->decode(*dna); // {17, 1}
//
// A field has a first bit, a width and a count of legal values 0..values-1 (a 3-bit field may
// allow only 5 values). encode/decode/validate reject values outside the legal range and set
// bits outside every field, so every accepted code maps to exactly one description.
#pragma once

#include "keel/core/error.h"
#include "keel/core/types.h"

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace keel::hashing {

struct DnaField {
  std::string name;
  u8 first_bit = 0;
  u8 bits = 1;
  u32 values = 2;  // legal values are 0 .. values-1; at most 2^bits
};

class DnaLayout {
 public:
  // Checks the description: 1..32 bits per field, fields inside bit 0..31 and not overlapping,
  // 1 <= values <= 2^bits, unique non-empty names.
  static Result<DnaLayout> make(std::string name, std::vector<DnaField> fields);

  const std::string& name() const { return name_; }
  usize field_count() const { return fields_.size(); }
  // An index past the fields is a programmer error (asserted; release builds: an empty field).
  const DnaField& field(usize index) const;
  std::optional<usize> find_field(std::string_view name) const;
  u32 used_bits() const { return used_bits_; }

  // Number of legal codes: the product of the fields' value counts (of all fields, or of
  // `count` fields from `first`).
  u64 legal_count() const { return legal_count(0, fields_.size()); }
  u64 legal_count(usize first, usize count) const;

  // One value per field, in field order.
  Result<u32> encode(std::span<const u32> values) const;
  Result<std::vector<u32>> decode(u32 dna) const;
  Status validate(u32 dna) const;

  // A single gene: the raw field value (no validation; 0 for a field index past the fields, which
  // is asserted), and a copy of `dna` with one gene changed (validated; kOutOfRange for a field
  // index past the fields).
  u32 get(u32 dna, usize field) const;
  Result<u32> set(u32 dna, usize field, u32 value) const;

 private:
  DnaLayout() = default;
  static u32 mask(const DnaField& f) {
    return f.bits >= 32 ? 0xFFFFFFFFu : ((1u << f.bits) - 1u) << f.first_bit;
  }

  std::string name_;
  std::vector<DnaField> fields_;
  u32 used_bits_ = 0;
};

}  // namespace keel::hashing
