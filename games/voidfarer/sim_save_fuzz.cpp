// Fuzz target: Voidfarer's quick-load (Sim::load_save, sim_save.cpp) on hostile files.
//
// The game's pack is built once, in this process, by keel::pipeline's Builder with the built-in,
// asset and world handlers (as keel-build does) into a temporary folder; one Sim runs on it. The
// first input byte picks the mode:
//   0: the rest is a whole quick-save file (container, checksums, compression and all);
//   1: the rest is the object stream only, sealed into a valid uncompressed container with a real
//      quick-save's header first, so that mutations get past the checksums into Game::load.
// Beyond "no crash, no leak, no hang": a failed load leaves the Sim exactly as it was (same
// state_hash), a successful one simulates a few frames, and the pristine save loads back to the
// pristine hash (so that every input starts from the same Sim).
//
// Seeds (fuzz/corpus/sim_save/): run the target with VOIDFARER_SIM_SAVE_SEEDS=DIR and it writes
// real quick-saves of the autopilot's run at a few frames (both modes) into DIR and exits.
#include "sim.h"

#include "keel/assets/build/asset_handlers.h"
#include "keel/core/file.h"
#include "keel/pipeline/builder.h"
#include "keel/pipeline/handlers/builtin_handlers.h"
#include "keel/pipeline/project.h"
#include "keel/pipeline/registry.h"
#include "keel/save/format.h"
#include "keel/text/diagnostics.h"
#include "keel/world/build/world_handlers.h"

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <span>
#include <string>

#ifndef VOIDFARER_PROJECT
#define VOIDFARER_PROJECT "games/voidfarer/data/voidfarer.kproj"
#endif

namespace fs = std::filesystem;
using namespace keel;
using voidfarer::Sim;

namespace {

[[noreturn]] void die(const std::string& what) {
  std::fprintf(stderr, "sim_save_fuzz: %s\n", what.c_str());
  std::abort();
}

// The temporary folder, removed at exit.
struct TempDir {
  fs::path path;
  TempDir() {
    path = fs::temp_directory_path() / ("voidfarer_sim_save_fuzz_" + std::to_string(::getpid()));
    std::error_code ec;
    fs::remove_all(path, ec);
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

// Builds the game's pack into `dir` (as keel-build would) and returns its path.
fs::path build_pack(const fs::path& dir) {
  text::Diagnostics diag;
  std::optional<pipeline::Project> project = pipeline::load_project(VOIDFARER_PROJECT, diag);
  if (!project) die("cannot load " VOIDFARER_PROJECT);
  project->intermediate_path = dir / "obj";
  project->image_path = dir / "image";
  project->platform_image_paths.clear();
  pipeline::HandlerRegistry handlers;
  pipeline::register_builtin_handlers(handlers);
  assets::register_asset_handlers(handlers);
  world::register_world_handlers(handlers);
  pipeline::Builder builder(*project, handlers, {.jobs = 1});
  const Result<pipeline::BuildSummary> summary =
      builder.build_all(project->platforms, project->data_files);
  if (!summary) die(summary.error().message());
  if (!summary->ok()) die("the pack did not build: " + summary->to_string());
  return dir / "image" / "PC" / "voidfarer.kpk";
}

void write_bytes(const fs::path& path, std::span<const std::byte> bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
  if (!out) die("cannot write " + path.string());
}

ByteBuffer read_bytes(const fs::path& path) {
  Result<std::string> text = read_file(path);
  if (!text) die(text.error().message());
  const auto* p = reinterpret_cast<const std::byte*>(text->data());
  return ByteBuffer(p, p + text->size());
}

// A seed: the mode byte, then the bytes.
void write_seed(const fs::path& path, u8 mode, ByteSpan bytes) {
  ByteBuffer seed;
  seed.push_back(std::byte{mode});
  seed.insert(seed.end(), bytes.begin(), bytes.end());
  write_bytes(path, seed);
}

// Writes the seed corpus into `out`: the autopilot's run quick-saved at a few frames.
void write_seeds(const fs::path& pack, const fs::path& work, const fs::path& out) {
  fs::create_directories(out);
  Result<std::unique_ptr<Sim>> sim = Sim::create(pack);
  if (!sim) die(sim.error().message());
  int frame = 0;
  for (const int at : {1, 90, 300}) {
    while (frame < at) {
      if (Status st = (*sim)->step((*sim)->autopilot()); !st) die(st.error().message());
      ++frame;
    }
    const fs::path save = work / "seed.sav";
    if (Status st = (*sim)->save(save); !st) die(st.error().message());
    const ByteBuffer file = read_bytes(save);
    Result<save::DecodedFile> decoded = save::decode_file(file);
    if (!decoded) die(decoded.error().message());
    const std::string name = "frame" + std::to_string(at);
    write_seed(out / (name + "_file"), 0, file);
    write_seed(out / (name + "_body"), 1, decoded->body);
    std::printf("sim_save_fuzz: wrote the seeds of frame %d (%zu bytes, body %zu)\n", at,
                file.size(), decoded->body.size());
  }
}

struct Fixture {
  TempDir temp;
  fs::path input;          // each input is written here
  fs::path pristine_save;  // the Sim's state every input starts from
  u64 pristine_hash = 0;
  save::FileHeader header;  // a real quick-save's, for sealing object streams
  std::unique_ptr<Sim> sim;

  Fixture() {
    const fs::path pack = build_pack(temp.path);
    if (const char* seeds = std::getenv("VOIDFARER_SIM_SAVE_SEEDS")) {
      write_seeds(pack, temp.path, seeds);
      std::exit(0);
    }
    Result<std::unique_ptr<Sim>> created = Sim::create(pack);
    if (!created) die(created.error().message());
    sim = std::move(*created);
    // A little into the first wave: enemies, bullets and particles to replace.
    for (int i = 0; i < 60; ++i) {
      if (Status st = sim->step(sim->autopilot()); !st) die(st.error().message());
    }
    input = temp.path / "input.sav";
    pristine_save = temp.path / "pristine.sav";
    if (Status st = sim->save(pristine_save); !st) die(st.error().message());
    pristine_hash = sim->state_hash();
    // The game's own save loads back to the same state (else every input would fail anyway).
    if (Status st = sim->load_save(pristine_save); !st) die(st.error().message());
    if (sim->state_hash() != pristine_hash) die("the pristine save loads to another hash");
    Result<save::FileHeader> h = save::read_header(pristine_save);
    if (!h) die(h.error().message());
    header = std::move(*h);
    header.compression = save::Compression::kNone;
  }
};

Fixture& fixture() {
  static Fixture f;
  return f;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Fixture& f = fixture();
  if (size < 1) return 0;
  const ByteSpan rest(reinterpret_cast<const std::byte*>(data) + 1, size - 1);
  if (data[0] == 1) {
    Result<ByteBuffer> sealed = save::encode_file(f.header, rest);
    if (!sealed) return 0;
    write_bytes(f.input, *sealed);
  } else {
    write_bytes(f.input, rest);
  }

  const u64 before = f.sim->state_hash();
  const Status loaded = f.sim->load_save(f.input);
  if (!loaded) {
    if (loaded.error().message().empty()) die("a failed load without a message");
    if (f.sim->state_hash() != before) die("a failed load changed the Sim");
    return 0;
  }
  // Whatever a quick-save can restore must simulate.
  for (int i = 0; i < 20; ++i) {
    if (Status st = f.sim->step(f.sim->autopilot()); !st) break;
  }
  if (Status st = f.sim->load_save(f.pristine_save); !st) die(st.error().message());
  if (f.sim->state_hash() != f.pristine_hash) die("the pristine save loads to another hash");
  return 0;
}
