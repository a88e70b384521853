// Reference-counted engine objects with deferred destruction, weak handles and a leak report.
//
//   ObjectRegistry registry;                      // owns every object it makes
//   Ref<Sprite> s = registry.make<Sprite>(args);  // count 1
//   WeakRef<Sprite> w = s;                        // does not keep it alive
//   s = nullptr;                                  // count 0: queued, still alive
//   registry.collect();                           // destroyed here (once per frame)
//   w.lock();                                     // empty Ref: never dangling
//
// Lifetime rules
// - An object derives from RefCounted and is created only by ObjectRegistry::make, which records
//   its (demangled) type name and size.
// - When the last strong handle goes, the object is queued, not destroyed; the next collect()
//   destroys it exactly once. An object can therefore drop the last reference to itself in the
//   middle of its own update and keep running until the update returns.
// - Once the count has reached zero the object is dead: weak handles no longer lock it and making
//   a new strong handle from its raw pointer is a programmer error (asserts, gives an empty Ref).
// - collect() repeats until the queue is empty, so a tree whose root is released is destroyed in
//   one collection even though each destructor releases the next level.
// - shutdown() (run by the destructor if not called) destroys everything queued and returns a
//   leak report of every object still referenced: type name, size and count, also logged on the
//   app channel at warn level. It does NOT destroy those objects: something still points at them,
//   and destroying them would leave those handles dangling. They are detached from the registry
//   instead: a strong handle that outlives the registry still sees its object alive and intact,
//   and when its last handle drops the object is destroyed at once, on that thread (there is no
//   frame left to defer to). Weak handles keep working the same way.
//
// Thread safety
// - The counts are atomic: Ref and WeakRef may be copied, dropped and locked on any thread (one
//   handle object is not itself safe to modify from two threads at once, like std::shared_ptr).
//   Copying a Ref is a single relaxed atomic increment.
// - The release queue is lock-free, so the last release may happen on any thread.
// - make() and memory_report() take the registry's mutex and may be called from any thread.
// - collect() destroys objects on the calling thread: call it from the owning thread (the kernel
//   does, once per frame). Destructors run there and may release or make other objects.
// - shutdown() and the registry's destructor require that no other thread uses the registry or
//   handles to its objects any more.
#pragma once

#include "keel/core/assert.h"
#include "keel/core/types.h"

#include <atomic>
#include <compare>
#include <cstddef>
#include <functional>
#include <mutex>
#include <string>
#include <type_traits>
#include <typeinfo>
#include <utility>
#include <vector>

namespace keel {

namespace log {
class Logger;
}

class ObjectRegistry;
class RefCounted;
template <typename T>
class Ref;
template <typename T>
class WeakRef;

// What the registry knows about a type: its demangled name and sizeof (the seeds' AUTO_SIZE).
struct ObjectType {
  std::string name;
  usize size = 0;
};

namespace detail {
std::string demangle(const char* mangled_name);

// Shared by the weak handles of one object; outlives the object while weak handles exist.
struct WeakControl {
  std::mutex mutex;
  RefCounted* object = nullptr;    // null once the object is destroyed (guarded by mutex)
  std::atomic<u32> weak_count{1};  // weak handles, plus one while the object exists
};
}  // namespace detail

// One ObjectType per type for the whole program.
template <typename T>
const ObjectType& object_type_of() {
  static const ObjectType type{detail::demangle(typeid(T).name()), sizeof(T)};
  return type;
}

// Protected virtual destructor on purpose: only the registry deletes objects (through this base).
class RefCounted {  // NOLINT(cppcoreguidelines-virtual-class-destructor)
 public:
  RefCounted(const RefCounted&) = delete;
  RefCounted& operator=(const RefCounted&) = delete;

  // Strong handles currently held (0 once dead). Racy by nature on other threads: for tests and
  // diagnostics.
  u32 ref_count() const { return strong_.load(std::memory_order_acquire); }
  // Null when the object was not made by a registry.
  const ObjectType* object_type() const { return type_; }

 protected:
  RefCounted() = default;
  // Only the registry destroys objects.
  virtual ~RefCounted();

 private:
  friend class ObjectRegistry;
  template <typename>
  friend class Ref;
  template <typename>
  friend class WeakRef;

  void add_ref() const { strong_.fetch_add(1, std::memory_order_relaxed); }
  void release_ref() const {
    if (strong_.fetch_sub(1, std::memory_order_acq_rel) == 1) on_last_release();
  }
  // Adds a reference unless the count is zero (dead); used by WeakRef::lock under its mutex.
  bool try_add_ref() const;
  void on_last_release() const;
  static void destroy(RefCounted* object);
  detail::WeakControl* weak_control() const;

  // Starts at 1: the reference make() hands to its caller, so a constructor may take and drop
  // Refs to `this` without killing the half-built object.
  mutable std::atomic<u32> strong_{1};
  u32 index_ = 0;  // position in the registry's live list
  ObjectRegistry* registry_ = nullptr;
  const ObjectType* type_ = nullptr;
  mutable RefCounted* next_pending_ = nullptr;  // link in the registry's release queue
  mutable std::atomic<detail::WeakControl*> weak_{nullptr};
};

// A strong handle: keeps the object alive (until the next collect() after the last one goes).
template <typename T>
class Ref {
 public:
  using element_type = T;

  constexpr Ref() noexcept = default;
  constexpr Ref(std::nullptr_t) noexcept {}  // NOLINT(google-explicit-constructor)

  // A new strong handle to an object known by raw pointer (typically `this`). The object must be
  // alive: making a handle to a dead object asserts and gives an empty Ref.
  explicit Ref(T* object) : ptr_(object) {
    if (ptr_ == nullptr) return;
    const RefCounted* base = ptr_;
    const u32 before = base->strong_.fetch_add(1, std::memory_order_relaxed);
    if (before == 0) {
      base->strong_.fetch_sub(1, std::memory_order_relaxed);
      ptr_ = nullptr;
      KEEL_ASSERT(false, "Ref to an object whose count already reached zero (no resurrection)");
    }
  }

  Ref(const Ref& other) noexcept : ptr_(other.ptr_) { retain(); }
  Ref(Ref&& other) noexcept : ptr_(std::exchange(other.ptr_, nullptr)) {}
  template <typename U>
  requires std::is_convertible_v<U*, T*> Ref(const Ref<U>& other)
  noexcept : ptr_(other.get()) {  // NOLINT(google-explicit-constructor)
    retain();
  }
  template <typename U>
  requires std::is_convertible_v<U*, T*> Ref(Ref<U>&& other)
  noexcept : ptr_(other.release_unchecked()) {}  // NOLINT

  ~Ref() { drop(); }

  Ref& operator=(const Ref& other) noexcept {
    Ref(other).swap(*this);
    return *this;
  }
  Ref& operator=(Ref&& other) noexcept {
    Ref(std::move(other)).swap(*this);
    return *this;
  }
  template <typename U>
  requires std::is_convertible_v<U*, T*> Ref& operator=(const Ref<U>& other) noexcept {
    Ref(other).swap(*this);
    return *this;
  }
  template <typename U>
  requires std::is_convertible_v<U*, T*> Ref& operator=(Ref<U>&& other) noexcept {
    Ref(std::move(other)).swap(*this);
    return *this;
  }
  Ref& operator=(std::nullptr_t) noexcept {
    reset();
    return *this;
  }

  void reset() noexcept { Ref().swap(*this); }
  void swap(Ref& other) noexcept { std::swap(ptr_, other.ptr_); }

  T* get() const noexcept { return ptr_; }
  T* operator->() const noexcept {
    KEEL_ASSERT(ptr_ != nullptr, "dereferencing an empty Ref");
    return ptr_;
  }
  T& operator*() const noexcept {
    KEEL_ASSERT(ptr_ != nullptr, "dereferencing an empty Ref");
    return *ptr_;
  }
  explicit operator bool() const noexcept { return ptr_ != nullptr; }

  // Internal: gives up the pointer without releasing (for converting moves).
  T* release_unchecked() noexcept { return std::exchange(ptr_, nullptr); }

 private:
  friend class ObjectRegistry;
  template <typename>
  friend class WeakRef;

  struct AdoptTag {};
  Ref(T* object, AdoptTag) noexcept : ptr_(object) {}  // takes over an existing reference
  static Ref adopt(T* object) noexcept { return Ref(object, AdoptTag{}); }

  void retain() const noexcept {
    if (ptr_ != nullptr) static_cast<const RefCounted*>(ptr_)->add_ref();
  }
  void drop() noexcept {
    if (ptr_ != nullptr)
      static_cast<const RefCounted*>(std::exchange(ptr_, nullptr))->release_ref();
  }

  T* ptr_ = nullptr;
};

template <typename T, typename U>
bool operator==(const Ref<T>& a, const Ref<U>& b) noexcept {
  return a.get() == b.get();
}
template <typename T, typename U>
std::strong_ordering operator<=>(const Ref<T>& a, const Ref<U>& b) noexcept {
  return std::compare_three_way{}(a.get(), b.get());
}
template <typename T>
bool operator==(const Ref<T>& a, std::nullptr_t) noexcept {
  return a.get() == nullptr;
}
template <typename T, typename U>
bool operator==(const Ref<T>& a, const U* b) noexcept {
  return a.get() == b;
}

// Casts between handle types (adds a reference; empty if the dynamic cast fails).
template <typename To, typename From>
Ref<To> static_ref_cast(const Ref<From>& from) {
  return from ? Ref<To>(static_cast<To*>(from.get())) : Ref<To>();
}
template <typename To, typename From>
Ref<To> dynamic_ref_cast(const Ref<From>& from) {
  To* to = dynamic_cast<To*>(from.get());
  return to != nullptr ? Ref<To>(to) : Ref<To>();
}

// A weak handle: does not keep the object alive. lock() gives a strong handle while the object's
// count is above zero, and an empty one from the moment it reaches zero; a weak handle never
// dangles, even after the object is destroyed.
template <typename T>
class WeakRef {
 public:
  constexpr WeakRef() noexcept = default;
  constexpr WeakRef(std::nullptr_t) noexcept {}  // NOLINT(google-explicit-constructor)
  template <typename U>
  requires std::is_convertible_v<U*, T*> WeakRef(const Ref<U>& strong)
  noexcept {  // NOLINT(google-explicit-constructor)
    if (strong) {
      ptr_ = strong.get();
      control_ = static_cast<const RefCounted*>(ptr_)->weak_control();
      control_->weak_count.fetch_add(1, std::memory_order_relaxed);
    }
  }
  WeakRef(const WeakRef& other) noexcept : ptr_(other.ptr_), control_(other.control_) { retain(); }
  WeakRef(WeakRef&& other) noexcept
      : ptr_(std::exchange(other.ptr_, nullptr)),
        control_(std::exchange(other.control_, nullptr)) {}
  template <typename U>
  requires std::is_convertible_v<U*, T*> WeakRef(const WeakRef<U>& other)
  noexcept  // NOLINT(google-explicit-constructor)
      : ptr_(other.ptr_), control_(other.control_) {
    retain();
  }
  ~WeakRef() { drop(); }

  WeakRef& operator=(const WeakRef& other) noexcept {
    WeakRef(other).swap(*this);
    return *this;
  }
  WeakRef& operator=(WeakRef&& other) noexcept {
    WeakRef(std::move(other)).swap(*this);
    return *this;
  }
  template <typename U>
  requires std::is_convertible_v<U*, T*> WeakRef& operator=(const Ref<U>& strong) noexcept {
    WeakRef(strong).swap(*this);
    return *this;
  }

  void reset() noexcept { WeakRef().swap(*this); }
  void swap(WeakRef& other) noexcept {
    std::swap(ptr_, other.ptr_);
    std::swap(control_, other.control_);
  }

  // A strong handle, or an empty one if the object is dead (count zero or destroyed).
  Ref<T> lock() const {
    if (control_ == nullptr) return {};
    std::lock_guard guard(control_->mutex);
    if (control_->object == nullptr || !control_->object->try_add_ref()) return {};
    return Ref<T>::adopt(ptr_);
  }
  bool expired() const {
    if (control_ == nullptr) return true;
    std::lock_guard guard(control_->mutex);
    return control_->object == nullptr || control_->object->ref_count() == 0;
  }

  // Same object (or both empty).
  template <typename U>
  bool owner_equal(const WeakRef<U>& other) const noexcept {
    return control_ == other.control_;
  }

 private:
  template <typename>
  friend class WeakRef;

  void retain() const noexcept {
    if (control_ != nullptr) control_->weak_count.fetch_add(1, std::memory_order_relaxed);
  }
  void drop() noexcept {
    if (control_ != nullptr) {
      if (control_->weak_count.fetch_sub(1, std::memory_order_acq_rel) == 1) delete control_;
      control_ = nullptr;
      ptr_ = nullptr;
    }
  }

  T* ptr_ = nullptr;
  detail::WeakControl* control_ = nullptr;
};

// An object still referenced at shutdown.
struct LeakedObject {
  std::string type_name;
  usize size = 0;
  u32 references = 0;  // strong handles still held
};
using LeakReport = std::vector<LeakedObject>;

struct TypeUsage {
  std::string type_name;
  usize objects = 0;
  usize bytes = 0;  // objects * sizeof
};

struct MemoryReport {
  usize live_objects = 0;     // made and not yet destroyed (includes pending)
  usize pending_objects = 0;  // released, waiting for the next collect()
  usize total_bytes = 0;
  std::vector<TypeUsage> by_type;  // most bytes first, then by name
};

// A table: one line per type ("    3 objects      96 bytes  Sprite"), then the totals.
std::string to_string(const MemoryReport& report);

class ObjectRegistry {
 public:
  // Leak reports go to log::default_logger().
  ObjectRegistry();
  explicit ObjectRegistry(log::Logger& logger);
  ~ObjectRegistry();
  ObjectRegistry(const ObjectRegistry&) = delete;
  ObjectRegistry& operator=(const ObjectRegistry&) = delete;

  // Creates an object owned by this registry; the returned handle holds its first reference.
  template <typename T, typename... Args>
  Ref<T> make(Args&&... args) {
    static_assert(std::is_base_of_v<RefCounted, T>, "make<T>: T must derive from RefCounted");
    T* object = new T(std::forward<Args>(args)...);
    register_object(*object, object_type_of<T>());
    return Ref<T>::adopt(object);
  }

  // Destroys every object whose count reached zero (including those released by the
  // destructors it runs). Returns how many were destroyed.
  usize collect();

  // Collects, then reports (and logs) every object still referenced and detaches it; see the top
  // of this file. Later calls return an empty report. make() after shutdown asserts.
  LeakReport shutdown();
  bool is_shut_down() const { return shut_down_; }

  // Whether `object` was made by this registry (and not detached by shutdown()): systems that
  // keep objects of one registry check handles they are given. False for null.
  bool owns(const RefCounted* object) const {
    return object != nullptr && object->registry_ == this;
  }
  template <typename T>
  bool owns(const Ref<T>& ref) const {
    return owns(static_cast<const RefCounted*>(ref.get()));
  }

  usize live_count() const;
  usize pending_count() const { return pending_count_.load(std::memory_order_acquire); }
  MemoryReport memory_report() const;

 private:
  friend class RefCounted;

  void register_object(RefCounted& object, const ObjectType& type);
  void enqueue(const RefCounted& object);  // lock-free; any thread
  void unregister(RefCounted& object);

  log::Logger& logger_;
  mutable std::mutex mutex_;
  std::vector<RefCounted*> live_;
  std::atomic<const RefCounted*> pending_{nullptr};  // lock-free stack through next_pending_
  std::atomic<usize> pending_count_{0};
  bool shut_down_ = false;
};

}  // namespace keel

template <typename T>
struct std::hash<keel::Ref<T>> {
  std::size_t operator()(const keel::Ref<T>& ref) const noexcept {
    return std::hash<T*>{}(ref.get());
  }
};
