// Internals of the FSM compiler shared by compiler.cpp (FSM, group and state blocks) and
// handler_compiler.cpp (event-handler commands). Not part of the public API.
#pragma once

#include "keel/core/hash.h"
#include "keel/core/types.h"
#include "keel/fsm/compiler/detail/image_builder.h"
#include "keel/fsm/compiler/fsm_type.h"
#include "keel/text/diagnostics.h"
#include "keel/text/token.h"

#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace keel::fsm::detail {

// What one FSM's compilation shares between its blocks.
struct FsmScope {
  text::Diagnostics* diag = nullptr;
  FsmType* type = nullptr;  // automatic types gain behaviours as they appear
  BuiltFsm* out = nullptr;
  std::set<std::string, std::less<>> state_names;  // every State of this FSM (pre-pass)
  bool has_parent = false;

  // Adds a string to the dictionary; reports a hash collision or a NUL byte. Returns its hash.
  Hash add_string(std::string_view text, const text::Token& at);
  // The mask of behaviour `name` for the FSM's type (reported and nullopt when unknown).
  std::optional<u32> behavior(std::string_view name, const text::Token& at);
};

// The flags a handler may use: those declared so far (bit order) and, for messages, every flag
// the state declares anywhere.
struct FlagScope {
  const std::vector<std::string>* declared = nullptr;
  const std::set<std::string, std::less<>>* later = nullptr;
};

// Compiles the handler block starting at `first` (chained commands) for event `event`.
// The result ends with End.
std::vector<u32> compile_handler(FsmScope& scope, const FlagScope& flags, std::string_view event,
                                 const text::Token* first);

}  // namespace keel::fsm::detail
