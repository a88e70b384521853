// Fuzz target: the build database reader. Any bytes: an error or a database that reads back
// equal after writing; never a crash, never a huge allocation. Inputs whose first byte is odd
// are wrapped in a valid header (magic, version, length, checksum) first, so the fuzzer also
// reaches the payload parser behind the checksum.
#include "keel/core/hash.h"
#include "keel/pipeline/detail/build_db.h"

#include <cstdlib>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using keel::u8;
  using keel::pipeline::BuildDatabase;
  using keel::pipeline::IntermediateRecord;
  std::vector<u8> bytes;  // numbers while the header is assembled
  if (size > 0 && (data[0] & 1) != 0) {
    const u8* payload = data + 1;
    const size_t length = size - 1;
    bytes = {'K', 'B', 'D', 'B'};
    auto put = [&bytes](keel::u64 v, int n) {
      for (int i = 0; i < n; ++i) bytes.push_back(static_cast<u8>(v >> (8 * i)));
    };
    put(BuildDatabase::kVersion, 4);
    put(length, 8);
    put(keel::hash64(payload, length), 8);
    put(0, 8);
    bytes.insert(bytes.end(), payload, payload + length);
  } else {
    bytes.assign(data, data + size);
  }
  keel::Result<BuildDatabase> db =
      BuildDatabase::from_bytes(keel::as_bytes(std::span<const u8>(bytes)));
  if (db) {
    const keel::ByteBuffer again = db->to_bytes();
    keel::Result<BuildDatabase> back = BuildDatabase::from_bytes(again);
    if (!back || !(*back == *db)) std::abort();
    for (const IntermediateRecord& record : db->records()) {
      if (db->find(record.output) != &record) std::abort();
    }
  }
  return 0;
}
