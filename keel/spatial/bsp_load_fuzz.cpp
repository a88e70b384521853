// Fuzz target for the packed BSP loader: arbitrary bytes must give a located error or a tree that
// every query walks without a crash (the loader's checks make any accepted tree finite: children
// after their parent, one parent each, face ranges inside the face array).
#include "keel/spatial/bsp.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace keel;
  using namespace keel::spatial;
  // The loader requires 4-byte alignment (a pack chunk has it); give it an aligned copy.
  std::vector<u32> storage((size + 3) / 4);
  if (size != 0) std::memcpy(storage.data(), data, size);
  const ByteSpan bytes(reinterpret_cast<const std::byte*>(storage.data()), size);
  const Result<BspView> tree = BspView::load(bytes, "fuzz");
  if (!tree) {
    if (!tree.error().has_location()) __builtin_trap();
    return 0;
  }
  std::vector<u32> order;
  tree->sort({0, 0, 0}, BspOrder::kFrontToBack, order);
  if (order.size() > tree->faces().size() * tree->nodes().size() + tree->faces().size()) {
    __builtin_trap();
  }
  (void)tree->segment({-5, 0.3f, 0.1f}, {5, -0.2f, 0.4f});
  (void)tree->sphere({-5, 0.3f, 0.1f}, {5, -0.2f, 0.4f}, 0.5f);
  return 0;
}
