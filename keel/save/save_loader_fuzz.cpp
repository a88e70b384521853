// Fuzz target over the save loader. The first byte picks the mode:
//   0: the rest is a whole save file (container, checksums, compression, then the objects);
//   1: the rest is an object stream, sealed into a valid container first, so mutations reach
//      the object loader behind the checksums;
//   2, 3: as 0 and 1 with testing::plain_system() (classes keeping every default hook: the
//      one-pass load with parked links) instead of the book's classes.
// Must never crash or leak; allocations are bounded by LoadLimits and by the input's size.
#include "keel/save/format.h"
#include "keel/save/save_file.h"
#include "keel/save/testing/book_objects.h"

#include <cstddef>
#include <cstdint>

using namespace keel;
using namespace keel::save;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // The book's classes (hooks of their own: the book's passes), or classes keeping every default
  // hook (loaded in one pass with parked links): bit 1 of the first byte.
  static const SaveSystem book = testing::book_system();
  static const SaveSystem plain = testing::plain_system();
  if (size < 1) return 0;
  const SaveSystem& system = (data[0] & 2) != 0 ? plain : book;
  ByteSpan input(reinterpret_cast<const std::byte*>(data) + 1, size - 1);
  ByteBuffer sealed;
  if ((data[0] & 1) != 0) {
    FileHeader header;
    header.compression = Compression::kNone;
    header.version = system.version();
    auto file = encode_file(header, input);
    if (!file) return 0;
    sealed = std::move(*file);
    input = sealed;
  }
  LoadLimits limits;
  limits.max_body_bytes = 1 << 20;
  limits.max_file_bytes = 1 << 20;
  alignas(8) static char level[64] = {};
  SaveFile f(system);
  Status st = f.begin_load_bytes(input, limits);
  for (int set = 0; st && set < 4; ++set) {
    u32 client = 0;
    if (set == 0) st = f.get_value(client);
    if (!st) break;
    f.declare_block(level, sizeof level);
    st = f.process_objects();
  }
  st = f.end(st);
  auto objects = f.take_objects();
  if (st) {
    // Whatever loaded must be a consistent graph: follow every object's links.
    for (auto& o : objects) {
      auto* e = dynamic_cast<testing::ExObj1*>(o.get());
      if (e != nullptr && e->nextObject != nullptr) (void)e->nextObject->save_id();
    }
  }
  return 0;
}
