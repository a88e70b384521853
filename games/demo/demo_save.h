// The demo's quick-save (keel/save): the shared World — counters as a save template, particles
// as custom data — written atomically, then read back into a fresh World to prove the round trip.
#pragma once

#include "demo_tasks.h"

#include "keel/core/error.h"

#include <filesystem>

namespace demo {

u64 world_hash(const World& world);
keel::Status save_world(const World& world, const std::filesystem::path& path, u64 frame);
keel::Result<World> load_world(const std::filesystem::path& path);

}  // namespace demo

namespace demo {
// Saves `world`, loads it into a fresh World and compares; prints the outcome. False on error.
bool quick_save_and_restore(const World& world, const std::filesystem::path& path, u64 frame);
}  // namespace demo
