// Texture processing speed and BC1 quality.
//
// BM_KeelTexturePipeline runs Keel's texture steps 3-6 on a 2048x2048 source (composite colour +
// gray alpha, full gamma-correct mip chain, BC1 through stb_dxt); BM_PlainStbPipeline makes the
// same bytes with the same stb calls written as one plain function. Before the benchmarks, a table
// of BC1 PSNR (RGB) and time over generated test images: Keel fast (stb_dxt HIGHQUAL) and best
// (squish iterative cluster fit), stb_dxt HIGHQUAL and squish cluster fit called directly.
#include "bench_support.h"

#include "keel/assets/build/detail/texture_process.h"
#include "keel/assets/build/detail/texture_spec.h"
#include "keel/assets/build/image.h"
#include "keel/assets/build/texture_writer.h"
#include "keel/text/document.h"

#include <squish.h>
#include <stb/stb_dxt.h>
#include <stb/stb_image_resize.h>

#include <fmt/format.h>

#include <array>
#include <chrono>
#include <cmath>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace {

using keel::f32;
using keel::u32;
using keel::u8;
using keel::usize;
using keel::assets::Image;
using keel::assets::Rgba;

constexpr u32 kSize = 2048;

// A photo-like picture: smooth colour, a few hard edges, fine detail.
Image make_picture(u32 w, u32 h, u32 seed) {
  Image image(w, h);
  for (u32 y = 0; y < h; ++y) {
    for (u32 x = 0; x < w; ++x) {
      const f32 u = static_cast<f32>(x) / static_cast<f32>(w);
      const f32 v = static_cast<f32>(y) / static_cast<f32>(h);
      const f32 ripple =
          0.5f + 0.5f * std::sin((u * 40.0f + v * 13.0f) * static_cast<f32>(seed + 1));
      const bool disc = (u - 0.6f) * (u - 0.6f) + (v - 0.4f) * (v - 0.4f) < 0.05f;
      image.at(x, y) = disc
                           ? Rgba{0.95f, 0.8f, 0.2f, 1.0f}
                           : Rgba{0.2f + 0.6f * u, 0.3f + 0.4f * ripple * v, 0.9f - 0.5f * v, 1.0f};
    }
  }
  return image;
}

Image make_mask(u32 w, u32 h) {
  Image image(w, h);
  for (u32 y = 0; y < h; ++y) {
    for (u32 x = 0; x < w; ++x) {
      const f32 d =
          std::hypot(static_cast<f32>(x) - w / 2.0f, static_cast<f32>(y) - h / 2.0f) / (w / 2.0f);
      const f32 g = std::max(0.0f, 1.0f - d);
      image.at(x, y) = {g, g * 0.5f, 0.2f, 1.0f};
    }
  }
  return image;
}

struct Sources {
  Image color = make_picture(kSize, kSize, 3);
  Image mask = make_mask(kSize, kSize);
};

const Sources& sources() {
  static const Sources s;
  return s;
}

void BM_KeelTexturePipeline(benchmark::State& state) {
  const Sources& src = sources();
  keel::text::Diagnostics diag;
  auto doc = keel::text::parse(R"(Texture("bench") { Format("DXT1"); Quality("fast");
      Image("color"); Image("mask", "n", "n", "n", "gray"); })",
                               "bench.kcmd", diag);
  const auto spec = keel::assets::detail::parse_texture(*doc->first(), diag);
  const keel::assets::detail::ImageLoader load =
      [&](const keel::assets::detail::ImageSpec& image) -> keel::Result<Image> {
    return image.file == "color" ? src.color : src.mask;  // as decoding hands them over: copies
  };
  usize bytes = 0;
  for (auto _ : state) {
    auto chunk = keel::assets::detail::build_texture(*spec, "PC", load);
    bytes = chunk->size();
    benchmark::DoNotOptimize(chunk->data());
  }
  state.counters["chunk_bytes"] = static_cast<double>(bytes);
}

// The same work as one plain function over float arrays and the same stb calls.
std::vector<u8> plain_pipeline(const Sources& src) {
  const usize n = usize{kSize} * kSize;
  std::vector<f32> color(n * 4);
  std::vector<f32> mask(n * 4);
  std::memcpy(color.data(), src.color.pixels().data(), n * 16);
  std::memcpy(mask.data(), src.mask.pixels().data(), n * 16);
  std::vector<f32> canvas(n * 4);
  for (usize i = 0; i < n; ++i) {
    canvas[i * 4 + 0] = color[i * 4 + 0];
    canvas[i * 4 + 1] = color[i * 4 + 1];
    canvas[i * 4 + 2] = color[i * 4 + 2];
    canvas[i * 4 + 3] = 0.30f * mask[i * 4] + 0.59f * mask[i * 4 + 1] + 0.11f * mask[i * 4 + 2];
  }
  std::vector<u8> out;
  std::vector<f32> linear = canvas;
  for (usize i = 0; i < n * 4; ++i) {
    if (i % 4 != 3) linear[i] = keel::assets::srgb_to_linear(linear[i]);
  }
  u32 w = kSize;
  std::vector<f32> level = canvas;  // sRGB values of the current level
  std::vector<u8> rgba;
  std::array<u8, 64> block{};
  std::array<u8, 8> dxt{};
  while (true) {
    rgba.resize(usize{w} * w * 4);
    for (usize i = 0; i < rgba.size(); ++i) rgba[i] = keel::assets::to_u8(level[i]);
    for (u32 by = 0; by < (w + 3) / 4; ++by) {
      for (u32 bx = 0; bx < (w + 3) / 4; ++bx) {
        for (u32 p = 0; p < 16; ++p) {
          const u32 x = std::min(bx * 4 + p % 4, w - 1);
          const u32 y = std::min(by * 4 + p / 4, w - 1);
          std::memcpy(&block[p * 4], &rgba[(usize{y} * w + x) * 4], 4);
        }
        stb_compress_dxt_block(dxt.data(), block.data(), 0, STB_DXT_HIGHQUAL);
        out.insert(out.end(), dxt.begin(), dxt.end());
      }
    }
    if (w == 1) break;
    const u32 half = w / 2;
    std::vector<f32> next(usize{half} * half * 4);
    stbir_resize_float_generic(linear.data(), static_cast<int>(w), static_cast<int>(w), 0,
                               next.data(), static_cast<int>(half), static_cast<int>(half), 0, 4, 3,
                               STBIR_FLAG_ALPHA_PREMULTIPLIED, STBIR_EDGE_CLAMP,
                               STBIR_FILTER_DEFAULT, STBIR_COLORSPACE_LINEAR, nullptr);
    linear = next;
    level = next;
    for (usize i = 0; i < level.size(); ++i) {
      if (i % 4 != 3) level[i] = keel::assets::linear_to_srgb(level[i]);
    }
    w = half;
  }
  return out;
}

void BM_PlainStbPipeline(benchmark::State& state) {
  const Sources& src = sources();
  for (auto _ : state) {
    std::vector<u8> out = plain_pipeline(src);
    benchmark::DoNotOptimize(out.data());
  }
}

BENCHMARK(BM_KeelTexturePipeline)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_PlainStbPipeline)->Unit(benchmark::kMillisecond)->Iterations(3);
KEEL_BENCH_RATIO("texture pipeline 2048^2 composite+gamma mips+BC1 vs plain stb calls",
                 "BM_KeelTexturePipeline/iterations:3", "BM_PlainStbPipeline/iterations:3");

// ---- BC1 quality -------------------------------------------------------------------------------

using Encoder = std::function<std::vector<u8>(const std::vector<u8>& rgba, u32 w, u32 h)>;

std::vector<u8> per_block(const std::vector<u8>& rgba, u32 w, u32 h,
                          const std::function<void(const u8*, u8*)>& compress) {
  std::vector<u8> out;
  std::array<u8, 64> block{};
  std::array<u8, 8> dxt{};
  for (u32 by = 0; by < h / 4; ++by) {
    for (u32 bx = 0; bx < w / 4; ++bx) {
      for (u32 p = 0; p < 16; ++p) {
        std::memcpy(&block[p * 4], &rgba[((usize{by} * 4 + p / 4) * w + bx * 4 + p % 4) * 4], 4);
      }
      compress(block.data(), dxt.data());
      out.insert(out.end(), dxt.begin(), dxt.end());
    }
  }
  return out;
}

double psnr_rgb(const std::vector<u8>& a, const std::vector<u8>& b) {
  double sum = 0.0;
  usize count = 0;
  for (usize i = 0; i < a.size(); ++i) {
    if (i % 4 == 3) continue;
    const double d = static_cast<double>(a[i]) - static_cast<double>(b[i]);
    sum += d * d;
    ++count;
  }
  const double mse = sum / static_cast<double>(count);
  return mse == 0.0 ? 99.0 : 10.0 * std::log10(255.0 * 255.0 / mse);
}

void print_bc1_quality() {
  constexpr u32 kQ = 256;
  const std::vector<std::pair<std::string, Image>> images = {
      {"picture", make_picture(kQ, kQ, 1)},
      {"ripples", make_picture(kQ, kQ, 7)},
      {"mask", make_mask(kQ, kQ)},
      {"noise",
       [] {
         Image img(kQ, kQ);
         u32 s = 12345;
         for (Rgba& p : img.pixels()) {
           s = s * 1664525u + 1013904223u;
           p = {static_cast<f32>(s >> 24) / 255.0f, static_cast<f32>((s >> 16) & 255) / 255.0f,
                0.5f, 1.0f};
         }
         return img;
       }()},
  };
  const std::vector<std::pair<std::string, Encoder>> encoders = {
      {"keel_fast",
       [](const std::vector<u8>& rgba, u32 w, u32 h) {
         const keel::ByteBuffer b = keel::assets::encode_level(Image::from_u8(w, h, rgba),
                                                               keel::assets::TextureFormat::kBC1,
                                                               keel::assets::BlockQuality::kFast);
         const auto u = keel::as_u8(b);
         return std::vector<u8>(u.begin(), u.end());
       }},
      {"keel_best",
       [](const std::vector<u8>& rgba, u32 w, u32 h) {
         const keel::ByteBuffer b = keel::assets::encode_level(Image::from_u8(w, h, rgba),
                                                               keel::assets::TextureFormat::kBC1,
                                                               keel::assets::BlockQuality::kBest);
         const auto u = keel::as_u8(b);
         return std::vector<u8>(u.begin(), u.end());
       }},
      {"stb_highqual",
       [](const std::vector<u8>& rgba, u32 w, u32 h) {
         return per_block(rgba, w, h, [](const u8* in, u8* out) {
           stb_compress_dxt_block(out, in, 0, STB_DXT_HIGHQUAL);
         });
       }},
      {"squish_cluster",
       [](const std::vector<u8>& rgba, u32 w, u32 h) {
         return per_block(rgba, w, h, [](const u8* in, u8* out) {
           squish::Compress(in, out, squish::kDxt1 | squish::kColourClusterFit);
         });
       }},
  };
  for (const auto& [image_name, image] : images) {
    const std::vector<u8> rgba = image.to_rgba8();
    std::string line = fmt::format("bc1 {:<8}", image_name);
    for (const auto& [encoder_name, encode] : encoders) {
      const auto start = std::chrono::steady_clock::now();
      const std::vector<u8> blocks = encode(rgba, kQ, kQ);
      const double ms =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
              .count();
      const keel::assets::TextureLevel level{kQ, kQ, kQ,
                                             keel::as_bytes(std::span<const u8>(blocks))};
      const std::vector<u8> back =
          keel::assets::decode_level_rgba8(keel::assets::TextureFormat::kBC1, level);
      line += fmt::format("  {}={:.2f}dB/{:.1f}ms", encoder_name, psnr_rgb(rgba, back), ms);
    }
    fmt::print("{}\n", line);
  }
}

}  // namespace

int main(int argc, char** argv) {
  print_bc1_quality();
  return keel::bench::run_main(argc, argv);
}
