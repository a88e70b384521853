// keel-sound-check: plays sounds through keel::platform's mixer and captures the mix to a WAV.
//
//   keel-sound-check --headless --out out.wav data/assets/sounds/*.wav data/assets/sounds/music.ogg
//   keel-sound-check --pack build/image/PC/main.kpk --sound laser --sound music --out out.wav
//
// Sources given as files are built in memory the way the `Sound` handler builds them. The first
// sound loops as music; the others fire as effects every half second, moving from left to right
// around the listener (positional). Headless runs the null device on a 60 Hz frame clock.
#include "keel/assets/build/sound_handler.h"
#include "keel/core/file.h"
#include "keel/pack/format.h"
#include "keel/pack/pack_file.h"
#include "keel/platform/audio.h"
#include "keel/platform/audio_capture.h"
#include "keel/platform/audio_device.h"

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <thread>

namespace {

using namespace keel;

struct Loaded {
  std::string name;
  ByteBuffer chunk;  // vector storage: aligned for the PCM view
};

Result<Loaded> load_file(const std::string& path) {
  Result<std::string> bytes = read_file(path);
  if (!bytes) return Unexpected(bytes.error());
  const bool ogg = path.ends_with(".ogg");
  Result<ByteBuffer> chunk =
      assets::build_sound_chunk(as_bytes(*bytes), path, {.stream = ogg, .loop = ogg});
  if (!chunk) return Unexpected(chunk.error());
  return Loaded{std::filesystem::path(path).stem().string(), std::move(*chunk)};
}

Result<Loaded> load_from_pack(const pack::PackFile& pack, const std::string& name) {
  const pack::PackItem* item = pack.find_item(name);
  if (item == nullptr || item->type_hash != pack::type_hash(assets::kSoundType)) {
    return fail(ErrorCode::kNotFound, "the data file has no Sound named '{}'", name);
  }
  Result<ByteBuffer> chunk = pack.read_chunk(item->name_hash, item->primary);
  if (!chunk) return Unexpected(chunk.error());
  return Loaded{name, std::move(*chunk)};
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"keel-sound-check: mix sounds and capture them to a WAV file"};
  std::vector<std::string> files;
  std::string pack_path;
  std::vector<std::string> names = {"music", "laser", "explosion"};
  std::string out = "sound_check.wav";
  double seconds = 3.0;
  bool headless = false;
  app.add_option("files", files, "WAV or Ogg Vorbis files (.ogg streams and loops)");
  app.add_option("--pack", pack_path, "a data file built by keel-build");
  app.add_option("--sound", names, "sounds to take from --pack (default music, laser, explosion)");
  app.add_option("--out", out, "the captured WAV file");
  app.add_option("--seconds", seconds, "how long to play")->check(CLI::Range(0.1, 600.0));
  app.add_flag("--headless", headless, "no sound card: the null device on a 60 Hz frame clock");
  CLI11_PARSE(app, argc, argv);

  std::vector<Loaded> loaded;
  std::optional<pack::PackFile> pack;
  if (!pack_path.empty()) {
    Result<pack::PackFile> opened = pack::PackFile::open(pack_path);
    if (!opened) {
      fmt::print(stderr, "keel-sound-check: {}\n", opened.error().to_string());
      return 1;
    }
    pack = std::move(*opened);
    for (const std::string& name : names) {
      Result<Loaded> l = load_from_pack(*pack, name);
      if (!l) return fmt::print(stderr, "keel-sound-check: {}\n", l.error().to_string()), 1;
      loaded.push_back(std::move(*l));
    }
  }
  for (const std::string& f : files) {
    Result<Loaded> l = load_file(f);
    if (!l) return fmt::print(stderr, "keel-sound-check: {}\n", l.error().to_string()), 1;
    loaded.push_back(std::move(*l));
  }
  if (loaded.empty()) return fmt::print(stderr, "keel-sound-check: no sounds given\n"), 2;

  platform::Mixer mixer;
  std::vector<platform::SoundId> ids;
  for (const Loaded& l : loaded) {
    Result<assets::SoundView> view = assets::SoundView::parse(l.chunk);
    if (!view) return fmt::print(stderr, "keel-sound-check: {}\n", view.error().to_string()), 1;
    ids.push_back(mixer.add_sound(l.name, *view).value());
  }
  platform::AudioCapture capture(seconds + 1.0);
  std::unique_ptr<platform::AudioDevice> device =
      platform::open_audio_device(mixer, {.headless = headless, .capture = &capture});
  fmt::print("device: {}\n", device->name());
  mixer.set_listener({640, 360});
  mixer.play(
      ids[0],
      {.volume = 0.5f, .loop = platform::LoopMode::kLoop, .bus = platform::AudioBus::kMusic});
  const int frames = static_cast<int>(seconds * 60.0 + 0.5);
  for (int frame = 0; frame < frames; ++frame) {
    if (ids.size() > 1 && frame % 30 == 0) {
      const platform::SoundId effect = ids[1 + (frame / 30) % (ids.size() - 1)];
      const float x = 40.0f + static_cast<float>((frame * 7) % 1200);  // left to right
      mixer.play(effect, {.positional = true, .position = {x, 360}});
    }
    if (device->is_null()) {
      device->advance(1.0 / 60.0);
    } else {
      std::this_thread::sleep_for(std::chrono::microseconds(16667));
    }
  }
  device.reset();  // the callback has returned: the capture is ours
  Status written = capture.write_wav(out);
  if (!written) return fmt::print(stderr, "keel-sound-check: {}\n", written.error().to_string()), 1;
  s16 peak = 0;
  for (s16 v : capture.samples())
    peak = std::max<s16>(peak, static_cast<s16>(std::min(32767, std::abs(v))));
  fmt::print("captured {} frames ({:.2f} s) to {}, peak {}, clipped samples {}\n", capture.frames(),
             static_cast<double>(capture.frames()) / platform::kMixRate, out, peak,
             mixer.clipped_samples());
  return 0;
}
