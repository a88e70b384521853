#include "keel/text/signature.h"

#include <vector>

namespace keel::text {

std::string describe(ParamKinds kinds) {
  std::vector<std::string_view> names;
  if ((kinds & kName) != 0) names.push_back("a name");
  if ((kinds & kString) != 0) names.push_back("a string");
  if ((kinds & kNumber) != 0) names.push_back("a number");
  if (names.empty()) return "nothing";
  std::string out(names[0]);
  for (usize i = 1; i < names.size(); ++i) {
    out += i + 1 == names.size() ? " or " : ", ";
    out += names[i];
  }
  return out;
}

namespace {
ParamKinds kind_of(const Token& t) {
  switch (t.type) {
    case TokenType::kName: return kName;
    case TokenType::kString: return kString;
    case TokenType::kNumber: return kNumber;
    case TokenType::kCommand: return 0;
  }
  return 0;
}

std::string count_text(u32 n) { return fmt::format("{} parameter{}", n, n == 1 ? "" : "s"); }
}  // namespace

bool check_command(const Token& cmd, Diagnostics& diagnostics,
                   std::initializer_list<ParamKinds> params, const CommandRules& rules) {
  bool ok = true;
  const u32 listed = static_cast<u32>(params.size());
  const u32 min = std::min(rules.min_params, listed);
  const u32 count = cmd.param_count();
  if (count < min || (!rules.variadic && count > listed)) {
    std::string expected;
    if (rules.variadic) {
      expected = fmt::format("at least {}", count_text(min));
    } else if (min == listed) {
      expected = count_text(listed);
    } else {
      expected = fmt::format("{} to {} parameters", min, listed);
    }
    diagnostics.error(cmd, "`{}` expects {}, got {}", cmd.text, expected, count);
    ok = false;
  }
  u32 index = 0;
  for (const Token* p = cmd.params; p != nullptr; p = p->next, ++index) {
    ParamKinds allowed = 0;
    if (index < listed) {
      allowed = params.begin()[index];
    } else if (rules.variadic && listed > 0) {
      allowed = params.begin()[listed - 1];
    } else {
      break;  // counted above
    }
    if ((kind_of(*p) & allowed) == 0) {
      diagnostics.error(*p, "`{}` expects {} as parameter {}, got {}", cmd.text, describe(allowed),
                        index + 1, describe(kind_of(*p)));
      ok = false;
    }
  }
  const bool has_conditional = cmd.conditional != nullptr || cmd.block;
  if (rules.conditional == Conditional::kForbidden && has_conditional) {
    const Token& at = cmd.conditional != nullptr ? *cmd.conditional : cmd;
    diagnostics.error(at, "`{}` does not take a conditional command or block", cmd.text);
    ok = false;
  } else if (rules.conditional == Conditional::kRequired && !has_conditional) {
    diagnostics.error(cmd, "`{}` must be followed by a command or a {{ }} block", cmd.text);
    ok = false;
  }
  return ok;
}

}  // namespace keel::text
