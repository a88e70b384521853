// Save templates (Golden Rules ch. 8.3-8.10): one record per member of a savable class, declared
// once next to the class with the KEEL_SAVE* macros.
//
// The book's records hold offsetof() values, which are only conditionally supported for classes
// with virtual functions and whose u32 cast does not compile on 64-bit. Here each record holds a
// small function generated from a pointer to member (`&Class::member`): it finds the member in a
// live object, so everything is standard C++, private members may be named from the class's own
// template, and a member removed from the class but still named in its template is a compile
// error. Offsets are measured once per class when the SaveSystem is built.
#pragma once

#include "keel/core/types.h"

#include <memory>
#include <type_traits>
#include <typeinfo>

namespace keel::save {

class SaveObject;

enum class RecordType : u8 {
  kEndOfTemplate,  // KEEL_SAVEEND
  kPassive,        // KEEL_SAVEDATA: bytes restored as they were
  kPointer,        // KEEL_SAVEPTR: pointer into a declared memory block
  kClass,          // KEEL_SAVEBASE / KEEL_SAVESTRUCT: another template, applied in place
  kSaveObject,     // KEEL_SAVEPOBJ: pointer to another savable object (found automatically)
  kSkip,           // KEEL_DONTSAVE: deliberately not saved
  kClassName,      // KEEL_SAVEDEF: first record, names the class and gives its size
  kGone,           // KEEL_SAVEGONE: a member an older version saved; its bytes are dropped on load
};

namespace detail {
struct FusedWriter;
// Where a compiled writer writes and how many objects the set has: passed and returned in
// registers (see FusedWriter).
struct FusedCursor {
  std::byte* out;
  usize count;
};
// Where a member's polymorphic declaring class has its vptr, in an object (Record::vptr).
using VptrFn = const void* (*)(const void* object);
// A class's compiled writer (keel/save/detail/compiled.h).
using FusedWrite = FusedCursor (*)(FusedWriter& w, std::byte* object, FusedCursor at);
}  // namespace detail

struct Record {
  RecordType type = RecordType::kEndOfTemplate;
  u32 length = 0;        // sizeof(member); kClassName: sizeof(class); kGone: bytes in old saves
  u32 align = 0;         // alignof(member); kClassName: alignof(class)
  u32 target_align = 1;  // kPointer: alignof(pointee), checked when a pointer is restored
  void* (*locate)(void* object) = nullptr;  // address of the member in `object`
  const Record* sub = nullptr;              // kClass: the template applied to the member/base
  const char* name = nullptr;               // member (or class) name, for messages and dumps
  // kSaveObject: read/write the slot as a SaveObject (set fails on a target of the wrong type).
  SaveObject* (*get_object)(const void* slot) = nullptr;
  bool (*set_object)(void* slot, SaveObject* target) = nullptr;
  // kPointer: read/write the slot as an untyped address.
  const void* (*get_pointer)(const void* slot) = nullptr;
  void (*set_pointer)(void* slot, void* target) = nullptr;
  // Members of a polymorphic class other than SaveObject: where that class's vptr lies in the
  // object (the hole detector counts it as covered).
  detail::VptrFn vptr = nullptr;

  // offsetof(Class, member) measured in a live object of the class.
  u32 offset_in(const void* object) const {
    if (locate == nullptr) return 0;
    auto* base = static_cast<const std::byte*>(object);
    return static_cast<u32>(static_cast<const std::byte*>(locate(const_cast<void*>(object))) -
                            base);
  }
};

namespace detail {

template <class>
struct MemberOf;
template <class C, class T>
struct MemberOf<T C::*> {
  using Class = C;
  using Type = T;
};
template <auto M>
using MemberClass = typename MemberOf<decltype(M)>::Class;
template <auto M>
using MemberType = typename MemberOf<decltype(M)>::Type;

// `object` is a C (the template's class): a member C inherited from a base that is not its first
// is reached through C, not by taking `object` as that base (`&C::member` is a pointer to a
// member of the base that declares it).
template <class C, auto M>
void* locate_member(void* object) {
  return std::addressof(static_cast<C*>(object)->*M);
}

// Where the vptr of the class declaring member M lies in a C, if that class is polymorphic
// (and not SaveObject, whose vptr the hole detector covers already); else null.
template <class C, auto M>
const void* declaring_vptr(const void* object) {
  return static_cast<const MemberClass<M>*>(static_cast<const C*>(object));
}
template <class C, auto M>
constexpr VptrFn vptr_of() {
  if constexpr (std::is_polymorphic_v<MemberClass<M>> &&
                !std::is_same_v<MemberClass<M>, SaveObject>) {
    return &declaring_vptr<C, M>;
  } else {
    return nullptr;
  }
}

template <class C, class B>
void* locate_base(void* object) {
  return static_cast<B*>(static_cast<C*>(object));
}

template <class T>
SaveObject* get_object(const void* slot) {
  return *static_cast<T* const*>(slot);
}

// Base is SaveObject; a parameter so that typeid(*target) waits for the complete class.
template <class T, class Base = SaveObject>
bool set_object(void* slot, Base* target) {
  T* typed = nullptr;
  if (target != nullptr) {
    // Most targets are exactly a T: a type_info compare instead of a dynamic_cast walk (the
    // static_cast is only well-formed when SaveObject is a non-virtual base of T).
    if constexpr (requires(Base * o) { static_cast<T*>(o); }) {
      if (typeid(*target) == typeid(T)) {
        *static_cast<T**>(slot) = static_cast<T*>(target);
        return true;
      }
    }
    typed = dynamic_cast<T*>(target);
    if (typed == nullptr) return false;
  }
  *static_cast<T**>(slot) = typed;
  return true;
}

template <class T>
const void* get_pointer(const void* slot) {
  return *static_cast<T* const*>(slot);
}

template <class T>
void set_pointer(void* slot, void* target) {
  *static_cast<T**>(slot) = static_cast<T*>(target);
}

template <class T>
constexpr u32 pointee_align() {
  if constexpr (std::is_void_v<std::remove_cv_t<T>>) {
    return 1;
  } else {
    return alignof(T);
  }
}

}  // namespace detail

template <class C>
constexpr Record class_record(const char* name) {
  return Record{
      .type = RecordType::kClassName, .length = sizeof(C), .align = alignof(C), .name = name};
}

template <class C, auto M>
constexpr Record passive_record(const char* name) {
  using T = detail::MemberType<M>;
  static_assert(std::is_trivially_copyable_v<T>,
                "KEEL_SAVEDATA: the member is not passive (not trivially copyable); give it a "
                "template and use KEEL_SAVESTRUCT, or save it in a save()/load() override");
  static_assert(!std::is_pointer_v<std::remove_all_extents_t<T>>,
                "KEEL_SAVEDATA: pointers are not passive; use KEEL_SAVEPTR or KEEL_SAVEPOBJ");
  return Record{.type = RecordType::kPassive,
                .length = sizeof(T),
                .align = alignof(T),
                .locate = &detail::locate_member<C, M>,
                .name = name,
                .vptr = detail::vptr_of<C, M>()};
}

template <class C, auto M>
constexpr Record pointer_record(const char* name) {
  using T = detail::MemberType<M>;
  static_assert(std::is_pointer_v<T> && !std::is_function_v<std::remove_pointer_t<T>>,
                "KEEL_SAVEPTR: the member is not an object pointer");
  using P = std::remove_pointer_t<T>;
  return Record{.type = RecordType::kPointer,
                .length = sizeof(T),
                .align = alignof(T),
                .target_align = detail::pointee_align<P>(),
                .locate = &detail::locate_member<C, M>,
                .name = name,
                .get_pointer = &detail::get_pointer<P>,
                .set_pointer = &detail::set_pointer<P>,
                .vptr = detail::vptr_of<C, M>()};
}

template <class C, auto M>
constexpr Record object_record(const char* name) {
  using T = detail::MemberType<M>;
  static_assert(std::is_pointer_v<T>, "KEEL_SAVEPOBJ: the member is not a pointer");
  using P = std::remove_cv_t<std::remove_pointer_t<T>>;
  static_assert(std::is_base_of_v<SaveObject, P>,
                "KEEL_SAVEPOBJ: the member does not point to a SaveObject; use KEEL_SAVEPTR");
  static_assert(!std::is_const_v<std::remove_pointer_t<T>>,
                "KEEL_SAVEPOBJ: pointers to const savable objects are not supported");
  return Record{.type = RecordType::kSaveObject,
                .length = sizeof(T),
                .align = alignof(T),
                .locate = &detail::locate_member<C, M>,
                .name = name,
                .get_object = &detail::get_object<P>,
                .set_object = &detail::set_object<P>,
                .vptr = detail::vptr_of<C, M>()};
}

template <class C, auto M>
constexpr Record skip_record(const char* name) {
  using T = detail::MemberType<M>;
  return Record{.type = RecordType::kSkip,
                .length = sizeof(T),
                .align = alignof(T),
                .locate = &detail::locate_member<C, M>,
                .name = name,
                .vptr = detail::vptr_of<C, M>()};
}

template <class C, auto M>
constexpr Record struct_record(const char* name) {
  using T = detail::MemberType<M>;
  static_assert(!std::is_array_v<T>, "KEEL_SAVESTRUCT: arrays of structs are not supported");
  return Record{.type = RecordType::kClass,
                .length = sizeof(T),
                .align = alignof(T),
                .locate = &detail::locate_member<C, M>,
                .sub = T::keel_save_template,
                .name = name,
                .vptr = detail::vptr_of<C, M>()};
}

template <class C, class B>
constexpr Record base_record(const char* name) {
  static_assert(std::is_base_of_v<B, C>, "KEEL_SAVEBASE: not a base class");
  return Record{.type = RecordType::kClass,
                .length = sizeof(B),
                .align = alignof(B),
                .locate = &detail::locate_base<C, B>,
                .sub = B::keel_save_template,
                .name = name};
}

constexpr Record gone_record(const char* name, u32 bytes) {
  return Record{.type = RecordType::kGone, .length = bytes, .align = 1, .name = name};
}

}  // namespace keel::save

// The book's macros. Use them inside the template's definition (KEEL_SAVE_TEMPLATE), which is a
// static member of the class and may therefore name private members.
#define KEEL_SAVEDEF(Class) ::keel::save::class_record<Class>(#Class)
#define KEEL_SAVEDATA(Class, member) ::keel::save::passive_record<Class, &Class::member>(#member)
#define KEEL_SAVEPTR(Class, member) ::keel::save::pointer_record<Class, &Class::member>(#member)
#define KEEL_SAVEPOBJ(Class, member) ::keel::save::object_record<Class, &Class::member>(#member)
#define KEEL_DONTSAVE(Class, member) ::keel::save::skip_record<Class, &Class::member>(#member)
#define KEEL_SAVESTRUCT(Class, member) ::keel::save::struct_record<Class, &Class::member>(#member)
#define KEEL_SAVEBASE(Class, Base) ::keel::save::base_record<Class, Base>(#Base)
#define KEEL_SAVEGONE(name, bytes) ::keel::save::gone_record(name, bytes)
#define KEEL_SAVEEND() \
  ::keel::save::Record {}

// Declares the template of a plain struct used through KEEL_SAVESTRUCT (or a base class).
#define KEEL_SAVE_STRUCT() \
 public:                   \
  static const ::keel::save::Record keel_save_template[]

// Defines a class's template: `KEEL_SAVE_TEMPLATE(ExObj1) = { KEEL_SAVEDEF(ExObj1), ... };`
// `constexpr`: a constant, from which type<Class>() generates the class's writer (see
// detail/compiled.h) where the template, and every template it applies, is defined before it.
#define KEEL_SAVE_TEMPLATE(Class) constexpr ::keel::save::Record Class::keel_save_template[]
