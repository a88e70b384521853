// Replay driver for fuzz targets in builds without libFuzzer (GCC, sanitizer builds).
//
// Usage: <target> [corpus-dir-or-file...]
// Feeds every seed file to LLVMFuzzerTestOneInput, then deterministic mutations of each seed
// (bit flips, truncations, byte insertions, splices) and some pseudo-random buffers, so the
// target's error paths run under ASan/UBSan in every test run. Exit code 0 unless the target
// crashes (which the sanitizers report).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

using Bytes = std::vector<uint8_t>;

void run(const Bytes& input) {
  // Copy into an exactly-sized heap buffer so ASan catches reads past the end.
  auto* copy = new uint8_t[input.empty() ? 1 : input.size()];
  std::copy(input.begin(), input.end(), copy);
  LLVMFuzzerTestOneInput(copy, input.size());
  delete[] copy;
}

void collect(const std::filesystem::path& path, std::vector<Bytes>& seeds) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(path, ec)) {
      if (entry.is_regular_file()) files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    for (const auto& f : files) collect(f, seeds);
  } else if (std::filesystem::is_regular_file(path, ec)) {
    std::ifstream in(path, std::ios::binary);
    seeds.emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<Bytes> seeds;
  for (int i = 1; i < argc; ++i) collect(argv[i], seeds);
  seeds.emplace_back();  // the empty input

  std::mt19937 rng(12345);
  size_t runs = 0;
  for (const Bytes& seed : seeds) {
    run(seed);
    ++runs;
    for (int round = 0; round < 200; ++round) {
      Bytes m = seed;
      const int edits = 1 + static_cast<int>(rng() % 4);
      for (int e = 0; e < edits; ++e) {
        switch (rng() % 5) {
          case 0:
            if (!m.empty()) m[rng() % m.size()] ^= static_cast<uint8_t>(1u << (rng() % 8));
            break;
          case 1:
            if (!m.empty()) m.resize(rng() % m.size());
            break;
          case 2:
            m.insert(m.begin() + static_cast<std::ptrdiff_t>(m.empty() ? 0 : rng() % m.size()),
                     static_cast<uint8_t>(rng()));
            break;
          case 3:
            if (!m.empty()) m[rng() % m.size()] = static_cast<uint8_t>(rng() % 2 ? 0xFF : 0x00);
            break;
          default: {
            const Bytes& other = seeds[rng() % seeds.size()];
            if (!other.empty()) {
              const size_t from = rng() % other.size();
              m.insert(m.end(), other.begin() + static_cast<std::ptrdiff_t>(from), other.end());
            }
          }
        }
      }
      run(m);
      ++runs;
    }
  }
  for (int i = 0; i < 500; ++i) {
    Bytes random(rng() % 256);
    for (auto& b : random) b = static_cast<uint8_t>(rng());
    run(random);
    ++runs;
  }
  std::printf("replayed %zu inputs from %zu seeds\n", runs, seeds.size() - 1);
  return 0;
}
