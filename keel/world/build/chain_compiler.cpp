#include "keel/world/build/chain_compiler.h"

#include "keel/text/signature.h"

#include <cmath>
#include <string>

namespace keel::world {
namespace {

using text::kName;
using text::kNumber;
using text::kString;
using text::Token;

constexpr double kMaxCount = 1e6;
constexpr double kMaxCoordinate = 1e9;

bool whole_count(const Token& t, double min, text::Diagnostics& diag) {
  if (t.number >= min && t.number <= kMaxCount && t.number == std::floor(t.number)) return true;
  diag.error(t, "expected a whole number from {} to {}, got {}", min, kMaxCount, t.number);
  return false;
}

bool coordinate(const Token* t, text::Diagnostics& diag) {
  if (t == nullptr || std::fabs(t->number) <= kMaxCoordinate) return true;
  diag.error(*t, "a position or spread is at most {} in size", kMaxCoordinate);
  return false;
}

bool read_spawn(const Token& a, ChainAction& out, text::Diagnostics& diag) {
  if (!text::check_command(a, diag, {kString, kNumber, kNumber, kNumber, kNumber},
                           {.min_params = 2})) {
    return false;
  }
  if (a.param_count() == 3) {
    diag.error(*a.param(2), "`Spawn` takes a position as two numbers: Spawn(\"name\", n, x, y)");
    return false;
  }
  if (!whole_count(*a.param(1), 1, diag)) return false;
  if (!coordinate(a.param(2), diag) || !coordinate(a.param(3), diag) ||
      !coordinate(a.param(4), diag)) {
    return false;
  }
  out.kind = ChainActionKind::kSpawn;
  out.name = std::string(a.param(0)->text);
  out.count = static_cast<u32>(a.param(1)->number);
  if (a.param_count() >= 4) {
    out.at = true;
    out.position = {static_cast<f32>(a.param(2)->number), static_cast<f32>(a.param(3)->number)};
  }
  if (a.param_count() == 5) {
    if (a.param(4)->number < 0) {
      diag.error(*a.param(4), "a spawn spread is a radius (>= 0)");
      return false;
    }
    out.spread = static_cast<f32>(a.param(4)->number);
  }
  return true;
}

bool read_action(const Token& a, ChainAction& out, text::Diagnostics& diag) {
  bool ok = true;
  if (a.is("Spawn")) {
    ok = read_spawn(a, out, diag);
  } else if (a.is("Call")) {
    ok = text::check_command(a, diag, {kString});
    if (ok) {
      out.kind = ChainActionKind::kCall;
      out.name = std::string(a.param(0)->text);
    }
  } else {
    diag.error(a, "unknown chain action `{}` (Spawn, Call)", a.text);
    return false;
  }
  if (ok && out.name.empty()) {
    diag.error(*a.param(0), "`{}` needs a name", a.text);
    ok = false;
  }
  return ok;
}

bool read_condition(const Token& c, ChainCondition& out, text::Diagnostics& diag) {
  if (c.is("Dead")) {
    if (!text::check_command(c, diag, {kName | kNumber})) return false;
    const Token& n = *c.param(0);
    if (n.is_name() && !n.is("all")) {
      diag.error(n, "`Dead` takes `all` or a number");
      return false;
    }
    if (n.is_number() && !whole_count(n, 1, diag)) return false;
    out.kind = ChainConditionKind::kDead;
    out.count = n.is_number() ? static_cast<u32>(n.number) : 0;
    return true;
  }
  if (c.is("Time")) {
    if (!text::check_command(c, diag, {kNumber})) return false;
    if (!(c.param(0)->number >= 0 && c.param(0)->number <= 1e7)) {
      diag.error(*c.param(0), "`Time` takes seconds from 0 to 1e7");
      return false;
    }
    out.kind = ChainConditionKind::kTime;
    out.seconds = static_cast<f32>(c.param(0)->number);
    return true;
  }
  if (c.is("Check")) {
    if (!text::check_command(c, diag, {kString})) return false;
    if (c.param(0)->text.empty()) {
      diag.error(*c.param(0), "`Check` needs the name of a game predicate");
      return false;
    }
    out.kind = ChainConditionKind::kCheck;
    out.name = std::string(c.param(0)->text);
    return true;
  }
  diag.error(c, "unknown chain condition `{}` (Dead, Time, Check)", c.text);
  return false;
}

bool read_actions(const Token& part, std::vector<ChainAction>& out, text::Diagnostics& diag) {
  if (!text::check_command(part, diag, {}, {.conditional = text::Conditional::kRequired})) {
    return false;
  }
  bool ok = true;
  for (const Token& a : text::chain(part.conditional)) {
    ChainAction action;
    if (read_action(a, action, diag)) {
      out.push_back(std::move(action));
    } else {
      ok = false;
    }
  }
  return ok;
}

bool read_until(const Token& part, ChainStep& step, bool& seen, text::Diagnostics& diag) {
  if (!text::check_command(part, diag, {}, {.conditional = text::Conditional::kRequired})) {
    return false;
  }
  if (seen) {
    diag.error(part, "a step has one end condition (`Until`)");
    return false;
  }
  seen = true;
  const Token& c = *part.conditional;
  if (c.next != nullptr) {
    diag.error(*c.next, "`Until` takes one condition");
    return false;
  }
  return read_condition(c, step.until, diag);
}

bool check_dead_count(const Token& at, const ChainStep& step, text::Diagnostics& diag) {
  if (step.until.kind != ChainConditionKind::kDead || step.until.count == 0) return true;
  u64 spawned = 0;
  for (const ChainAction& a : step.start) {
    if (a.kind == ChainActionKind::kSpawn) spawned += a.count;
  }
  if (step.until.count <= spawned) return true;
  diag.error(at, "`Dead({})` can never hold: the step spawns {}", step.until.count, spawned);
  return false;
}

bool read_step(const Token& s, ChainStep& step, text::Diagnostics& diag) {
  if (!text::check_command(s, diag, {kString},
                           {.min_params = 0, .conditional = text::Conditional::kRequired})) {
    return false;
  }
  if (s.param_count() == 1) step.name = std::string(s.param(0)->text);
  bool ok = true;
  bool seen_until = false;
  const Token* until_at = nullptr;
  for (const Token& part : text::chain(s.conditional)) {
    if (part.is("Start")) {
      ok = read_actions(part, step.start, diag) && ok;
    } else if (part.is("End")) {
      ok = read_actions(part, step.end, diag) && ok;
    } else if (part.is("Until")) {
      ok = read_until(part, step, seen_until, diag) && ok;
      until_at = &part;
    } else {
      diag.error(part, "unknown part of a step `{}` (Start, Until, End)", part.text);
      ok = false;
    }
  }
  if (ok && until_at != nullptr) ok = check_dead_count(*until_at->conditional, step, diag);
  return ok;
}

}  // namespace

std::optional<ChainDef> compile_chain(const Token& cmd, text::Diagnostics& diag) {
  if (!text::check_command(cmd, diag, {kString}, {.conditional = text::Conditional::kRequired})) {
    return std::nullopt;
  }
  ChainDef chain;
  chain.name = std::string(cmd.param(0)->text);
  bool ok = true;
  if (chain.name.empty()) {
    diag.error(*cmd.param(0), "an event chain needs a name");
    ok = false;
  }
  for (const Token& s : text::chain(cmd.conditional)) {
    if (!s.is("Step")) {
      diag.error(s, "a chain holds `Step` statements, not `{}`", s.text);
      ok = false;
      continue;
    }
    ChainStep step;
    if (read_step(s, step, diag)) {
      chain.steps.push_back(std::move(step));
    } else {
      ok = false;
    }
  }
  if (ok && chain.steps.empty()) {
    diag.error(cmd, "event chain `{}` has no steps", chain.name);
    ok = false;
  }
  if (!ok) return std::nullopt;
  return chain;
}

}  // namespace keel::world
