// keel-fsm: the FSM compiler and simulator (Golden Rules ch. 7). The logic lives in keel/fsm.
//   keel-fsm compile IN -o OUT [--types FILE]     compile FSM source to a binary (atomic write)
//   keel-fsm check IN... [--types FILE]           errors and warnings with locations; the
//                                                 load-time checks across all inputs
//   keel-fsm run IN... --fsm NAME [--events FILE | --event NAME...] [--seed N]
//                                                 simulate: each event's result, state,
//                                                 behaviour bits and every callback
//   keel-fsm dot IN [-o OUT]                      Graphviz of states, transitions and groups
// Inputs are FSM source or compiled files (recognised by their 'KFSM' magic). FSM types the tool
// does not know get behaviour bits in order of first appearance, unless --types describes them.
// Every command takes --max-errors N (default 50, 0: all). The output of compile and dot may not
// be an input, nor may an input be given twice. Inputs must be regular files.
// Exit status: 0 fine, 1 errors in the input, 2 usage or I/O errors.
#include "keel/core/bytes.h"
#include "keel/core/file.h"
#include "keel/fsm/compiler/compiler.h"
#include "keel/fsm/compiler/dot.h"
#include "keel/fsm/compiler/simulator.h"
#include "keel/fsm/library.h"
#include "keel/text/document.h"

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace {

using keel::fsm::CompiledFsms;

constexpr int kInputError = 1;
constexpr int kUsageError = 2;

struct Input {
  std::string path;
  std::unique_ptr<keel::text::Document> doc;  // null for compiled inputs
  std::optional<CompiledFsms> image;
  std::vector<std::string> names;  // of its FSMs
};

keel::usize g_max_errors = keel::text::Diagnostics::kDefaultErrorLimit;

bool is_compiled(const std::string& bytes) {
  return bytes.size() >= 4 && bytes.compare(0, 4, "KFSM") == 0;
}

// Loads one input; prints its diagnostics (warnings too). Returns nullopt on errors, with
// `status` set: kUsageError when the file cannot be read, kInputError for errors in it.
std::optional<Input> load(const std::string& path, const keel::fsm::TypeRegistry& types,
                          int& status) {
  keel::Result<std::string> bytes = keel::text::read_source_file(path);
  if (!bytes) {
    fmt::print(stderr, "{}\n", bytes.error().to_string());
    status = kUsageError;
    return std::nullopt;
  }
  status = kInputError;
  Input in;
  in.path = path;
  if (is_compiled(*bytes)) {
    keel::Result<CompiledFsms> image = CompiledFsms::from_bytes(keel::as_bytes(*bytes), path);
    if (!image) {
      fmt::print(stderr, "{}\n", image.error().to_string());
      return std::nullopt;
    }
    in.image = std::move(*image);
    for (keel::u32 f = 0; f < in.image->fsm_count(); ++f) {
      in.names.emplace_back(in.image->fsm(f).name());
    }
    return in;
  }
  keel::text::Diagnostics diag;
  diag.set_error_limit(g_max_errors);
  in.doc = keel::text::parse(std::move(*bytes), path, diag);
  if (in.doc && in.doc->first() == nullptr) {
    diag.error(keel::SourceLocation::text(path, 0), "no FSM(...) statement (the file is empty)");
  } else if (in.doc) {
    in.image = keel::fsm::compile(in.doc->first(), types, diag);
  }
  if (!diag.empty()) fmt::print(stderr, "{}", in.doc ? diag.render(*in.doc) : diag.render());
  if (!in.image) return std::nullopt;
  for (keel::u32 f = 0; f < in.image->fsm_count(); ++f) {
    in.names.emplace_back(in.image->fsm(f).name());
  }
  return in;
}

// True when `a` and `b` name the same file (an existing one, through links too, or the same
// path): writing one would destroy the other.
bool same_file(const std::string& a, const std::string& b) {
  std::error_code ec;
  if (std::filesystem::equivalent(a, b, ec) && !ec) return true;
  return std::filesystem::absolute(a, ec).lexically_normal() ==
         std::filesystem::absolute(b, ec).lexically_normal();
}

bool load_types(const std::string& path, keel::fsm::TypeRegistry& types) {
  if (path.empty()) return true;
  keel::text::Diagnostics diag;
  const bool ok = types.load_file(path, diag);
  if (!diag.empty()) fmt::print(stderr, "{}", diag.render());
  return ok;
}

// Adds every input to `library` and links; prints problems. With `lenient`, parents that are
// not among the inputs are warnings (check one file of a family alone).
bool link_all(std::vector<Input>& inputs, keel::fsm::FsmLibrary& library, bool lenient) {
  for (keel::usize i = 0; i < inputs.size(); ++i) {
    Input& in = inputs[i];
    if (keel::Status s = library.add(std::move(*in.image)); !s) {
      std::string where;  // the earlier input that has the FSM already
      for (keel::usize j = 0; j < i && where.empty(); ++j) {
        for (const std::string& name : inputs[j].names) {
          if (std::find(in.names.begin(), in.names.end(), name) != in.names.end()) {
            where = fmt::format(" (FSM '{}' comes from {} too)", name, inputs[j].path);
            break;
          }
        }
      }
      fmt::print(stderr, "{}: error: {}{}\n", in.path, s.error().message(), where);
      return false;
    }
  }
  if (library.link()) return true;
  using Kind = keel::fsm::LinkProblem::Kind;
  bool only_missing = lenient;
  for (const keel::fsm::LinkProblem& p : library.problems()) {
    if (p.kind == Kind::kInvalid) only_missing = false;
  }
  for (const keel::fsm::LinkProblem& p : library.problems()) {
    fmt::print(stderr, "{}: {}\n", only_missing ? "warning" : "error", p.message);
  }
  if (only_missing) {
    fmt::print(stderr, "note: give the parents' files too to check across FSMs\n");
  }
  return only_missing;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Keel FSM tools: compile, check, simulate and draw finite-state machines"};
  app.require_subcommand(1);
  std::string types_file;
  const std::string types_help = "FSM type descriptions (behaviour names in bit order)";

  std::string compile_in;
  std::string compile_out;
  CLI::App* compile = app.add_subcommand("compile", "compile FSM source to a binary file");
  compile->add_option("IN", compile_in, "FSM source")->required();
  compile->add_option("-o,--output", compile_out, "binary output (written atomically)")->required();
  compile->add_option("--types", types_file, types_help);

  std::vector<std::string> check_in;
  CLI::App* check =
      app.add_subcommand("check", "report errors and warnings; run the load-time checks");
  check->add_option("IN", check_in, "FSM sources or binaries (parents included)")->required();
  check->add_option("--types", types_file, types_help);

  std::vector<std::string> run_in;
  std::string fsm_name;
  std::string events_file;
  std::vector<std::string> event_names;
  keel::u64 seed = 1;
  CLI::App* run = app.add_subcommand("run", "simulate one FSM on a list of events");
  run->add_option("IN", run_in, "FSM sources or binaries (parents included)")->required();
  run->add_option("--fsm", fsm_name, "the FSM to run")->required();
  CLI::Option* events_opt =
      run->add_option("--events", events_file, "one event name per line, # comments");
  run->add_option("--event", event_names, "an event (repeatable)")->excludes(events_opt);
  run->add_option("--seed", seed, "seed of IfRandom's random source");
  run->add_option("--types", types_file, types_help);

  std::string dot_in;
  std::string dot_out;
  CLI::App* dot = app.add_subcommand("dot", "Graphviz of states, transitions and groups");
  dot->add_option("IN", dot_in, "FSM source")->required();
  dot->add_option("-o,--output", dot_out, "output file (default: standard output)");
  dot->add_option("--types", types_file, types_help);

  for (CLI::App* sub : {compile, check, run, dot}) {
    sub->add_option("--max-errors", g_max_errors,
                    "errors printed per file before the rest are only counted (0: all)");
  }
  CLI11_PARSE(app, argc, argv);

  keel::fsm::TypeRegistry types(keel::fsm::UnknownTypes::kAutoAssign);
  if (!load_types(types_file, types)) return kUsageError;

  int status = 0;
  if (*compile) {
    if (same_file(compile_in, compile_out)) {
      fmt::print(stderr, "keel-fsm: the output {} is the input; give another -o\n", compile_out);
      return kUsageError;
    }
    std::optional<Input> in = load(compile_in, types, status);
    if (!in) return status;
    if (keel::Status s = in->image->save_file(compile_out); !s) {
      fmt::print(stderr, "{}\n", s.error().to_string());
      return kUsageError;
    }
    fmt::print("{}: {} FSM{} compiled to {} ({} bytes)\n", compile_in, in->image->fsm_count(),
               in->image->fsm_count() == 1 ? "" : "s", compile_out, in->image->words().size() * 4);
    return 0;
  }

  if (*check || *run) {
    std::vector<Input> inputs;
    int failed = 0;
    const std::vector<std::string>& paths = *check ? check_in : run_in;
    for (keel::usize i = 0; i < paths.size(); ++i) {
      for (keel::usize j = 0; j < i; ++j) {
        if (same_file(paths[i], paths[j])) {
          fmt::print(stderr, "keel-fsm: {} is given twice (as {} before)\n", paths[i], paths[j]);
          return kUsageError;
        }
      }
    }
    for (const std::string& path : paths) {
      std::optional<Input> in = load(path, types, status);
      if (in) {
        inputs.push_back(std::move(*in));
      } else {
        failed = std::max(failed, status);
      }
    }
    if (failed != 0) return failed;
    keel::usize count = 0;
    for (const Input& in : inputs) count += in.image->fsm_count();
    keel::fsm::FsmLibrary library;
    if (!link_all(inputs, library, check->parsed())) return kInputError;
    if (*check) {
      fmt::print("{} FSM{} OK\n", count, count == 1 ? "" : "s");
      return 0;
    }
    const keel::Result<const keel::fsm::FsmDef*> fsm = library.get(fsm_name);
    if (!fsm) {
      fmt::print(stderr, "error: {}\n", fsm.error().message());
      return kUsageError;
    }
    if (!events_file.empty()) {
      keel::Result<std::string> text = keel::text::read_source_file(events_file);
      if (!text) {
        fmt::print(stderr, "{}\n", text.error().to_string());
        return kUsageError;
      }
      event_names = keel::fsm::Simulator::parse_events(*text);
    }
    keel::fsm::Simulator sim(
        **fsm, [](std::string_view line) { fmt::print("{}\n", line); }, seed);
    if (keel::Status s = sim.start(); !s) {
      fmt::print(stderr, "error: {}\n", s.error().message());
      return kInputError;
    }
    for (const std::string& e : event_names) sim.event(e);
    return 0;
  }

  // dot: compile first so errors are reported, then draw from the source tree.
  if (!dot_out.empty() && same_file(dot_in, dot_out)) {
    fmt::print(stderr, "keel-fsm: the output {} is the input; give another -o\n", dot_out);
    return kUsageError;
  }
  std::optional<Input> in = load(dot_in, types, status);
  if (!in) return status;
  if (!in->doc) {
    fmt::print(stderr, "error: dot needs FSM source (groups do not survive compilation)\n");
    return kUsageError;
  }
  const std::string graph = keel::fsm::to_dot(in->doc->first());
  if (dot_out.empty()) {
    fmt::print("{}", graph);
  } else if (keel::Status s = keel::write_file_atomic(dot_out, graph); !s) {
    fmt::print(stderr, "{}\n", s.error().to_string());
    return kUsageError;
  }
  return 0;
}
