// Fuzz target: the remote cache's action record (remote_cache.h), which comes from a server.
#include "keel/pipeline/remote_cache.h"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using keel::pipeline::ActionRecord;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  keel::Result<ActionRecord> record = ActionRecord::parse(text);
  if (!record) return 0;
  // What parses names a valid key and prints back to the same text.
  if (!keel::pipeline::is_sha256_hex(record->content)) std::abort();
  if (record->to_text() != text) std::abort();
  return 0;
}
