#include "keel/core/ref.h"

#include "keel/core/log.h"

#include <cxxabi.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <memory>

namespace keel {

namespace detail {

std::string demangle(const char* mangled_name) {
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> demangled(
      abi::__cxa_demangle(mangled_name, nullptr, nullptr, &status), &std::free);
  if (status == 0 && demangled != nullptr) return std::string(demangled.get());
  return std::string(mangled_name);
}

}  // namespace detail

// ---- RefCounted -----------------------------------------------------------------------------

RefCounted::~RefCounted() = default;

// Destroys an object whose count reached zero: first cut it off from its weak handles (under the
// control block's mutex, so no lock() is half-way through touching it), then delete it.
void RefCounted::destroy(RefCounted* object) {
  if (detail::WeakControl* control = object->weak_.load(std::memory_order_acquire)) {
    {
      std::lock_guard guard(control->mutex);
      control->object = nullptr;
    }
    if (control->weak_count.fetch_sub(1, std::memory_order_acq_rel) == 1) delete control;
  }
  delete object;
}

bool RefCounted::try_add_ref() const {
  u32 count = strong_.load(std::memory_order_relaxed);
  while (count != 0) {
    if (strong_.compare_exchange_weak(count, count + 1, std::memory_order_acquire,
                                      std::memory_order_relaxed)) {
      return true;
    }
  }
  return false;
}

detail::WeakControl* RefCounted::weak_control() const {
  detail::WeakControl* control = weak_.load(std::memory_order_acquire);
  if (control != nullptr) return control;
  auto fresh = std::make_unique<detail::WeakControl>();
  fresh->object = const_cast<RefCounted*>(this);
  if (weak_.compare_exchange_strong(control, fresh.get(), std::memory_order_acq_rel,
                                    std::memory_order_acquire)) {
    return fresh.release();
  }
  return control;  // another thread won the race; ours is discarded
}

void RefCounted::on_last_release() const {
  if (registry_ != nullptr) {
    registry_->enqueue(*this);
    return;
  }
  // Not (or no longer) owned by a registry: nothing will collect it, so it goes now.
  destroy(const_cast<RefCounted*>(this));
}

// ---- ObjectRegistry -------------------------------------------------------------------------

ObjectRegistry::ObjectRegistry() : ObjectRegistry(log::default_logger()) {}

ObjectRegistry::ObjectRegistry(log::Logger& logger) : logger_(logger) {}

ObjectRegistry::~ObjectRegistry() {
  if (!shut_down_) shutdown();
}

void ObjectRegistry::register_object(RefCounted& object, const ObjectType& type) {
  KEEL_ASSERT(!shut_down_, "ObjectRegistry::make after shutdown ({})", type.name);
  object.type_ = &type;
  if (shut_down_) return;  // assertions continued: leave it unowned (freed at its last release)
  object.registry_ = this;
  std::lock_guard lock(mutex_);
  object.index_ = static_cast<u32>(live_.size());
  live_.push_back(&object);
}

void ObjectRegistry::enqueue(const RefCounted& object) {
  pending_count_.fetch_add(1, std::memory_order_relaxed);
  const RefCounted* head = pending_.load(std::memory_order_relaxed);
  do {
    object.next_pending_ = const_cast<RefCounted*>(head);
  } while (!pending_.compare_exchange_weak(head, &object, std::memory_order_release,
                                           std::memory_order_relaxed));
}

void ObjectRegistry::unregister(RefCounted& object) {
  std::lock_guard lock(mutex_);
  const u32 index = object.index_;
  KEEL_ASSERT(index < live_.size() && live_[index] == &object, "object not in its registry");
  live_[index] = live_.back();
  live_[index]->index_ = index;
  live_.pop_back();
}

usize ObjectRegistry::collect() {
  usize destroyed = 0;
  // Destructors may release more objects; keep going until the queue stays empty.
  while (const RefCounted* batch = pending_.exchange(nullptr, std::memory_order_acquire)) {
    while (batch != nullptr) {
      auto* object = const_cast<RefCounted*>(batch);
      batch = object->next_pending_;
      KEEL_ASSERT(object->ref_count() == 0, "queued object was revived");
      unregister(*object);
      RefCounted::destroy(object);
      pending_count_.fetch_sub(1, std::memory_order_relaxed);
      ++destroyed;
    }
  }
  return destroyed;
}

LeakReport ObjectRegistry::shutdown() {
  if (shut_down_) return {};
  collect();
  shut_down_ = true;

  std::vector<RefCounted*> leaked;
  {
    std::lock_guard lock(mutex_);
    leaked.swap(live_);
  }
  LeakReport report;
  report.reserve(leaked.size());
  usize bytes = 0;
  for (RefCounted* object : leaked) {
    report.push_back(LeakedObject{object->type_->name, object->type_->size, object->ref_count()});
    bytes += object->type_->size;
    object->registry_ = nullptr;  // detached: destroyed at its last release, wherever that is
  }
  std::sort(report.begin(), report.end(), [](const LeakedObject& a, const LeakedObject& b) {
    return a.type_name != b.type_name ? a.type_name < b.type_name : a.size < b.size;
  });
  for (const LeakedObject& leak : report) {
    logger_.log(log::Channel::kApp, log::Level::kWarn, __FILE__, __LINE__,
                "unreleased object: {} ({} bytes, {} reference{})", leak.type_name, leak.size,
                leak.references, leak.references == 1 ? "" : "s");
  }
  if (!report.empty()) {
    logger_.log(log::Channel::kApp, log::Level::kWarn, __FILE__, __LINE__,
                "object registry shut down with {} unreleased object{} ({} bytes)", report.size(),
                report.size() == 1 ? "" : "s", bytes);
  }
  return report;
}

usize ObjectRegistry::live_count() const {
  std::lock_guard lock(mutex_);
  return live_.size();
}

MemoryReport ObjectRegistry::memory_report() const {
  MemoryReport report;
  std::map<const ObjectType*, TypeUsage> usage;
  {
    std::lock_guard lock(mutex_);
    report.live_objects = live_.size();
    for (const RefCounted* object : live_) {
      TypeUsage& u = usage[object->type_];
      ++u.objects;
      u.bytes += object->type_->size;
    }
  }
  report.pending_objects = pending_count();
  for (auto& [type, u] : usage) {
    u.type_name = type->name;
    report.total_bytes += u.bytes;
    report.by_type.push_back(std::move(u));
  }
  std::sort(report.by_type.begin(), report.by_type.end(),
            [](const TypeUsage& a, const TypeUsage& b) {
              return a.bytes != b.bytes ? a.bytes > b.bytes : a.type_name < b.type_name;
            });
  return report;
}

std::string to_string(const MemoryReport& report) {
  std::string out;
  for (const TypeUsage& u : report.by_type) {
    out += fmt::format("{:>8} object{} {:>10} bytes  {}\n", u.objects, u.objects == 1 ? " " : "s",
                       u.bytes, u.type_name);
  }
  out += fmt::format("{:>8} object{} {:>10} bytes  total ({} pending collection)\n",
                     report.live_objects, report.live_objects == 1 ? " " : "s", report.total_bytes,
                     report.pending_objects);
  return out;
}

}  // namespace keel
