// PropertyContainer::serialize: the erased halves (see container.h for the format).
#include "keel/core/assert.h"
#include "keel/props/container.h"

#include <fmt/format.h>

#include <limits>

namespace keel::props {

template <typename Saver>
void PropertyContainer::save_values(Saver& ar) {
  // Check every type first, so a sizer fails exactly when the saver would.
  for (const auto& slot : slots_) {
    if (registry_->find_type(slot->type()) == nullptr) {
      ar.fail(ErrorCode::kUnsupported,
              fmt::format("property '{}' holds {}, a type with no serialization tag", slot->name(),
                          slot->type().name()));
      return;
    }
  }
  if (slots_.size() > std::numeric_limits<u32>::max()) {
    ar.fail(ErrorCode::kOutOfRange, "too many properties to serialize");
    return;
  }
  u8 version = kFormatVersion;
  u32 count = static_cast<u32>(slots_.size());
  ar.io(version);
  ar.io(count);
  std::string name;
  for (const auto& slot : slots_) {
    if (!ar.ok()) return;
    const TypeCodec* codec = registry_->find_type(slot->type());
    name.assign(slot->name());
    u32 tag = codec->tag;
    ar.io(name);
    ar.io(tag);
    detail::io_value(codec->io, ar, slot->value_ptr());
  }
}

template <typename Loader>
void PropertyContainer::load_values(Loader& ar) {
  u8 version = 0;
  ar.io(version);
  if (!ar.ok()) return;
  if (version != kFormatVersion) {
    ar.fail(version > kFormatVersion ? ErrorCode::kUnsupported : ErrorCode::kCorrupt,
            fmt::format("property container format version {} (this build reads {})", version,
                        kFormatVersion));
    return;
  }
  u32 count = 0;
  ar.io(count);
  if (!ar.ok()) return;

  // Stage everything; touch the container only when the whole input is good. The staged list
  // grows one property at a time (each costs input bytes), never by the announced count.
  SlotList staged;
  PrehashedMap<u32, detail::SlotBase*> staged_index;
  std::string name;
  for (u32 i = 0; i < count; ++i) {
    u32 tag = 0;
    ar.io(name);
    ar.io(tag);
    if (!ar.ok()) return;
    const TypeCodec* codec = registry_->find_tag(tag);
    if (codec == nullptr) {
      ar.fail(ErrorCode::kCorrupt,
              fmt::format("property '{}' has unknown type tag {:#010x}", name, tag));
      return;
    }
    std::unique_ptr<detail::SlotBase> slot = codec->make();
    detail::io_value(codec->io, ar, slot->value_ptr());
    if (!ar.ok()) return;
    const Key key = Key::runtime(name);
    if (const detail::SlotBase* twin = staged_index.get(key.id().value)) {
      ar.fail(ErrorCode::kCorrupt,
              twin->name() == name
                  ? fmt::format("property '{}' appears twice", name)
                  : fmt::format("property names '{}' and '{}' have the same id {:#010x}",
                                twin->name(), name, key.id().value));
      return;
    }
    auto existing = lookup(key);
    if (!existing) {
      ar.fail(ErrorCode::kCorrupt, existing.error().message());
      return;
    }
    if (*existing != nullptr && (*existing)->type() != slot->type()) {
      ar.fail(ErrorCode::kTypeMismatch, mismatch_error(**existing, slot->type(), "load").message());
      return;
    }
    slot->set_key(key);  // copies the name
    staged_index.insert(key.id().value, slot.get());
    staged.push_back(std::move(slot));
  }
  if (!ar.ok()) return;

  // Apply. Listeners run as for set() and may change the container, so look each key up again.
  for (auto& slot : staged) {
    const Key key = Key::runtime(slot->name());
    auto existing = lookup(key);
    if (!existing) {
      ar.fail(ErrorCode::kCorrupt, existing.error().message());
      return;
    }
    if (*existing == nullptr) {
      std::unique_ptr<detail::SlotBase> owned = std::move(slot);
      index_.insert(owned->id().value, owned.get());
      slots_.push_back(std::move(owned));
    } else if ((*existing)->type() == slot->type()) {
      write_from(**existing, *slot);
    } else {
      ar.fail(ErrorCode::kTypeMismatch, mismatch_error(**existing, slot->type(), "load").message());
      return;
    }
  }
}

template void PropertyContainer::save_values(serial::Sizer&);
template void PropertyContainer::save_values(serial::BufferSaver&);
template void PropertyContainer::save_values(serial::GrowingSaver&);
template void PropertyContainer::save_values(serial::FileSaver&);
template void PropertyContainer::load_values(serial::BufferLoader&);
template void PropertyContainer::load_values(serial::FileLoader&);

}  // namespace keel::props
