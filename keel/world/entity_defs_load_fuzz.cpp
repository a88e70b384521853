// Fuzz target: the entity-definition and event-chain chunk readers (data files are external
// data). The first byte picks the reader; a chunk that decodes must encode back to itself.
#include "keel/world/chain.h"
#include "keel/world/defs.h"

#include <algorithm>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const keel::ByteSpan bytes = keel::as_bytes(std::span<const uint8_t>(data + 1, size - 1));
  if ((data[0] & 1) == 0) {
    keel::Result<keel::world::EntityDef> def = keel::world::decode_entity_def(bytes);
    if (!def) return 0;
    // Encoding what was read gives a chunk that reads back to the same encoding (vectors are
    // f32, so the first pass may round).
    const keel::ByteBuffer once = keel::world::encode_entity_def(*def);
    keel::Result<keel::world::EntityDef> again = keel::world::decode_entity_def(once);
    if (!again || !std::ranges::equal(keel::world::encode_entity_def(*again), once)) std::abort();
    keel::world::EntityDefs defs;
    const std::string name = def->name;
    if (!defs.add(std::move(*def)) || defs.find(name) == nullptr) std::abort();
  } else {
    keel::Result<keel::world::ChainDef> chain = keel::world::decode_chain(bytes);
    if (!chain) return 0;
    const keel::ByteBuffer once = keel::world::encode_chain(*chain);
    keel::Result<keel::world::ChainDef> again = keel::world::decode_chain(once);
    if (!again || !std::ranges::equal(keel::world::encode_chain(*again), once)) std::abort();
  }
  return 0;
}
