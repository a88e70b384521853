// A shipping game's view of Keel's languages: this program links the runtimes only (pack loader,
// script VM, FSM runtime, core) - no text parser, no compiler, no disassembler. It loads the
// sample data file that keel-build made (data/sample.kproj), runs the guard's script until it
// flees, and drives the door's FSM through a use. The CTest `runtime_links_no_parser` checks
// the linked binary for parser and compiler symbols.
//
//   keel-runtime-only <data file>     prints what happens; exit code 0 when it all behaved
#include "keel/core/error.h"
#include "keel/fsm/compiled.h"
#include "keel/fsm/environment.h"
#include "keel/fsm/functions.h"
#include "keel/fsm/instance.h"
#include "keel/fsm/library.h"
#include "keel/pack/format.h"
#include "keel/pack/loader.h"
#include "keel/script/basic_commands.h"
#include "keel/script/commands.h"
#include "keel/script/library.h"
#include "keel/script/machine.h"

#include <fmt/format.h>

#include <cstdio>
#include <string>
#include <utility>
#include <vector>

namespace {

using keel::Result;

int fail(std::string_view what) {
  std::fprintf(stderr, "keel-runtime-only: %.*s\n", static_cast<int>(what.size()), what.data());
  return 1;
}

Result<keel::pack::LoadedPack> load(const char* path) {
  keel::pack::Loader loader;
  loader.register_type(
      keel::pack::type_hash("Script"),
      [](keel::pack::SetupContext& ctx) -> Result<void*> {
        Result<keel::script::Library> lib =
            keel::script::Library::from_bytes(ctx.primary(), "script asset");
        if (!lib) return std::unexpected(lib.error());
        return static_cast<void*>(new keel::script::Library(std::move(*lib)));
      },
      [](void* asset) { delete static_cast<keel::script::Library*>(asset); });
  loader.register_type(
      keel::pack::type_hash("FSM"),
      [](keel::pack::SetupContext& ctx) -> Result<void*> {
        Result<keel::fsm::CompiledFsms> image =
            keel::fsm::CompiledFsms::from_bytes(ctx.primary(), "FSM asset");
        if (!image) return std::unexpected(image.error());
        return static_cast<void*>(new keel::fsm::CompiledFsms(std::move(*image)));
      },
      [](void* asset) { delete static_cast<keel::fsm::CompiledFsms*>(asset); });
  // The data file's other assets (blobs, string tables, the plug-in's tile map, textures, fonts,
  // meshes, sounds, BSP trees, entity definitions...) stay raw bytes: this program links no
  // module above pack.
  return loader.load(path, keel::pack::LoadOptions{.raw_unregistered = true});
}

// The guard patrols while healthy; hurt, it flees within one patrol pause.
bool run_guard(const keel::script::Library& library) {
  keel::script::CommandSet commands = keel::script::default_commands();
  std::vector<std::string> printed;
  if (!keel::script::add_basic_commands(
          commands,
          [&](const keel::script::Call&, std::string_view text) { printed.emplace_back(text); })) {
    return false;
  }
  keel::script::Machine vm(commands);
  if (keel::Status added = vm.add_library(library); !added) {
    std::fprintf(stderr, "%s\n", added.error().to_string().c_str());
    return false;
  }
  Result<keel::script::InstanceId> guard = vm.start("patrol");
  if (!guard) return false;
  vm.set_variable(*guard, "health", 100);
  for (int frame = 0; frame < 40; ++frame) vm.update(1.0 / 60.0);
  vm.set_variable(*guard, "health", 10);
  for (int frame = 0; frame < 40; ++frame) vm.update(1.0 / 60.0);
  int patrols = 0;
  bool fled = false;
  for (const std::string& line : printed) {
    patrols += line == "patrolling" ? 1 : 0;
    fled = fled || line == "running away";
  }
  fmt::print("script: guard printed {} lines, patrolled {} times, fled: {}, health {}\n",
             printed.size(), patrols, fled ? "yes" : "no", vm.variable(*guard, "health"));
  return patrols >= 2 && fled;
}

// The door opens when used: closed -> opening (plays door_open) -> open after anim_done.
bool run_door(const keel::fsm::CompiledFsms& image) {
  keel::fsm::FsmLibrary library;
  if (!library.add(image) || !library.link()) return false;
  const keel::fsm::FsmDef* door = library.find("door");
  if (door == nullptr) return false;
  keel::fsm::FunctionRegistry functions;
  keel::fsm::Environment env(functions);
  int animations = 0;
  env.set_animation_handler(
      [&](keel::fsm::FsmInstance&, const keel::fsm::AnimationRequest&) { ++animations; });
  keel::fsm::FsmInstance instance;
  int object = 0;
  if (!instance.init(&object, *door, env)) return false;
  std::string path(instance.state_name());
  instance.event("event_use");
  path += fmt::format(" -> {}", instance.state_name());
  instance.event("anim_done");
  path += fmt::format(" -> {}", instance.state_name());
  fmt::print("fsm: door {} ({} animation request)\n", path, animations);
  return instance.state_name() == "open" && animations == 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) return fail("usage: keel-runtime-only <data file>");
  Result<keel::pack::LoadedPack> pack = load(argv[1]);
  if (!pack) return fail(pack.error().to_string());
  const auto* scripts = pack->find_as<keel::script::Library>("guard_ai");
  const auto* fsms = pack->find_as<keel::fsm::CompiledFsms>("door");
  if (scripts == nullptr || fsms == nullptr) return fail("guard_ai or door missing");
  if (!run_guard(*scripts)) return fail("the guard's script misbehaved");
  if (!run_door(*fsms)) return fail("the door's FSM misbehaved");
  fmt::print("runtime only: ok\n");
  return 0;
}
