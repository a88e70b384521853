// keel-script: compile, check, disassemble and run Keel scripts (Golden Rules ch. 4).
//   keel-script compile IN -o OUT [--no-debug] [--skip-other]   source -> compiled library
//   keel-script check IN [--skip-other]                          errors and warnings only
//   keel-script disasm FILE [--no-bytes]                         FILE: source or compiled
//   keel-script run IN [--script NAME] [--frames N] [--seconds-per-frame S]
//                      [--set name=value]... [--trace] [--budget N]
// The commands available are the language's built-ins plus PRINT("text"), SET(var, value) and
// ADD(var, value). Every command takes --max-errors N (default 50, 0: all); inputs must be regular
// files, and compile refuses an output that is its input. Exit status: 0 fine, 1 errors in the
// script (or the run failed), 2 usage or I/O error. The logic lives in keel/script.
#include "keel/core/bytes.h"
#include "keel/core/file.h"
#include "keel/script/basic_commands.h"
#include "keel/script/compiler/compiler.h"
#include "keel/script/compiler/disassembler.h"
#include "keel/script/library.h"
#include "keel/script/machine.h"
#include "keel/text/document.h"

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace {

namespace script = keel::script;
namespace text = keel::text;

keel::usize g_max_errors = text::Diagnostics::kDefaultErrorLimit;

// True when `a` and `b` name the same file (an existing one, through links too, or the same
// path): writing one would destroy the other.
bool same_file(const std::string& a, const std::string& b) {
  std::error_code ec;
  if (std::filesystem::equivalent(a, b, ec) && !ec) return true;
  return std::filesystem::absolute(a, ec).lexically_normal() ==
         std::filesystem::absolute(b, ec).lexically_normal();
}

struct Loaded {
  script::Library library;
  bool from_source = false;
};

bool is_compiled(const std::string& bytes) {
  return bytes.size() >= 4 && bytes.compare(0, 4, "KSCR") == 0;
}

// Reads a source file (compiling it) or a compiled library. Prints diagnostics; nullopt on error
// with `status` set to the exit code.
std::optional<Loaded> load(const std::string& path, const script::CommandSet& commands,
                           const script::CompileOptions& options, int& status) {
  auto bytes = text::read_source_file(path);
  if (!bytes) {
    fmt::print(stderr, "keel-script: {}\n", bytes.error().to_string());
    status = 2;
    return std::nullopt;
  }
  if (is_compiled(*bytes)) {
    auto lib = script::Library::from_bytes(keel::as_bytes(*bytes), path);
    if (!lib) {
      fmt::print(stderr, "keel-script: {}\n", lib.error().to_string());
      status = 1;
      return std::nullopt;
    }
    return Loaded{std::move(*lib), false};
  }
  text::Diagnostics diag;
  diag.set_error_limit(g_max_errors);
  auto doc = text::parse(std::move(*bytes), path, diag);
  std::optional<script::Library> lib;
  if (doc) {
    script::CompileOptions with_source = options;
    with_source.source = doc.get();
    lib = script::compile(doc->first(), commands, diag, with_source);
  }
  if (!diag.empty()) {
    const text::Document* docs[] = {doc.get()};
    fmt::print(stderr, "{}", doc ? diag.render(docs) : diag.render());
  }
  if (!lib) {
    status = 1;
    return std::nullopt;
  }
  return Loaded{std::move(*lib), true};
}

std::string name_of(keel::Hash hash, const script::Library& lib) {
  if (auto n = lib.symbol(hash)) return std::string(*n);
  return fmt::format("#{:08X}", hash);
}

std::string script_name(const script::Script* s) {
  if (s == nullptr) return "?";
  return s->name.empty() ? fmt::format("#{:08X}", s->name_hash) : s->name;
}

struct RunOptions {
  std::string script;
  int frames = 300;
  double seconds_per_frame = 1.0 / 60.0;
  std::vector<std::string> sets;
  bool trace = false;
  keel::u32 budget = 1000;
};

int run(const std::string& path, const RunOptions& options) {
  keel::u64 current_frame = 0;
  script::CommandSet commands = script::default_commands();
  const script::Library* library = nullptr;
  const keel::Status print_added =
      script::add_basic_commands(commands, [&](const script::Call& call, std::string_view t) {
        const auto pos = call.machine().position(call.instance());
        fmt::print("frame {}: [{}] {}\n", call.frame(), script_name(pos ? pos->script : nullptr),
                   t);
      });
  if (!print_added) {
    fmt::print(stderr, "keel-script: {}\n", print_added.error().to_string());
    return 2;
  }
  int status = 0;
  auto loaded = load(path, commands, {}, status);
  if (!loaded) return status;
  library = &loaded->library;
  if (library->empty()) {
    fmt::print(stderr, "keel-script: {} holds no scripts\n", path);
    return 1;
  }
  const script::Script* start =
      options.script.empty() ? &library->scripts().front() : library->find(options.script);
  if (start == nullptr) {
    fmt::print(stderr, "keel-script: no script named \"{}\" in {}\n", options.script, path);
    return 1;
  }

  script::Machine machine(commands, {.command_budget = options.budget});
  if (auto st = machine.add_library(*library); !st) {
    fmt::print(stderr, "keel-script: {}\n", st.error().to_string());
    return 1;
  }
  if (options.trace) {
    machine.set_trace([&](const script::TraceEvent& e) {
      const std::string where =
          fmt::format("{}:{}", script_name(e.script),
                      e.line != 0 ? fmt::format("{}", e.line) : fmt::format("@{:04X}", e.offset));
      switch (e.kind) {
        case script::TraceKind::kCommand:
          fmt::print("frame {}:   {:<18} {}{}\n", e.frame, where,
                     std::string(2 * static_cast<std::size_t>(e.depth), ' '),
                     script::format_command(e.command, commands, library));
          break;
        case script::TraceKind::kBudget:
          fmt::print("frame {}:   {:<18} used its budget of {} commands; continues next frame\n",
                     e.frame, where, options.budget);
          break;
        default: break;
      }
    });
  }
  auto id = machine.start(start->name_hash);
  if (!id) {
    fmt::print(stderr, "keel-script: {}\n", id.error().to_string());
    return 1;
  }
  for (const std::string& assignment : options.sets) {
    const auto eq = assignment.find('=');
    keel::s32 value = 0;
    const char* first = assignment.data() + (eq == std::string::npos ? 0 : eq + 1);
    const char* last = assignment.data() + assignment.size();
    if (*first == '+') ++first;
    const auto parsed = std::from_chars(first, last, value);
    if (eq == std::string::npos || eq == 0 || parsed.ec != std::errc() || parsed.ptr != last) {
      fmt::print(stderr, "keel-script: --set expects name=integer, got \"{}\"\n", assignment);
      return 2;
    }
    machine.set_variable(*id, assignment.substr(0, eq), value);
  }

  fmt::print("running \"{}\" from {}: up to {} frames of {:.4f} s\n", script_name(start), path,
             options.frames, options.seconds_per_frame);
  script::InstanceState state = machine.state(*id);
  keel::u64 commands_run = 0;
  for (int f = 0; f < options.frames; ++f) {
    machine.update(options.seconds_per_frame);
    current_frame = machine.frame();
    commands_run += machine.last_frame().commands;
    const script::InstanceState now = machine.state(*id);
    if (now == script::InstanceState::kWaiting && machine.last_frame().commands > 0 &&
        options.trace) {
      fmt::print("frame {}:   waiting\n", current_frame);
    }
    state = now;
    if (state == script::InstanceState::kFinished || state == script::InstanceState::kFailed) {
      break;
    }
  }
  if (state == script::InstanceState::kFinished) {
    fmt::print("frame {}: finished\n", current_frame);
  } else if (state == script::InstanceState::kFailed) {
    fmt::print("frame {}: FAILED: {}\n", current_frame, machine.error(*id)->to_string());
  } else {
    fmt::print("frame {}: still {} after {} frames\n", current_frame, to_string(state),
               options.frames);
  }
  auto vars = machine.variables(*id);
  std::vector<std::string> shown;
  shown.reserve(vars.size());
  for (const auto& [hash, value] : vars)
    shown.push_back(fmt::format("{}={}", name_of(hash, *library), value));
  std::sort(shown.begin(), shown.end());
  fmt::print("{} commands run; variables:{}{}\n", commands_run, shown.empty() ? " (none)" : " ",
             fmt::join(shown, " "));
  return state == script::InstanceState::kFailed ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Keel scripts: compile, check, disassemble and run"};
  app.require_subcommand(1);

  std::string in;
  std::string out;
  bool no_debug = false;
  bool skip_other = false;
  CLI::App* compile = app.add_subcommand("compile", "compile a script source file");
  compile->add_option("IN", in, "script source")->required();
  compile->add_option("-o,--output", out, "compiled library to write")->required();
  compile->add_flag("--no-debug", no_debug, "leave out line tables and source lines");
  compile->add_flag("--skip-other", skip_other, "ignore statements other than SCRIPT(...)");

  CLI::App* check = app.add_subcommand("check", "report errors and warnings, write nothing");
  check->add_option("IN", in, "script source")->required();
  check->add_flag("--skip-other", skip_other, "ignore statements other than SCRIPT(...)");

  bool no_bytes = false;
  CLI::App* disasm = app.add_subcommand("disasm", "list the bytecode beside the source lines");
  disasm->add_option("FILE", in, "script source or compiled library")->required();
  disasm->add_flag("--no-bytes", no_bytes, "leave out the hex bytes");

  RunOptions run_options;
  CLI::App* run_cmd = app.add_subcommand("run", "run a script with PRINT, SET and ADD");
  run_cmd->add_option("IN", in, "script source or compiled library")->required();
  run_cmd->add_option("--script", run_options.script, "script to start (default: the first)");
  run_cmd->add_option("--frames", run_options.frames, "frames to run at most")
      ->check(CLI::PositiveNumber);
  run_cmd->add_option("--seconds-per-frame", run_options.seconds_per_frame, "frame time")
      ->check(CLI::PositiveNumber);
  run_cmd->add_option("--set", run_options.sets, "name=value: set a variable before the start");
  run_cmd->add_flag("--trace", run_options.trace, "print every command as it runs");
  run_cmd->add_option("--budget", run_options.budget, "commands per frame at most")
      ->check(CLI::PositiveNumber);

  for (CLI::App* sub : {compile, check, disasm, run_cmd}) {
    sub->add_option("--max-errors", g_max_errors,
                    "errors printed before the rest are only counted (0: all)");
  }
  CLI11_PARSE(app, argc, argv);

  if (*run_cmd) return run(in, run_options);

  script::CommandSet commands = script::default_commands();
  if (const keel::Status st = script::add_basic_commands(commands, nullptr); !st) {
    fmt::print(stderr, "keel-script: {}\n", st.error().to_string());
    return 2;
  }
  const script::CompileOptions options{.skip_other_statements = skip_other,
                                       .debug_info = !no_debug};
  int status = 0;
  if (*compile) {
    if (same_file(in, out)) {
      fmt::print(stderr, "keel-script: the output {} is the input; give another -o\n", out);
      return 2;
    }
    auto bytes_in = text::read_source_file(in);
    if (bytes_in && is_compiled(*bytes_in)) {
      fmt::print(stderr, "keel-script: {} is already compiled\n", in);
      return 2;
    }
    auto loaded = load(in, commands, options, status);
    if (!loaded) return status;
    const keel::ByteBuffer bytes = loaded->library.to_bytes();
    if (auto st = keel::write_file_atomic(out, bytes); !st) {
      fmt::print(stderr, "keel-script: {}\n", st.error().to_string());
      return 2;
    }
    fmt::print("{}: {} script{}, {} bytes -> {}\n", in, loaded->library.size(),
               loaded->library.size() == 1 ? "" : "s", bytes.size(), out);
    return 0;
  }
  auto loaded = load(in, commands, options, status);
  if (!loaded) return status;
  if (*check) {
    fmt::print("{}: {} script{}, no errors\n", in, loaded->library.size(),
               loaded->library.size() == 1 ? "" : "s");
    return 0;
  }
  fmt::print("{}", script::disassemble(loaded->library, commands, {.bytes = !no_bytes}));
  return 0;
}
