#include "keel/pack/setup.h"

#include "keel/pack/detail/index.h"

namespace keel::pack {

SetupContext::SetupContext(Hash name_hash, Hash type_hash, std::string_view name, LocatorId primary,
                           const PackIndex& index, std::span<const LoadedBlock> blocks)
    : name_hash_(name_hash),
      type_hash_(type_hash),
      name_(name),
      primary_(primary),
      index_(&index),
      blocks_(blocks) {}

Result<MutableByteSpan> SetupContext::chunk(LocatorId locator) const {
  const auto entry = index_->find_chunk(name_hash_, locator);
  const BlockView* view = index_->find_block(locator.block_id());
  if (!entry || view == nullptr) {
    return fail(ErrorCode::kNotFound, "asset 0x{:08X} has no chunk 0x{:08X}", name_hash_,
                locator.value);
  }
  const LoadedBlock& block = blocks_[static_cast<usize>(view - index_->blocks().data())];
  if (block.data == nullptr) return MutableByteSpan();  // empty block
  return MutableByteSpan(block.data + entry->block_offset, entry->data_length);
}

Status SetupContext::resolve_primary() {
  if (primary_.is_null()) return ok();
  auto bytes = chunk(primary_);
  if (!bytes) return std::unexpected(bytes.error());
  primary_bytes_ = *bytes;
  return ok();
}

}  // namespace keel::pack
