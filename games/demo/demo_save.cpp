#include "demo_save.h"

#include "keel/core/hash.h"
#include "keel/save/save_file.h"
#include "keel/save/system.h"

#include <fmt/format.h>

#include <cstdio>
#include <span>

namespace demo {
namespace {

// The World's counters by template; its particle arrays and wave names as custom data.
class WorldSave : public keel::save::SaveObject {
  KEEL_SAVABLE(WorldSave, 300)
  u32 presses = 0;
  u32 effects_spawned = 0;
  u64 render_checksum = 0;
  u32 wave = 0;
  u32 particles = 0;
  World* world = nullptr;  // the World written from / read into

  keel::Status save(keel::save::SaveFile& file) override {
    if (auto st = SaveObject::save(file); !st) return st;
    for (const std::vector<f32>* v : {&world->x, &world->y, &world->vx, &world->vy}) {
      if (auto st = file.put(std::as_bytes(std::span(*v))); !st) return st;
    }
    if (auto st = file.put_value(static_cast<u32>(world->waves.size())); !st) return st;
    for (const std::string& w : world->waves) {
      if (auto st = file.put_value(static_cast<u32>(w.size())); !st) return st;
      if (auto st = file.put(keel::as_bytes(w)); !st) return st;
    }
    return {};
  }

  keel::Status load(keel::save::SaveFile& file) override {
    if (auto st = SaveObject::load(file); !st) return st;
    if (particles > (1u << 24)) return keel::fail(keel::ErrorCode::kCorrupt, "particle count");
    for (std::vector<f32>* v : {&world->x, &world->y, &world->vx, &world->vy}) {
      v->resize(particles);
      if (auto st = file.get(std::as_writable_bytes(std::span(*v))); !st) return st;
    }
    u32 count = 0;
    if (auto st = file.get_value(count); !st) return st;
    if (count > 4096) return keel::fail(keel::ErrorCode::kCorrupt, "wave count");
    world->waves.resize(count);
    for (std::string& w : world->waves) {
      u32 size = 0;
      if (auto st = file.get_value(size); !st) return st;
      if (size > 4096) return keel::fail(keel::ErrorCode::kCorrupt, "wave name");
      w.resize(size);
      if (auto st = file.get(std::as_writable_bytes(std::span(w))); !st) return st;
    }
    return {};
  }

 public:
  std::unique_ptr<World> owned = std::make_unique<World>();
  WorldSave() { world = owned.get(); }
};

KEEL_SAVE_TEMPLATE(WorldSave) = {
    KEEL_SAVEDEF(WorldSave),
    KEEL_SAVEDATA(WorldSave, presses),
    KEEL_SAVEDATA(WorldSave, effects_spawned),
    KEEL_SAVEDATA(WorldSave, render_checksum),
    KEEL_SAVEDATA(WorldSave, wave),
    KEEL_SAVEDATA(WorldSave, particles),
    KEEL_DONTSAVE(WorldSave, world),
    KEEL_DONTSAVE(WorldSave, owned),
    KEEL_SAVEEND(),
};

const keel::save::SaveSystem& system() {
  static const keel::save::SaveSystem s({keel::save::type<WorldSave>()});
  return s;
}

}  // namespace

u64 world_hash(const World& w) {
  u64 h = 0;
  for (const std::vector<f32>* v : {&w.x, &w.y, &w.vx, &w.vy}) {
    h = keel::hash64(v->data(), v->size() * sizeof(f32), h);
  }
  const u64 counters[] = {w.presses, w.effects_spawned, w.render_checksum, w.wave};
  h = keel::hash64(counters, sizeof counters, h);
  for (const std::string& s : w.waves) h = keel::hash64(s, h);
  return h;
}

keel::Status save_world(const World& world, const std::filesystem::path& path, u64 frame) {
  WorldSave root;
  root.presses = world.presses;
  root.effects_spawned = world.effects_spawned;
  root.render_checksum = world.render_checksum;
  root.wave = world.wave;
  root.particles = static_cast<u32>(world.x.size());
  root.world = const_cast<World*>(&world);  // only read while saving
  keel::save::SaveFile file(system());
  keel::Status st = file.begin_save(path);
  if (st) {
    keel::save::ClientHeader header;
    header.level_name = "demo";
    header.level_version = 1;
    header.extra = keel::to_buffer(fmt::format("frame {}", frame));
    file.set_header(std::move(header));
    file.declare_object(&root);
    st = file.process_objects();
  }
  return file.end(st);
}

keel::Result<World> load_world(const std::filesystem::path& path) {
  keel::save::SaveFile file(system());
  keel::Status st = file.begin_load(path);
  if (st) st = file.process_objects();
  st = file.end(st);
  if (!st) return keel::Unexpected(st.error());
  auto objects = file.take_objects();
  auto& root = dynamic_cast<WorldSave&>(*objects.at(0));
  World world = std::move(*root.world);
  world.presses = root.presses;
  world.effects_spawned = root.effects_spawned;
  world.render_checksum = root.render_checksum;
  world.wave = root.wave;
  return world;
}

}  // namespace demo

namespace demo {

bool quick_save_and_restore(const World& world, const std::filesystem::path& path, u64 frame) {
  if (auto saved = save_world(world, path, frame); !saved) {
    std::fprintf(stderr, "keel-demo: %s\n", saved.error().to_string().c_str());
    return false;
  }
  keel::Result<World> restored = load_world(path);
  if (!restored) {
    std::fprintf(stderr, "keel-demo: %s\n", restored.error().to_string().c_str());
    return false;
  }
  const bool same = world_hash(*restored) == world_hash(world);
  std::printf("quick-saved the world to %s (%zu particles) and restored it: %s\n\n",
              path.string().c_str(), restored->x.size(), same ? "identical" : "DIFFERENT");
  return same;
}

}  // namespace demo
