// Setup (fix-up) functions: one per asset type hash, run once per asset after its blocks are
// loaded (Golden Rules ch. 5.5). A setup function turns the locator ids inside the asset's chunks
// into pointers, creates any runtime objects, and returns the asset pointer that replaces the
// primary chunk in the resident master index. An optional teardown runs when the pack unloads.
//
// Pointer slots: a locator id is 32 bits on disk but a pointer is 64 bits, so asset structures
// keep pointers in 8-byte PackPtr<T> slots: the build tool stores PackPtr<T>::from(locator), the
// setup function calls ctx.fix_up(slot), and the slot then holds the chunk's address.
//
//   struct TextureHeader { u32 width, height; PackPtr<std::byte> pixels; };
//   loader.register_type(type_hash("Texture"), [](SetupContext& ctx) -> Result<void*> {
//     auto* header = ctx.primary_as<TextureHeader>();
//     if (!header) return fail(ErrorCode::kCorrupt, "texture header too small");
//     if (auto s = ctx.fix_up(header->pixels); !s) return std::unexpected(s.error());
//     return header;
//   });
#pragma once

#include "keel/core/bytes.h"
#include "keel/core/error.h"
#include "keel/pack/format.h"

#include <bit>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string_view>

namespace keel::pack {

class Allocator;
class PackIndex;

// One block as loaded: its memory, from the allocator of its block type.
struct LoadedBlock {
  u16 type = 0;
  std::byte* data = nullptr;  // device address when the allocator is not CPU-addressable
  u32 length = 0;
  u32 alignment = 1;
  Allocator* allocator = nullptr;
  bool release_after_setup = false;
};

template <typename T>
struct PackPtr {
  u64 raw = 0;  // before setup: the locator id (high half 0); after: the address

  static constexpr PackPtr from(LocatorId locator) { return PackPtr{locator.value}; }
  LocatorId locator() const { return LocatorId{static_cast<u32>(raw)}; }
  T* get() const { return reinterpret_cast<T*>(static_cast<std::uintptr_t>(raw)); }
  T* operator->() const { return get(); }
  void set(T* pointer) { raw = static_cast<u64>(reinterpret_cast<std::uintptr_t>(pointer)); }
};
static_assert(sizeof(PackPtr<int>) == 8 && sizeof(void*) <= 8);

class SetupContext {
 public:
  Hash name_hash() const { return name_hash_; }
  Hash type_hash() const { return type_hash_; }
  std::string_view name() const { return name_; }  // empty unless names were loaded
  LocatorId primary_locator() const { return primary_; }

  // This asset's chunk with the given locator id (kNotFound if there is none). For blocks in
  // memory the CPU cannot address the span's data is the device address and must not be read.
  Result<MutableByteSpan> chunk(LocatorId locator) const;
  MutableByteSpan primary() const { return primary_bytes_; }

  // The primary chunk as T when it is large enough and suitably aligned, else nullptr.
  template <typename T>
  T* primary_as() const {
    if (primary_bytes_.size() < sizeof(T)) return nullptr;
    if (reinterpret_cast<std::uintptr_t>(primary_bytes_.data()) % alignof(T) != 0) return nullptr;
    return reinterpret_cast<T*>(primary_bytes_.data());
  }

  // Replaces the locator id in `slot` with the chunk's address. A null locator stays null.
  template <typename T>
  Status fix_up(PackPtr<T>& slot) const {
    if (slot.raw > 0xFFFFFFFFu) {
      return fail(ErrorCode::kCorrupt, "pointer slot does not hold a locator id");
    }
    if (slot.locator().is_null()) return ok();
    auto bytes = chunk(slot.locator());
    if (!bytes) return std::unexpected(bytes.error());
    slot.set(reinterpret_cast<T*>(bytes->data()));
    return ok();
  }

  // For the loader.
  SetupContext(Hash name_hash, Hash type_hash, std::string_view name, LocatorId primary,
               const PackIndex& index, std::span<const LoadedBlock> blocks);
  Status resolve_primary();

 private:
  Hash name_hash_;
  Hash type_hash_;
  std::string_view name_;
  LocatorId primary_;
  MutableByteSpan primary_bytes_;
  const PackIndex* index_;
  std::span<const LoadedBlock> blocks_;
};

using SetupFn = std::function<Result<void*>(SetupContext&)>;
using TeardownFn = std::function<void(void* asset)>;

}  // namespace keel::pack
