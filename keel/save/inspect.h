// Reading a save without the game's classes (for keel-save and tests): the schema every save
// carries (each class's stream records), so every object and pointer can be shown.
#pragma once

#include "keel/core/bytes.h"
#include "keel/core/error.h"
#include "keel/save/format.h"

#include <string>
#include <vector>

namespace keel::save {

enum class FieldKind : u8 { kPassive = 1, kPointer = 2, kObject = 3, kGone = 4 };

struct FieldSchema {
  FieldKind kind = FieldKind::kPassive;
  u32 length = 0;
  std::string name;
};

struct TypeSchema {
  u32 save_id = 0;
  std::string name;
  u32 size = 0;
  std::vector<FieldSchema> fields;
};

struct FieldValue {
  const FieldSchema* field = nullptr;
  ByteBuffer bytes;  // kPassive / kGone
  u32 index = 0;     // kPointer: block (0 = null); kObject: object (0 = null)
  u32 offset = 0;    // kPointer
};

struct ObjectView {
  u32 save_id = 0;
  const TypeSchema* type = nullptr;
  std::vector<FieldValue> fields;
  u64 custom_bytes = 0;  // written by the object's save() after its template
};

struct SetView {
  u32 block_hash = 0;
  std::vector<ObjectView> objects;
};

struct Inspection {
  FileHeader header;
  u64 file_size = 0;
  std::vector<TypeSchema> types;
  std::vector<SetView> sets;
  u64 client_data_bytes = 0;  // put() outside object sets
  const TypeSchema* find(u32 save_id) const;
};

// Verifies and decodes the whole file. Every damage is an error (kCorrupt) with its place.
Result<Inspection> inspect(ByteSpan file, const LoadLimits& limits = {});

// Text for `keel-save info` (header, counts by type) and `keel-save dump` (every object).
std::string format_info(const Inspection& inspection);
std::string format_dump(const Inspection& inspection);

}  // namespace keel::save
