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
  explicit LoopRun(const Library& library, bool debug_loop)
      : commands(testing::probe_commands(log)),
        machine(std::make_unique<Machine>(
            commands, MachineOptions{.command_budget = 40, .max_call_depth = 3})) {
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

TEST(ScriptLoops, ThreadedAndGenericLoopsAgreeOnRandomScripts) {
  testing::ProbeLog compile_log;  // the compiler only needs the signatures
  const CommandSet reference_commands = testing::probe_commands(compile_log);
  int compared = 0;
  for (u32 seed = 1; seed <= 300; ++seed) {
    ScriptGenerator generator(seed);
    const int scripts = 1 + static_cast<int>(seed % 4);
    const std::string source = generator.library(scripts);
    text::Diagnostics diag;
    auto library = compile_text(source, reference_commands, diag, {.warn_unknown_targets = false});
    ASSERT_TRUE(library) << source << diag.render();
    SCOPED_TRACE(source);

    LoopRun fast(*library, false);
    LoopRun generic(*library, true);
    std::vector<InstanceId> ids;
    for (int s = 0; s < scripts; ++s) {
      const std::string name = fmt::format("s{}", s);
      const auto a = fast.machine->start(name);
      const auto b = generic.machine->start(name);
      ASSERT_TRUE(a && b);
      ASSERT_EQ(*a, *b);
      fast.machine->set_variable(*a, "a", s);
      generic.machine->set_variable(*b, "a", s);
      ids.push_back(*a);
    }
    for (int frame = 0; frame < 25; ++frame) {
      fast.machine->update(1.0 / 60.0);
      generic.machine->update(1.0 / 60.0);
      ASSERT_EQ(fast.log.runs, generic.log.runs) << "frame " << frame + 1;
      const FrameStats& x = fast.machine->last_frame();
      const FrameStats& y = generic.machine->last_frame();
      ASSERT_EQ(x.commands, y.commands) << "frame " << frame + 1;
      ASSERT_EQ(x.instances_run, y.instances_run);
      ASSERT_EQ(x.budget_hits, y.budget_hits);
      ASSERT_EQ(x.failures, y.failures);
      for (InstanceId id : ids) {
        ASSERT_EQ(describe(*fast.machine, id), describe(*generic.machine, id))
            << "frame " << frame + 1;
        const auto p = fast.machine->position(id);
        const auto q = generic.machine->position(id);
        ASSERT_EQ(p.has_value(), q.has_value());
        if (p) {
          ASSERT_EQ(p->offset, q->offset);
          ASSERT_EQ(p->depth, q->depth);
        }
      }
      compared += static_cast<int>(x.commands);
    }
  }
  EXPECT_GT(compared, 10'000);  // the generator really runs scripts
}

}  // namespace
}  // namespace keel::script
