// Test helpers: compile script text in one call, and probe commands that record when they ran.
#pragma once

#include "keel/script/basic_commands.h"
#include "keel/script/commands.h"
#include "keel/script/compiler/compiler.h"
#include "keel/script/library.h"
#include "keel/text/document.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace keel::script::testing {

inline std::optional<Library> compile_text(std::string_view source, const CommandSet& commands,
                                           text::Diagnostics& diag, CompileOptions options = {},
                                           std::string_view filename = "test.script") {
  auto doc = text::parse(std::string(source), std::string(filename), diag);
  if (doc == nullptr) return std::nullopt;
  options.source = doc.get();
  return compile(doc->first(), commands, diag, options);
}

// The code of script `name` as plain bytes (empty if it does not exist).
inline std::vector<u8> code_of(const Library& library, std::string_view name) {
  const Script* s = library.find(name);
  if (s == nullptr) return {};
  std::vector<u8> out;
  for (std::byte b : s->code) out.push_back(static_cast<u8>(b));
  return out;
}

inline std::vector<std::byte> to_code(std::initializer_list<int> bytes) {
  std::vector<std::byte> out;
  for (int b : bytes) out.push_back(static_cast<std::byte>(b));
  return out;
}

// Records (probe name, frame) each time a probe command runs.
struct ProbeLog {
  std::vector<std::pair<std::string, u64>> runs;
  // Frames in which probe `name` ran.
  std::vector<u64> frames_of(std::string_view name) const {
    std::vector<u64> out;
    for (const auto& [n, f] : runs) {
      if (n == name) out.push_back(f);
    }
    return out;
  }
  std::vector<std::string> order() const {
    std::vector<std::string> out;
    for (const auto& r : runs) out.push_back(r.first);
    return out;
  }
};

// default_commands() + PRINT/SET/ADD + probes P1..P4 (opcodes 0x200..0x203) that log to `log`.
inline CommandSet probe_commands(ProbeLog& log) {
  CommandSet commands = default_commands();
  (void)add_basic_commands(commands, nullptr);
  for (int i = 1; i <= 4; ++i) {
    CommandDef def;
    def.name = "P" + std::to_string(i);
    def.opcode = static_cast<Opcode>(0x200 + i - 1);
    def.handler = [&log, name = def.name](Call& call) {
      log.runs.emplace_back(name, call.frame());
      return Outcome::kNext;
    };
    (void)commands.add(std::move(def));
  }
  return commands;
}

}  // namespace keel::script::testing
