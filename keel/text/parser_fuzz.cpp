// Fuzz target: any bytes through the parser, the PLATFORM pass and the source writer. Checks that
// nothing crashes, that diagnostics render, and that a parsed tree written back as source parses
// to the same text again.
#include "keel/text/document.h"
#include "keel/text/platform.h"

#include "keel/core/bytes.h"

#include <cstdint>
#include <cstdlib>
#include <span>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace keel::text;
  std::string source = keel::to_string(keel::as_bytes(std::span(data, size)));
  Diagnostics diag;
  auto doc = parse(source, "fuzz.txt", diag);
  if (doc == nullptr) {
    if (!diag.has_errors()) std::abort();  // a failed parse must say why
    Document copy(source, "fuzz.txt");
    (void)diag.render(copy);
    return 0;
  }
  (void)preprocess_platform(*doc, "PC", diag);
  const std::string once = to_source(doc->first());
  Diagnostics again_diag;
  auto again = parse(once, "again.txt", again_diag);
  if (again == nullptr || to_source(again->first()) != once) std::abort();
  for (const Token& s : chain(again->first())) (void)hash_tree(s);
  return 0;
}
