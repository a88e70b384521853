// Lays out a compiled FSM image (compiled.h) from what the compiler gathered. Internal to the
// compiler; identical handler streams and strings are stored once.
#pragma once

#include "keel/core/hash.h"
#include "keel/core/types.h"
#include "keel/fsm/compiled.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace keel::fsm {

struct BuiltState {
  std::string name;
  u32 behaviors = 0;
  bool orphan = false;
  std::vector<std::string> flags;             // bit order
  std::map<Hash, std::vector<u32>> handlers;  // event hash -> stream (ends with End)
};

struct BuiltFsm {
  std::string name;
  std::string type;
  std::optional<std::string> parent;
  std::string initial_state;
  std::string run_event;
  std::vector<BuiltState> states;
  std::map<Hash, std::string> dictionary;
  std::vector<Hash> functions;         // any order; stored sorted and unique
  std::vector<std::string> behaviors;  // the type's behaviour names, bit order
};

// Builds the words of an image holding `fsms` (validated by CompiledFsms::adopt).
CompiledFsms build_image(const std::vector<BuiltFsm>& fsms);

}  // namespace keel::fsm
