// The Machine has two interpreter loops: the threaded one for validated scripts with debugging
// off (machine_fast.cpp) and the generic one that tracing, breakpoints and unvalidated bytes use
// (machine.cpp). This test runs random valid scripts through both and requires identical
// behaviour, frame by frame: probe calls, variables, states, errors and frame statistics.
#include "keel/core/hash.h"
#include "keel/script/machine.h"
#include "keel/script/testing/script_testing.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <string>
#include <vector>

namespace keel::script {
namespace {

using testing::compile_text;

class ScriptGenerator {
 public:
  explicit ScriptGenerator(u32 seed) : rng_(seed) {}

  std::string library(int scripts) {
    std::string out;
    for (int s = 0; s < scripts; ++s) {
      out += fmt::format("SCRIPT(\"s{}\") {{\n", s);
      const int statements = pick(1, 7);
      for (int i = 0; i < statements; ++i) out += "  " + statement(scripts, 0) + "\n";
      out += "}\n";
    }
    return out;
  }

 private:
  int pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  std::string variable() { return pick(0, 1) == 0 ? "a" : "b"; }

  std::string statement(int scripts, int depth) {
    switch (pick(0, depth < 2 ? 13 : 11)) {
      case 0: return "P1();";
      case 1: return "P2();";
      case 2: return "BREAK();";
      case 3: return fmt::format("PAUSE({});", pick(-1, 3));
      case 4: return fmt::format("PAUSEFRAMES({});", variable());
      case 5: return fmt::format("PAUSESECONDS({});", pick(0, 4) * 0.02);
      case 6: return fmt::format("ADD({}, {});", variable(), pick(-2, 3));
      case 7: return fmt::format("ADD({}, {});", variable(), variable());
      case 8: return fmt::format("SET({}, {});", variable(), pick(-1, 4));
      case 9: return fmt::format("SET({}, {});", variable(), variable());
      case 10: return fmt::format("CHANGESCRIPT(\"s{}\");", pick(0, scripts - 1));
      case 11: return fmt::format("CALLSCRIPT(\"s{}\");", pick(0, scripts - 1));
      case 12: {
        static constexpr const char* kComparators[] = {"EQUALS",    "NOTEQUAL",    "LESSTHAN",
                                                       "LESSEQUAL", "GREATERTHAN", "GREATEREQUAL"};
        return fmt::format("IF({}, {}, {}) {}", variable(), kComparators[pick(0, 5)], pick(-1, 3),
                           statement(scripts, depth + 1));
      }
      default: {
        std::string block = fmt::format("IF({}, GREATEREQUAL, {}) {{ ", variable(), variable());
        const int n = pick(1, 3);
        for (int i = 0; i < n; ++i) block += statement(scripts, depth + 1) + " ";
        return block + "}";
      }
    }
  }

  std::mt19937 rng_;
};

struct LoopRun {
  LoopRun(const Library& library, bool debug_loop, bool check_every_command = false)
      : commands(testing::probe_commands(log)),
        machine(std::make_unique<Machine>(
            commands, MachineOptions{.command_budget = 40,
                                     .max_call_depth = 3,
                                     .check_every_command = check_every_command})) {
    EXPECT_TRUE(machine->add_library(library));
    if (debug_loop) machine->set_trace([](const TraceEvent&) {});
  }
  testing::ProbeLog log;
  CommandSet commands;
  std::unique_ptr<Machine> machine;
};

std::string describe(const Machine& m, InstanceId id) {
  const Error* error = m.error(id);
  return fmt::format("{} a={} b={} {}", to_string(m.state(id)), m.variable(id, "a"),
                     m.variable(id, "b"), error != nullptr ? error->to_string() : "");
}

// Runs both machines frame by frame and requires the same behaviour; returns commands compared.
int compare_runs(LoopRun& x_run, LoopRun& y_run, int scripts) {
  std::vector<InstanceId> xs;
  std::vector<InstanceId> ys;
  for (int s = 0; s < scripts; ++s) {
    const std::string name = fmt::format("s{}", s);
    const auto a = x_run.machine->start(name);
    const auto b = y_run.machine->start(name);
    EXPECT_TRUE(a && b);
    if (!a || !b) return 0;
    EXPECT_EQ(a->index, b->index);
    x_run.machine->set_variable(*a, "a", s);
    y_run.machine->set_variable(*b, "a", s);
    xs.push_back(*a);
    ys.push_back(*b);
  }
  int compared = 0;
  for (int frame = 0; frame < 25; ++frame) {
    x_run.machine->update(1.0 / 60.0);
    y_run.machine->update(1.0 / 60.0);
    EXPECT_EQ(x_run.log.runs, y_run.log.runs) << "frame " << frame + 1;
    const FrameStats& x = x_run.machine->last_frame();
    const FrameStats& y = y_run.machine->last_frame();
    EXPECT_EQ(x.commands, y.commands) << "frame " << frame + 1;
    EXPECT_EQ(x.instances_run, y.instances_run);
    EXPECT_EQ(x.budget_hits, y.budget_hits);
    EXPECT_EQ(x.failures, y.failures);
    for (usize i = 0; i < xs.size(); ++i) {
      EXPECT_EQ(describe(*x_run.machine, xs[i]), describe(*y_run.machine, ys[i]))
          << "frame " << frame + 1;
      const auto p = x_run.machine->position(xs[i]);
      const auto q = y_run.machine->position(ys[i]);
      EXPECT_EQ(p.has_value(), q.has_value());
      if (p && q) {
        EXPECT_EQ(p->offset, q->offset);
        EXPECT_EQ(p->depth, q->depth);
      }
    }
    compared += static_cast<int>(x.commands);
    if (::testing::Test::HasFailure()) return compared;
  }
  return compared;
}

TEST(ScriptLoops, ThreadedAndGenericLoopsAgreeOnRandomScripts) {
  testing::ProbeLog compile_log;  // the compiler only needs the signatures
  const CommandSet reference_commands = testing::probe_commands(compile_log);
  int compared = 0;
  for (u32 seed = 1; seed <= 300 && !HasFailure(); ++seed) {
    ScriptGenerator generator(seed);
    const int scripts = 1 + static_cast<int>(seed % 4);
    const std::string source = generator.library(scripts);
    text::Diagnostics diag;
    auto library = compile_text(source, reference_commands, diag, {.warn_unknown_targets = false});
    ASSERT_TRUE(library) << source << diag.render();
    SCOPED_TRACE(source);
    // Validated scripts without checks (debugging off) against the debugging loop.
    LoopRun fast(*library, false);
    LoopRun generic(*library, true);
    compared += compare_runs(fast, generic, scripts);
    // ... and against the checked loop (every command checked, as for unvalidated bytes).
    LoopRun fast_again(*library, false);
    LoopRun checked(*library, false, true);
    compared += compare_runs(fast_again, checked, scripts);
  }
  EXPECT_GT(compared, 20'000);  // the generator really runs scripts
}

// Scripts that do not validate (random bytes changed after compiling) run in the checked loop:
// with debugging off and on it must behave the same, stop at the first bad command with an
// error, and never crash.
TEST(ScriptLoops, CheckedLoopsAgreeOnCorruptedScripts) {
  testing::ProbeLog compile_log;
  const CommandSet reference_commands = testing::probe_commands(compile_log);
  int compared = 0;
  int unvalidated = 0;
  for (u32 seed = 1; seed <= 300 && !HasFailure(); ++seed) {
    ScriptGenerator generator(seed);
    const int scripts = 1 + static_cast<int>(seed % 4);
    const std::string source = generator.library(scripts);
    text::Diagnostics diag;
    auto compiled = compile_text(source, reference_commands, diag, {.warn_unknown_targets = false});
    ASSERT_TRUE(compiled) << source << diag.render();
    std::mt19937 rng(seed);
    Library library;
    for (const Script& original : compiled->scripts()) {
      Script s = original;
      for (int flips = 0; flips < 2 && !s.code.empty(); ++flips) {
        const usize at = std::uniform_int_distribution<usize>(0, s.code.size() - 1)(rng);
        s.code[at] = static_cast<std::byte>(std::uniform_int_distribution<int>(0, 255)(rng));
      }
      unvalidated += validate_stream(s.code, &reference_commands) ? 0 : 1;
      ASSERT_TRUE(library.add_script(std::move(s)));
    }
    SCOPED_TRACE(source);
    LoopRun fast(library, false);
    LoopRun generic(library, true);
    compared += compare_runs(fast, generic, scripts);
  }
  EXPECT_GT(unvalidated, 200);  // most libraries really have bad scripts
  EXPECT_GT(compared, 5'000);
}

}  // namespace
}  // namespace keel::script
