// keel::pack load speed. The benchmark writes a 256 MiB pack (1024 textures of 256 KiB, a header
// chunk each, set up and fixed up on load) into a temporary directory, twice: stored raw and
// zstd-compressed. It deletes them at exit.
//   BM_PlainRead      read the raw pack file into one buffer: the floor for any loader
//   BM_PackLoad       Loader::load of the raw pack: indices, block allocation, checksums, setup
//   BM_PackLoadZstd   the same pack compressed (MB/s of loaded bytes)
//   BM_ZstdCommand    `zstd -d -c frame.zst > /dev/null`: the zstd program on the pack's pixel
//                     block (one zstd frame, written out as a .zst file)
//   BM_KeelZstdDecode keel's block decoding of that frame file as the loader does it: read in
//                     256 KiB slices, checksum, decompress into the block's memory
// Warm cache: every benchmark runs after the files were written and read once.
#include "bench_support.h"
#include "keel/core/file.h"
#include "keel/pack/compression.h"
#include "keel/pack/loader.h"
#include "keel/pack/pack_file.h"
#include "keel/pack/testing/samples.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace {

using namespace keel;
using namespace keel::pack;

constexpr u32 kTextures = 1024;
constexpr u32 kSide = 512;  // 512 x 512 bytes = 256 KiB per texture

// Texture-like bytes: smooth gradients with noise in the low bits (compress about 2-3x).
void fill_pixels(std::vector<std::byte>& out, u32 seed) {
  u32 x = seed * 2654435761u + 1;
  for (u32 row = 0; row < kSide; ++row) {
    for (u32 col = 0; col < kSide; ++col) {
      x ^= x << 13;
      x ^= x >> 17;
      x ^= x << 5;
      const u32 smooth = (row + col + seed) >> 3;
      out[usize{row} * kSide + col] = static_cast<std::byte>((smooth & 0xF0) | (x & 0x0F));
    }
  }
}

struct Files {
  std::filesystem::path dir;
  std::filesystem::path raw;
  std::filesystem::path zstd;
  std::filesystem::path frame;  // the zstd pack's pixel block as a .zst file
  u64 raw_size = 0;
  u64 frame_size = 0;
  u64 loaded_size = 0;

  Files() {
    dir =
        std::filesystem::temp_directory_path() / ("keel_pack_bench_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    raw = dir / "raw.kpk";
    zstd = dir / "zstd.kpk";
    frame = dir / "pixels.zst";
    for (Compression c : {Compression::kNone, Compression::kZstd}) {
      PackWriter writer(WriterOptions{.compression = c, .level = 3, .write_dictionary = true});
      std::vector<std::byte> pixels(usize{kSide} * kSide);
      for (u32 i = 0; i < kTextures; ++i) {
        const std::string name = "texture_" + std::to_string(i);
        fill_pixels(pixels, i);
        const LocatorId pixel_id = writer.add_chunk(name, testing::kVideoBlock, pixels, 16);
        testing::TextureHeader header{kSide, kSide, PackPtr<std::byte>::from(pixel_id)};
        const LocatorId header_id =
            writer.add_chunk(name, testing::kMetaBlock, testing::as_bytes_of(header), 8);
        writer.add_item(name, type_hash("Texture"), header_id);
      }
      check(writer.write(c == Compression::kNone ? raw : zstd));
    }
    raw_size = std::filesystem::file_size(raw);
    auto pack = PackFile::open(zstd);
    check(pack.has_value() ? ok() : Status(std::unexpected(pack.error())));
    const PackBlock* block = pack->find_block(testing::kVideoBlock);
    loaded_size = 0;
    for (const PackBlock& b : pack->blocks()) loaded_size += b.length;
    auto file = read_file(zstd);
    check(file.has_value() ? ok() : Status(std::unexpected(file.error())));
    frame_size = block->stored_length;
    check(write_file_atomic(
        frame, std::string_view(*file).substr(block->file_offset, block->stored_length)));
    std::fprintf(stderr, "pack bench: raw pack %.1f MB, zstd pack %.1f MB, pixel frame %.1f MB\n",
                 static_cast<double>(raw_size) / 1e6,
                 static_cast<double>(std::filesystem::file_size(zstd)) / 1e6,
                 static_cast<double>(frame_size) / 1e6);
  }
  ~Files() {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
  static void check(const Status& s) {
    if (!s) {
      std::fprintf(stderr, "pack bench: %s\n", s.error().to_string().c_str());
      std::exit(1);
    }
  }
};

const Files& files() {
  static Files instance;
  return instance;
}

Loader make_loader() {
  Loader loader;
  loader.register_type(type_hash("Texture"), testing::setup_texture);
  return loader;
}

// Reads the whole file into `buffer` with read(2) in one pass.
bool read_whole(const std::filesystem::path& path, std::byte* buffer, usize size) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  usize done = 0;
  while (done < size) {
    const ssize_t n = ::read(fd, buffer + done, size - done);
    if (n <= 0) break;
    done += static_cast<usize>(n);
  }
  ::close(fd);
  return done == size;
}

// A plain read as a loader would do it: a new buffer for the file, then one read.
void BM_PlainRead(benchmark::State& state) {
  const Files& f = files();
  for (auto _ : state) {
    std::unique_ptr<std::byte[]> buffer(new std::byte[f.raw_size]);
    if (!read_whole(f.raw, buffer.get(), f.raw_size)) state.SkipWithError("short read");
    benchmark::DoNotOptimize(buffer.get());
  }
  state.SetBytesProcessed(static_cast<s64>(state.iterations() * f.raw_size));
}
BENCHMARK(BM_PlainRead)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2.0);

// The same read into a buffer that is reused (already mapped): the page-cache copy alone.
void BM_PlainReadReusedBuffer(benchmark::State& state) {
  const Files& f = files();
  std::vector<std::byte> buffer(f.raw_size);
  for (auto _ : state) {
    if (!read_whole(f.raw, buffer.data(), f.raw_size)) state.SkipWithError("short read");
    benchmark::DoNotOptimize(buffer.data());
  }
  state.SetBytesProcessed(static_cast<s64>(state.iterations() * f.raw_size));
}
BENCHMARK(BM_PlainReadReusedBuffer)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2.0);

void BM_PackLoad(benchmark::State& state) {
  const Files& f = files();
  const Loader loader = make_loader();
  for (auto _ : state) {
    auto pack = loader.load(f.raw);
    if (!pack || pack->size() != kTextures) state.SkipWithError("load failed");
    benchmark::DoNotOptimize(pack->find("texture_7"));
  }
  state.SetBytesProcessed(static_cast<s64>(state.iterations() * f.raw_size));
}
BENCHMARK(BM_PackLoad)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2.0);

void BM_PackLoadZstd(benchmark::State& state) {
  const Files& f = files();
  const Loader loader = make_loader();
  for (auto _ : state) {
    auto pack = loader.load(f.zstd);
    if (!pack || pack->size() != kTextures) state.SkipWithError("load failed");
    benchmark::DoNotOptimize(pack->find("texture_7"));
  }
  state.SetBytesProcessed(static_cast<s64>(state.iterations() * f.loaded_size));
}
BENCHMARK(BM_PackLoadZstd)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2.0);

void BM_ZstdCommand(benchmark::State& state) {
  const Files& f = files();
  const std::string command = "/usr/bin/zstd -q -d -c '" + f.frame.string() + "' > /dev/null";
  for (auto _ : state) {
    if (std::system(command.c_str()) != 0) state.SkipWithError("zstd command failed");
  }
  state.SetBytesProcessed(static_cast<s64>(state.iterations() * (f.loaded_size - kTextures * 16)));
}
BENCHMARK(BM_ZstdCommand)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2.0);

void BM_KeelZstdDecode(benchmark::State& state) {
  const Files& f = files();
  const usize out_size = f.loaded_size - usize{kTextures} * 16;  // the pixel block
  std::vector<std::byte> out(out_size);
  std::vector<std::byte> slice(256 * 1024);
  BlockDecoder decoder;
  for (auto _ : state) {
    const int fd = ::open(f.frame.c_str(), O_RDONLY | O_CLOEXEC);
    Hasher64 hasher;
    bool good = static_cast<bool>(decoder.begin(Compression::kZstd, out));
    for (u64 done = 0; good && done < f.frame_size;) {
      const usize n = static_cast<usize>(std::min<u64>(slice.size(), f.frame_size - done));
      good = ::pread(fd, slice.data(), n, static_cast<off_t>(done)) == static_cast<ssize_t>(n);
      hasher.update(slice.data(), n);
      good = good && decoder.push(std::span(slice).first(n));
      done += n;
    }
    ::close(fd);
    if (!good || !decoder.finish()) state.SkipWithError("decode failed");
    benchmark::DoNotOptimize(hasher.digest());
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(static_cast<s64>(state.iterations() * out_size));
}
BENCHMARK(BM_KeelZstdDecode)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2.0);

// Throughput ratios (numerator time / denominator time, so above 1 means the second is slower):
// pack load throughput as a fraction of a plain read's, keel's zstd decoding against zstd's.
KEEL_BENCH_RATIO("pack load throughput / plain read throughput (goal >= 0.8)",
                 "BM_PlainRead/min_time:2.000/real_time", "BM_PackLoad/min_time:2.000/real_time");
KEEL_BENCH_RATIO("keel zstd block decoding throughput / zstd command throughput",
                 "BM_ZstdCommand/min_time:2.000/real_time",
                 "BM_KeelZstdDecode/min_time:2.000/real_time");

}  // namespace

KEEL_BENCH_MAIN()
