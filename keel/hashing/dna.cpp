#include "keel/hashing/dna.h"

#include "keel/core/assert.h"

#include <algorithm>

namespace keel::hashing {

Result<DnaLayout> DnaLayout::make(std::string name, std::vector<DnaField> fields) {
  DnaLayout layout;
  for (usize i = 0; i < fields.size(); ++i) {
    const DnaField& f = fields[i];
    if (f.name.empty())
      return fail(ErrorCode::kInvalidArgument, "{}: field {} has no name", name, i);
    if (f.bits == 0 || f.bits > 32 || f.first_bit + f.bits > 32) {
      return fail(ErrorCode::kOutOfRange, "{}: field '{}' (bits {}+{}) does not fit 32 bits", name,
                  f.name, f.first_bit, f.bits);
    }
    const u64 capacity = u64{1} << f.bits;
    if (f.values == 0 || f.values > capacity) {
      return fail(ErrorCode::kOutOfRange, "{}: field '{}' has {} values for {} bits", name, f.name,
                  f.values, f.bits);
    }
    const u32 m = mask(f);
    if ((layout.used_bits_ & m) != 0) {
      return fail(ErrorCode::kInvalidArgument, "{}: field '{}' overlaps another field", name,
                  f.name);
    }
    for (usize j = 0; j < i; ++j) {
      if (fields[j].name == f.name) {
        return fail(ErrorCode::kAlreadyExists, "{}: two fields named '{}'", name, f.name);
      }
    }
    layout.used_bits_ |= m;
  }
  layout.name_ = std::move(name);
  layout.fields_ = std::move(fields);
  return layout;
}

std::optional<usize> DnaLayout::find_field(std::string_view name) const {
  for (usize i = 0; i < fields_.size(); ++i) {
    if (fields_[i].name == name) return i;
  }
  return std::nullopt;
}

u64 DnaLayout::legal_count(usize first, usize count) const {
  KEEL_ASSERT(first <= fields_.size() && count <= fields_.size() - first, "field range {}+{} of {}",
              first, count, fields_.size());
  if (first > fields_.size()) return 0;
  count = std::min(count, fields_.size() - first);  // release builds: the fields that exist
  u64 total = 1;
  for (usize i = first; i < first + count; ++i) total *= fields_[i].values;
  return total;
}

Result<u32> DnaLayout::encode(std::span<const u32> values) const {
  if (values.size() != fields_.size()) {
    return fail(ErrorCode::kInvalidArgument, "{}: {} values for {} fields", name_, values.size(),
                fields_.size());
  }
  u32 dna = 0;
  for (usize i = 0; i < fields_.size(); ++i) {
    const DnaField& f = fields_[i];
    if (values[i] >= f.values) {
      return fail(ErrorCode::kOutOfRange, "{}: {} = {} is illegal (0..{})", name_, f.name,
                  values[i], f.values - 1);
    }
    dna |= values[i] << f.first_bit;
  }
  return dna;
}

const DnaField& DnaLayout::field(usize index) const {
  static const DnaField kNone{};
  KEEL_ASSERT(index < fields_.size(), "{}: field {} of {}", name_, index, fields_.size());
  return index < fields_.size() ? fields_[index] : kNone;
}

u32 DnaLayout::get(u32 dna, usize field) const {
  KEEL_ASSERT(field < fields_.size(), "{}: field {} of {}", name_, field, fields_.size());
  if (field >= fields_.size()) return 0;
  const DnaField& f = fields_[field];
  return (dna & mask(f)) >> f.first_bit;
}

Status DnaLayout::validate(u32 dna) const {
  if ((dna & ~used_bits_) != 0) {
    return fail(ErrorCode::kCorrupt, "{}: 0x{:08X} sets bits outside every field (0x{:08X})", name_,
                dna, dna & ~used_bits_);
  }
  for (usize i = 0; i < fields_.size(); ++i) {
    const u32 v = get(dna, i);
    if (v >= fields_[i].values) {
      return fail(ErrorCode::kOutOfRange, "{}: 0x{:08X} has {} = {} (legal 0..{})", name_, dna,
                  fields_[i].name, v, fields_[i].values - 1);
    }
  }
  return ok();
}

Result<std::vector<u32>> DnaLayout::decode(u32 dna) const {
  if (Status s = validate(dna); !s) return Unexpected(s.error());
  std::vector<u32> values(fields_.size());
  for (usize i = 0; i < fields_.size(); ++i) values[i] = get(dna, i);
  return values;
}

Result<u32> DnaLayout::set(u32 dna, usize field, u32 value) const {
  if (field >= fields_.size()) {
    return fail(ErrorCode::kOutOfRange, "{}: no field {} (the layout has {})", name_, field,
                fields_.size());
  }
  const DnaField& f = fields_[field];
  if (value >= f.values) {
    return fail(ErrorCode::kOutOfRange, "{}: {} = {} is illegal (0..{})", name_, f.name, value,
                f.values - 1);
  }
  return (dna & ~mask(f)) | (value << f.first_bit);
}

}  // namespace keel::hashing
