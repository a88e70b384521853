// Fuzz target: Texture commands (command files are external data), parsed and checked.
#include "keel/assets/build/detail/texture_spec.h"
#include "keel/text/document.h"

#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  keel::text::Diagnostics diagnostics;
  std::unique_ptr<keel::text::Document> doc = keel::text::parse(
      std::string(reinterpret_cast<const char*>(data), size), "fuzz.kcmd", diagnostics);
  if (doc == nullptr) return 0;
  for (const keel::text::Token& cmd : keel::text::chain(doc->first())) {
    if (cmd.is("Texture")) (void)keel::assets::detail::parse_texture(cmd, diagnostics);
  }
  return 0;
}
