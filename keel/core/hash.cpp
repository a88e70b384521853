#include "keel/core/hash.h"

#include "keel/core/assert.h"

#define XXH_INLINE_ALL  // header-only: no link dependency for consumers of keel::core
#include <xxhash.h>

namespace keel {

u64 hash64(const void* data, usize size, u64 seed) {
  KEEL_ASSERT(data != nullptr || size == 0, "hash64: {} bytes at a null pointer", size);
  if (data == nullptr) size = 0;
  return XXH3_64bits_withSeed(data, size, seed);
}

Hasher64::Hasher64(u64 seed) : state_(XXH3_createState()) {
  XXH3_64bits_reset_withSeed(static_cast<XXH3_state_t*>(state_), seed);
}
Hasher64::~Hasher64() { XXH3_freeState(static_cast<XXH3_state_t*>(state_)); }

void Hasher64::update(const void* data, usize size) {
  KEEL_ASSERT(data != nullptr || size == 0, "Hasher64::update: {} bytes at a null pointer", size);
  if (data == nullptr) return;
  XXH3_64bits_update(static_cast<XXH3_state_t*>(state_), data, size);
}

u64 Hasher64::digest() const { return XXH3_64bits_digest(static_cast<XXH3_state_t*>(state_)); }

}  // namespace keel
