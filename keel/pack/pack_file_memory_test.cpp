// Peak memory of PackFile's list, verify and extract does not grow with the pack's size: packs of
// 40 MB and 160 MB are written to the test folder (deleted after), then each operation runs in a
// forked child whose peak RSS (VmHWM, reset through /proc/self/clear_refs) is compared.
#include "keel/core/testing/peak_memory.h"
#include "keel/pack/pack_file.h"
#include "keel/pack/writer.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>

namespace keel::pack {
namespace {

using keel::testing::kMiB;
using keel::testing::peak_growth;

// One large compressible asset in a zstd block, one raw 1 MB asset and a 3-byte one.
void write_pack(const std::filesystem::path& path, u64 size) {
  ByteBuffer pattern(4096);
  u32 x = 12345;
  for (std::byte& b : pattern) {
    x = x * 1664525u + 1013904223u;
    b = static_cast<std::byte>(x >> 24);
  }
  ByteBuffer big(size);
  for (usize i = 0; i < big.size(); ++i) big[i] = pattern[(i + i / 8192) % pattern.size()];
  PackWriter writer;
  writer.add_item("big", type_hash("Blob"), writer.add_chunk("big", 1, big));
  writer.add_item("tiny", type_hash("Blob"), writer.add_chunk("tiny", 2, as_bytes("abc")));
  ASSERT_TRUE(writer.write(path));
}

TEST(PackFileMemory, ListVerifyExtractPeakDoesNotGrowWithPackSize) {
  const std::filesystem::path dir = std::filesystem::path(KEEL_TEST_TMPDIR) / "pack_memory";
  std::filesystem::create_directories(dir);
  const auto small = dir / "small.kpk";
  const auto large = dir / "large.kpk";
  write_pack(small, 40 * kMiB);
  write_pack(large, 160 * kMiB);
  const std::filesystem::path out = dir / "out.bin";

  auto list = [](const std::filesystem::path& p) {
    auto pack = PackFile::open(p);
    return pack && pack->items().size() == 2 && pack->chunks(0).size() == 1;
  };
  auto verify = [](const std::filesystem::path& p) {
    auto pack = PackFile::open(p);
    return pack && pack->verify().has_value();
  };
  auto extract = [&out](const std::filesystem::path& p, const char* name) {
    auto pack = PackFile::open(p);
    if (!pack) return false;
    const PackItem* item = pack->find_item(name);
    std::FILE* f = std::fopen(out.c_str(), "wb");
    if (item == nullptr || f == nullptr) return false;
    auto s = pack->extract_chunk(item->name_hash, item->primary, [f](ByteSpan piece) -> Status {
      if (std::fwrite(piece.data(), 1, piece.size(), f) != piece.size()) {
        return fail(ErrorCode::kIo, "write failed");
      }
      return ok();
    });
    return std::fclose(f) == 0 && s.has_value();
  };
  struct Case {
    const char* what;
    std::function<bool(const std::filesystem::path&)> run;
  };
  const Case cases[] = {
      {"list", list},
      {"verify", verify},
      {"extract big", [&](const std::filesystem::path& p) { return extract(p, "big"); }},
      {"extract tiny", [&](const std::filesystem::path& p) { return extract(p, "tiny"); }},
  };
  for (const Case& c : cases) {
    auto a = peak_growth([&] { return c.run(small); });
    auto b = peak_growth([&] { return c.run(large); });
    if (!a || !b) GTEST_SKIP() << "cannot reset the peak RSS here (/proc/self/clear_refs)";
    EXPECT_LE(*b, *a + 16 * kMiB) << c.what << ": 40 MB pack peaks +" << *a / kMiB
                                  << " MiB, 160 MB pack +" << *b / kMiB << " MiB";
    EXPECT_LE(*b, 32 * kMiB) << c.what;
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace keel::pack
