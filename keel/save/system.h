// The save system (Golden Rules ch. 8.7, 8.10): the list of every savable class and struct,
// checked once when the system is built, and the save-format version derived from it.
//
//   keel::save::SaveSystem system({keel::save::type<ExObj1>(), keel::save::type<ExObj2>(),
//                                  keel::save::structure<Vec>()});
//   for (auto& p : system.problems()) ...   // "Missing 4 bytes in class ExObj1 after matrix"
//
// The book's null-terminated templateList is the constructor's list. Types must be default
// constructible: one instance of each is made here to measure member offsets.
#pragma once

#include "keel/core/types.h"
#include "keel/save/detail/compiled.h"
#include "keel/save/save_object.h"

#include <functional>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <typeinfo>
#include <vector>

namespace keel::save {

// One measured instance of a registered type, handed to the system while it is being built.
struct Instance {
  const void* address = nullptr;  // the complete object
  const SaveObject* object = nullptr;
};
using InstanceFn = void (*)(void* context, const Instance& instance);

struct TypeInfo {
  const Record* save_template = nullptr;
  u32 save_id = 0;  // 0: a plain struct (KEEL_SAVESTRUCT / KEEL_SAVEBASE only)
  u32 size = 0;
  u32 align = 0;
  std::unique_ptr<SaveObject> (*create)() = nullptr;   // savable objects: the factory
  void (*with_instance)(InstanceFn, void*) = nullptr;  // makes one instance for measuring
  // Savable objects: T, and the SaveObject hooks T keeps (detail::kKeeps*; they apply to the
  // factory's objects only when those are exactly a T).
  const std::type_info* type = nullptr;
  u8 default_hooks = 0;
  // Savable objects: T's compiled writer (detail/compiled.h), or null where type<T>() could not
  // see T's template and every template it applies as constants (the plan is interpreted). It
  // writes what `written_from` says: used only while `save_template` is still that template (a
  // migration's TypeInfo takes type<T>() and swaps in an older template).
  detail::FusedWrite write = nullptr;
  const Record* written_from = nullptr;
};

namespace detail {
template <class T>
std::unique_ptr<SaveObject> create_default() {
  return std::make_unique<T>();
}

// Which of SaveObject's hooks T leaves alone: `&T::save` names SaveObject's member unless T or a
// base between declares its own (an inaccessible override counts as an override). Objects of
// exactly T whose hooks are the defaults are processed without the virtual calls.
enum : u8 { kKeepsPreSave = 1, kKeepsSave = 2, kKeepsPreLoad = 4, kKeepsLoad = 8 };
using HookFn = Status (SaveObject::*)(SaveFile&);
template <class T>
constexpr u8 default_hooks() {
  u8 keeps = 0;
  if constexpr (requires { &T::pre_save; }) {
    if (std::is_same_v<decltype(&T::pre_save), HookFn>) keeps |= kKeepsPreSave;
  }
  if constexpr (requires { &T::save; }) {
    if (std::is_same_v<decltype(&T::save), HookFn>) keeps |= kKeepsSave;
  }
  if constexpr (requires { &T::pre_load; }) {
    if (std::is_same_v<decltype(&T::pre_load), HookFn>) keeps |= kKeepsPreLoad;
  }
  if constexpr (requires { &T::load; }) {
    if (std::is_same_v<decltype(&T::load), HookFn>) keeps |= kKeepsLoad;
  }
  return keeps;
}

template <class T>
void with_struct(InstanceFn fn, void* context) {
  T value{};
  fn(context, Instance{&value, nullptr});
}
}  // namespace detail

// A savable class (derived from SaveObject, with KEEL_SAVABLE). `create` replaces the default
// factory (`std::make_unique<T>()`), e.g. for objects needing constructor arguments.
template <class T>
TypeInfo type(std::unique_ptr<SaveObject> (*create)() = &detail::create_default<T>) {
  static_assert(std::is_base_of_v<SaveObject, T>, "type<T>: T must derive from SaveObject");
  return TypeInfo{T::keel_save_template,
                  T::kSaveId,
                  sizeof(T),
                  alignof(T),
                  create,
                  nullptr,
                  &typeid(T),
                  detail::default_hooks<T>(),
                  detail::compiled_writer<T>(),
                  T::keel_save_template};
}

// A plain struct or base class with a template, checked for holes like a class.
template <class T>
TypeInfo structure() {
  return TypeInfo{T::keel_save_template,   0,       sizeof(T), alignof(T), nullptr,
                  &detail::with_struct<T>, nullptr, 0};
}

struct SystemOptions {
  bool check_templates = true;  // run the hole detector (off for a migration's old templates)
  bool log_problems = true;     // also write each problem to the default logger (warn)
  // Write hook-less objects of a class with a compiled writer (TypeInfo::write) through it
  // instead of interpreting the plan. Same bytes; off only to compare the two.
  bool compiled_writers = true;
};

class SaveSystem {
 public:
  explicit SaveSystem(std::vector<TypeInfo> types, SystemOptions options = {});
  ~SaveSystem();
  SaveSystem(SaveSystem&&) noexcept;
  SaveSystem& operator=(SaveSystem&&) noexcept;

  // Hash of every registered type's save id, name and stream records (type, length, name, in
  // template order). A template change changes it, and saves of another version are refused.
  u64 version() const;
  // Template problems found when the system was built: holes, missing SAVEDEF, duplicate ids.
  const std::vector<std::string>& problems() const;
  // How many templates the hole detector examined (once each, at construction).
  u32 templates_checked() const;
  usize type_count() const;
  // How many registered classes save through a compiled writer (SystemOptions::compiled_writers;
  // a class has one when type<T>() is called where T's template and every template it applies
  // (bases, structs) are defined, in that translation unit, before the call).
  usize compiled_type_count() const;

  // Migration hook: saves made with `previous` (this game's templates of an older version; use
  // KEEL_SAVEGONE for members that no longer exist) still load, into this version's objects,
  // and `upgrade` then runs on the loaded objects. `previous` must outlive this system.
  using Upgrade = std::function<Status(std::span<SaveObject* const>)>;
  void add_migration(const SaveSystem& previous, Upgrade upgrade = {});

  struct Impl;
  const Impl& impl() const { return *impl_; }

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace keel::save
