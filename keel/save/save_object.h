// Savable objects (Golden Rules ch. 8.5): every object the save system creates and restores
// derives from SaveObject and names its template and save id with KEEL_SAVABLE.
#pragma once

#include "keel/core/error.h"
#include "keel/core/types.h"
#include "keel/save/record.h"

namespace keel::save {

class SaveFile;
namespace detail {
struct MarkAccess;
}

class SaveObject {
 public:
  virtual ~SaveObject() = default;

  // The most-derived class's template and save id (KEEL_SAVABLE defines both).
  virtual const Record* save_template() const = 0;
  virtual u32 save_id() const = 0;

  // Hooks. The defaults process the template; an override calls its parent's version first and
  // may then declare owned memory blocks (pre_save/pre_load, independent of the object's state)
  // or write/read custom data (save/load, through SaveFile::put/get, read back in the same order).
  virtual Status pre_save(SaveFile& file);
  virtual Status save(SaveFile& file);
  virtual Status pre_load(SaveFile& file);
  virtual Status load(SaveFile& file);

 protected:
  SaveObject() = default;
  // A copy is another object: no save has found it yet (the mark is not copied).
  SaveObject(const SaveObject&) noexcept {}
  SaveObject& operator=(const SaveObject&) noexcept { return *this; }

 private:
  friend struct detail::MarkAccess;
  // The save's mark: this object's 1-based index in the set being saved, written by the one
  // session in the process that marks objects (see SaveFile). It counts only if that set's
  // object list holds this object at that index, so old marks need no clearing. One u32: in a
  // class whose first member is 4-byte aligned it sits in the base's tail padding, and the class
  // is no larger than without it.
  u32 save_index_ = 0;
};

namespace detail {

// The save's mark of an object (the save sessions' and the compiled writers' access).
struct MarkAccess {
  static u32 index(const SaveObject& o) { return o.save_index_; }
  // Where SaveObject's own data ends (a derived class's members may start there, in its tail
  // padding), from the start of the SaveObject.
  static u32 end_of_base(const SaveObject& o) {
    return static_cast<u32>(reinterpret_cast<const std::byte*>(&o.save_index_ + 1) -
                            reinterpret_cast<const std::byte*>(&o));
  }
  static void set(SaveObject& o, u32 index) { o.save_index_ = index; }
};

}  // namespace detail

}  // namespace keel::save

// Inside a class derived from SaveObject: declares its template and save id (leaves `public:`).
#define KEEL_SAVABLE(Class, id)                                                             \
 public:                                                                                    \
  static const ::keel::save::Record keel_save_template[];                                   \
  static constexpr ::keel::u32 kSaveId = (id);                                              \
  const ::keel::save::Record* save_template() const override { return keel_save_template; } \
  ::keel::u32 save_id() const override { return kSaveId; }
