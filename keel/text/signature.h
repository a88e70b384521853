// Typed access for command handlers: check a command's parameter count and types and whether it
// may carry a conditional, with located errors such as
//   "`Texture` expects a string as parameter 1, got a number".
//
//   using namespace keel::text;
//   if (!check_command(cmd, diag, {kString, kNumber | kName}, {.min_params = 1})) return;
#pragma once

#include "keel/core/types.h"
#include "keel/text/diagnostics.h"
#include "keel/text/token.h"

#include <initializer_list>
#include <limits>
#include <string>

namespace keel::text {

// Allowed kinds of one parameter, a bit set.
using ParamKinds = u8;
inline constexpr ParamKinds kName = 1;
inline constexpr ParamKinds kString = 2;
inline constexpr ParamKinds kNumber = 4;
inline constexpr ParamKinds kAnyParam = kName | kString | kNumber;

std::string describe(ParamKinds kinds);  // "a string", "a name or a number", ...

enum class Conditional : u8 {
  kForbidden,  // `CMD(...);` only
  kAllowed,    // a conditional command or block may follow
  kRequired,   // a conditional command or block must follow (e.g. SCRIPT("x") { ... })
};

struct CommandRules {
  u32 min_params = std::numeric_limits<u32>::max();  // default: every listed parameter required
  bool variadic = false;                             // extra parameters take the last listed kinds
  Conditional conditional = Conditional::kForbidden;
};

// Checks `cmd` against one kind set per parameter. Reports every mismatch to `diagnostics`
// (located at the offending token) and returns whether the command is well formed.
bool check_command(const Token& cmd, Diagnostics& diagnostics,
                   std::initializer_list<ParamKinds> params, const CommandRules& rules = {});

}  // namespace keel::text
