// The demo's data: the data file keel-build makes from data/sample.kproj, loaded at start-up with
// keel::pack (a setup function per asset type) and reported asset type by asset type.
#pragma once

#include "keel/core/error.h"
#include "keel/pack/loader.h"

#include <filesystem>
#include <string>

namespace demo {

struct DemoData {
  keel::pack::LoadedPack pack;
  std::string report;  // what was loaded, by asset type, one line per type
};

// Loads a data file with setups for Blob, Script, FSM, StringTable and TileMap assets.
keel::Result<DemoData> load_demo_data(const std::filesystem::path& path);

}  // namespace demo
