// keel-platform-hello: the platform layer in one program. Opens a window (or runs headless),
// loads a texture and a font from a pack built by keel-build, and each frame draws a ring of
// rotating sprites, a particle fountain, debug circles, a line of bitmap text and the profiler
// overlay with the build stamp. Writes PNG frames and a Chrome trace on request.
//
//   keel-platform-hello --data build/image/PC/main.kpk                  # a window (Esc quits)
//   keel-platform-hello --data main.kpk --headless --frames 60 --screenshot-every 30 --out shots
//   keel-platform-hello --compare a.png b.png [--tolerance N]           # 0 when they match
//
// Settings (width=, height=, +fullscreen, -vsync, -profiler, bind_quit=..., bind_overlay=...)
// come from --settings FILE and the command line.
#include "keel/assets/font.h"
#include "keel/assets/texture.h"
#include "keel/core/build_stamp.h"
#include "keel/kernel/frame_services.h"
#include "keel/kernel/kernel.h"
#include "keel/pack/format.h"
#include "keel/pack/loader.h"
#include "keel/platform/image.h"
#include "keel/platform/input.h"
#include "keel/platform/overlay.h"
#include "keel/platform/renderer.h"
#include "keel/platform/run_options.h"
#include "keel/platform/window.h"
#include "keel/profile/profile.h"
#include "keel/settings/settings.h"
#include "keel/settings/standard.h"

#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <memory>
#include <numbers>
#include <string>
#include <vector>

namespace {

using namespace keel;
using namespace keel::platform;
using spatial::Vec2;

template <typename View, auto Parse>
void register_view(pack::Loader& loader, std::string_view type) {
  loader.register_type(
      pack::type_hash(type),
      [](pack::SetupContext& ctx) -> Result<void*> {
        Result<View> view = Parse(ctx.primary());
        if (!view) return std::unexpected(view.error());
        return static_cast<void*>(new View(*view));
      },
      [](void* asset) { delete static_cast<View*>(asset); });
}

Result<assets::Texture> texture_view(ByteSpan chunk) { return assets::Texture::view(chunk); }

// A deterministic particle fountain: state depends on the frame number only.
struct Fountain {
  std::vector<Vec2> positions;
  std::vector<Color> colors;
  std::vector<f32> sizes;

  void update(u64 frame, usize count, Vec2 origin) {
    positions.resize(count);
    colors.resize(count);
    sizes.resize(count);
    for (usize i = 0; i < count; ++i) {
      const f32 age = static_cast<f32>((frame + i * 7) % 120) / 60.0f;  // 0..2 s
      const f32 angle = -std::numbers::pi_v<f32> / 2 + (static_cast<f32>(i % 97) / 97.0f - 0.5f);
      const f32 speed = 180 + static_cast<f32>(i % 13) * 10;
      positions[i] =
          origin + spatial::from_angle(angle) * (speed * age) + Vec2{0, 0.5f * 200 * age * age};
      const u8 fade = static_cast<u8>(255 - static_cast<int>(age * 120));
      colors[i] = {255, static_cast<u8>(120 + i % 120), 40, fade};
      sizes[i] = 2 + static_cast<f32>(i % 3);
    }
  }
};

int compare(const std::vector<std::string>& rest) {
  if (rest.size() < 3) {
    fmt::print(stderr, "--compare needs two PNG files\n");
    return 2;
  }
  u32 tolerance = 0;
  if (rest.size() >= 5 && rest[3] == "--tolerance")
    tolerance = static_cast<u32>(std::stoul(rest[4]));
  Result<Image> a = read_png(rest[1]);
  Result<Image> b = read_png(rest[2]);
  if (!a || !b) {
    fmt::print(stderr, "{}\n", (!a ? a.error() : b.error()).to_string());
    return 2;
  }
  Result<ImageDiff> diff = compare_images(*a, *b, tolerance);
  if (!diff) {
    fmt::print(stderr, "{}\n", diff.error().to_string());
    return 1;
  }
  fmt::print("{} of {} pixels differ by more than {} (largest channel difference {})\n",
             diff->differing_pixels, u64{a->width} * a->height, tolerance, diff->max_channel_delta);
  return diff->differing_pixels == 0 ? 0 : 1;
}

class HelloTask final : public kernel::Task {
 public:
  struct Assets {
    TextureId sprite;
    TextureId dot;
    FontId font;
  };
  HelloTask(Window& window, Renderer& renderer, Input& input, InputTask& input_task,
            ProfilerOverlay* overlay, const RunOptions& run, Assets assets)
      : Task("hello"),
        window_(&window),
        renderer_(&renderer),
        input_(&input),
        input_task_(&input_task),
        overlay_(overlay),
        run_(&run),
        assets_(assets) {}

  void update(const kernel::Frame& frame) override {
    if (input_->pressed("quit")) frame.kernel.kill_all();
    if (overlay_ != nullptr) overlay_->handle(input_task_->events());
    const f32 t = static_cast<f32>(frame.number) / 60.0f;  // animation follows frames, not time
    const Vec2 size{static_cast<f32>(window_->width()), static_cast<f32>(window_->height())};
    renderer_->set_camera({.position = {0, 0}, .zoom = 1, .rotation = 0, .viewport = size});
    if (Status s = renderer_->begin_frame({12, 14, 28, 255}); !s) {
      fmt::print(stderr, "{}\n", s.error().to_string());
      frame.kernel.kill_all();
      return;
    }
    {
      KEEL_PROFILE("sprites");
      for (int i = 0; i < 24; ++i) {
        const f32 a = t * 0.5f + static_cast<f32>(i) * std::numbers::pi_v<f32> / 12;
        renderer_->sprite(
            {.texture = assets_.sprite,
             .position = spatial::from_angle(a) * 220,
             .size = {48, 48},
             .rotation = a * 2,
             .color = {255, static_cast<u8>(128 + i * 5), static_cast<u8>(255 - i * 8), 255}});
      }
    }
    {
      KEEL_PROFILE("particles");
      fountain_.update(frame.number, 2000, {0, 120});
      renderer_->particles(assets_.dot, fountain_.positions, fountain_.colors, fountain_.sizes,
                           BlendMode::kAdd);
    }
    renderer_->circle({0, 0}, 220, {80, 200, 255, 255}, 64);
    renderer_->line({-300, 0}, {300, 0}, {80, 200, 255, 128});
    const FrameStats& last = last_;  // the previous frame's (this one is still being drawn)
    renderer_->text(
        assets_.font,
        fmt::format("Keel platform  frame {}  draw calls {}  state changes {} -> {}", frame.number,
                    last.draw_calls, last.states.requested, last.states.applied),
        {16, size.y - 16}, {255, 255, 255, 255});
    if (overlay_ != nullptr) overlay_->draw(*renderer_, assets_.font, {16, 32});
    if (Status s = renderer_->end_frame(); !s) fmt::print(stderr, "{}\n", s.error().to_string());
    last_ = renderer_->stats();
    total_calls_ += renderer_->stats().draw_calls;
    total_requested_ += renderer_->stats().states.requested;
    total_applied_ += renderer_->stats().states.applied;
    ++frames_;
    if (run_->screenshot_due(frame.number)) {
      Result<Image> shot = window_->screenshot();
      Status written = shot ? write_png(run_->screenshot_path(frame.number), *shot)
                            : Status(std::unexpected(shot.error()));
      if (!written)
        fmt::print(stderr, "{}\n", written.error().to_string());
      else
        fmt::print("wrote {}\n", run_->screenshot_path(frame.number).string());
    }
    window_->present();
    if (run_->frames != 0 && frame.number + 1 >= run_->frames) frame.kernel.kill_all();
  }

  void report() const {
    const f64 n = frames_ == 0 ? 1.0 : static_cast<f64>(frames_);
    fmt::print(
        "{} frames; per frame: {:.1f} draw calls, render state changes {:.1f} without the "
        "shadow state, {:.1f} with it\n",
        frames_, total_calls_ / n, total_requested_ / n, total_applied_ / n);
  }

 private:
  Window* window_;
  Renderer* renderer_;
  Input* input_;
  InputTask* input_task_;
  ProfilerOverlay* overlay_;
  const RunOptions* run_;
  Assets assets_;
  Fountain fountain_;
  FrameStats last_;
  u64 frames_ = 0;
  f64 total_calls_ = 0;
  f64 total_requested_ = 0;
  f64 total_applied_ = 0;
};

int run(int argc, char** argv) {
  settings::Settings settings;
  settings::StandardSettings standard;
  (void)settings::add_standard_settings(settings, standard);
  Input input;
  input.add_action("quit", {"key:Escape", "pad:back"});
  (void)input.add_settings(settings);

  std::vector<std::string_view> args = settings::args_from_main(argc, argv);
  std::vector<std::filesystem::path> files;
  std::vector<std::string_view> setting_args;
  for (usize i = 0; i < args.size(); ++i) {
    if (args[i] == "--settings" && i + 1 < args.size()) {
      files.emplace_back(args[++i]);
    } else {
      setting_args.push_back(args[i]);
    }
  }
  const settings::ArgsResult loaded = settings.load(files, setting_args);
  for (const Error& e : loaded.errors) fmt::print(stderr, "{}\n", e.to_string());
  if (!loaded.errors.empty()) return 2;
  std::vector<std::string> rest(loaded.rest.begin(), loaded.rest.end());
  if (!rest.empty() && rest[0] == "--compare") return compare(rest);
  Result<RunOptions> run = parse_run_options(rest);
  if (!run) {
    fmt::print(stderr, "{}\n", run.error().to_string());
    return 2;
  }
  std::filesystem::path data;
  for (usize i = 0; i + 1 < run->rest.size(); ++i) {
    if (run->rest[i] == "--data") data = run->rest[i + 1];
  }
  if (data.empty()) {
    fmt::print(stderr,
               "usage: keel-platform-hello --data PACK [--headless] [--frames N] "
               "[--screenshot-every K --out DIR] [--trace FILE] [settings]\n");
    return 2;
  }
  if (Status s = input.apply_bindings(); !s) fmt::print(stderr, "{}\n", s.error().to_string());
  if (!run->out.empty()) std::filesystem::create_directories(run->out);

  pack::Loader loader;
  register_view<assets::Texture, texture_view>(loader, "Texture");
  register_view<assets::FontView, assets::FontView::parse>(loader, "Font");
  // The sample pack holds other asset types too; this program leaves them as raw chunks.
  Result<pack::LoadedPack> pack = loader.load(data, pack::LoadOptions{.raw_unregistered = true});
  if (!pack) {
    fmt::print(stderr, "{}\n", pack.error().to_string());
    return 1;
  }
  const auto* sprite = pack->find_as<assets::Texture>("Checker");
  const auto* font = pack->find_as<assets::FontView>("sans_small");
  const auto* atlas = pack->find_as<assets::Texture>("sans_small_atlas");
  if (sprite == nullptr || font == nullptr || atlas == nullptr) {
    fmt::print(stderr, "{}: needs the textures Checker, sans_small_atlas and the font sans_small\n",
               data.string());
    return 1;
  }

  WindowOptions options = window_options(standard, "Keel platform hello");
  options.headless = run->headless;
  options.software = run->software;
  Result<std::unique_ptr<Window>> window = Window::open(options);
  if (!window) {
    fmt::print(stderr, "{}\n", window.error().to_string());
    return 1;
  }
  fmt::print("video driver {}, renderer {}, {}x{}\n", (*window)->video_driver(),
             (*window)->renderer_name(), (*window)->width(), (*window)->height());
  Renderer renderer((*window)->sdl_renderer());
  Result<TextureId> sprite_id = renderer.add_texture(*sprite);
  Result<FontId> font_id = renderer.add_font(*font, *atlas);
  if (!sprite_id || !font_id) {
    fmt::print(stderr, "{}\n", (!sprite_id ? sprite_id.error() : font_id.error()).to_string());
    return 1;
  }
  const std::array<TextureId, 2> level{*sprite_id, TextureId{0}};
  renderer.prewarm(level);  // level load: every state of these textures is prepared now

  std::unique_ptr<InputSource> source;
  if ((*window)->headless()) {
    source = std::make_unique<ScriptedInput>();
  } else {
    source = std::make_unique<SdlInputSource>();
  }
  ProfilerOverlay overlay(profile::this_thread());
  kernel::Kernel kernel;
  kernel::attach_frame_services(kernel, nullptr, {.profile = standard.profiler});
  auto input_task = std::make_shared<InputTask>(input, *source);
  kernel.add(input_task);
  FramePacer pacer(standard.vsync || (*window)->headless() ? 0 : 60);
  kernel.add_frame_end_hook([&] { pacer.wait(); });
  auto hello = kernel.create<HelloTask>(**window, renderer, input, *input_task,
                                        standard.profiler ? &overlay : nullptr, *run,
                                        HelloTask::Assets{*sprite_id, TextureId{0}, *font_id});
  while (kernel.has_work() && !source->quit_requested()) kernel.step();
  hello->report();
  kernel.shutdown();
  if (!run->trace.empty()) {
    if (Status s = profile::write_chrome_trace(run->trace); !s) {
      fmt::print(stderr, "{}\n", s.error().to_string());
      return 1;
    }
    fmt::print("wrote the Chrome trace {}\n", run->trace.string());
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) { return run(argc, argv); }
