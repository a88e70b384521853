// Fuzz target: particle effect chunks (data files are external data). A chunk that loads must
// give a pool that updates to finite positions, colours and sizes.
#include "keel/world/particles.h"

#include <cmath>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace keel::world;
  const keel::ByteSpan bytes = keel::as_bytes(std::span<const uint8_t>(data, size));
  ParticleSystem system(1);
  keel::Result<EffectId> fx = system.load_effect("fuzz", bytes);
  if (!fx) return 0;
  if (encode_effect(system.pool(*fx).effect()).size() != size) std::abort();  // exact round trip
  Emitter emitter = system.make_emitter(*fx);
  Transform at;
  at.velocity = {1, 2};
  for (int frame = 0; frame < 4; ++frame) {
    system.update(0.25f);
    system.emit(emitter, at, 0.25f);
    const ParticlePool& pool = system.pool(*fx);
    if (pool.size() > pool.capacity()) std::abort();
    for (keel::u32 i = 0; i < pool.size(); ++i) {
      if (!std::isfinite(pool.positions()[i].x) || !std::isfinite(pool.sizes()[i])) std::abort();
    }
  }
  return 0;
}
