// Fuzz target: arbitrary text through the parser and the script compiler (with the basic
// commands), then the compiled library through to_bytes/from_bytes, the disassembler and a few
// frames of the VM. A compile may fail (with located errors) but never crash, and whatever it
// produces must validate, load back identically and run.
#include "keel/script/basic_commands.h"
#include "keel/script/compiler/compiler.h"
#include "keel/script/compiler/disassembler.h"
#include "keel/script/machine.h"
#include "keel/text/document.h"

#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace keel::script;
  static const CommandSet commands = [] {
    CommandSet c = default_commands();
    (void)add_basic_commands(c, nullptr);
    return c;
  }();
  keel::text::Diagnostics diag;
  auto doc = keel::text::parse(std::string(reinterpret_cast<const char*>(data), size),
                               "fuzz.script", diag);
  if (doc == nullptr) return 0;
  auto lib = compile(doc->first(), commands, diag,
                     {.skip_other_statements = (size % 2) == 0, .source = doc.get()});
  if (!lib) {
    if (!diag.has_errors()) std::abort();  // a failed compile must say why
    (void)diag.render(*doc);
    return 0;
  }
  for (const Script& s : lib->scripts()) {
    if (!validate_stream(s.code)) std::abort();
  }
  const auto bytes = lib->to_bytes();
  auto back = Library::from_bytes(bytes);
  if (!back || back->to_bytes() != bytes) std::abort();
  (void)disassemble(*back, commands);
  Machine machine(commands, {.command_budget = 100});
  if (!machine.add_library(*back)) std::abort();
  for (const Script& s : back->scripts()) (void)machine.start(s.name_hash);
  for (int frame = 0; frame < 5; ++frame) machine.update(0.05);
  return 0;
}
