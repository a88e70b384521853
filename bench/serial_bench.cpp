// keel::serial on an 80-record set (ints, floats, strings, vectors; in the spirit of
// cpp_serializers_benchmark), saved and loaded separately, against
//   (a) hand-written code: memcpy plus byte swaps into an exactly-sized buffer, the loader
//       bounds-checked as any loader of untrusted data must be (the floor);
//   (b) cereal's BinaryOutputArchive / BinaryInputArchive over an in-memory stream buffer
//       (native byte order, so cereal does no swapping at all).
// Keel saves in one pass into a reused GrowingSaver (BM_KeelSave) and, as save_to_bytes does,
// by sizing first and saving into an exact buffer (BM_KeelSizedSave); the hand-written save
// computes the exact size too. All three load into a reused object, as a game reloading state
// would.
#include "bench_support.h"
#include "keel/serial/serial.h"

#include <cereal/archives/binary.hpp>
#include <cereal/types/string.hpp>
#include <cereal/types/vector.hpp>

#include <cstdlib>
#include <cstring>
#include <istream>
#include <ostream>
#include <streambuf>
#include <string>
#include <vector>

namespace {

using namespace keel;

struct Record {
  u32 id = 0;
  s32 health = 0;
  f32 x = 0, y = 0, z = 0;
  f64 score = 0;
  u16 level = 0;
  std::string name;
  std::vector<s64> ids;
  std::vector<f32> weights;
  std::vector<std::string> tags;

  // One description, used unchanged by keel::serial and by cereal.
  template <class Archive>
  void serialize(Archive& ar) {
    ar(id, health, x, y, z, score, level, name, ids, weights, tags);
  }
  friend bool operator==(const Record&, const Record&) = default;
};

struct RecordSet {
  std::vector<Record> records;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(records);
  }
  friend bool operator==(const RecordSet&, const RecordSet&) = default;
};

RecordSet make_records() {
  RecordSet set;
  u32 seed = 12345;
  auto next = [&seed] {
    seed = seed * 1664525u + 1013904223u;
    return seed >> 8;
  };
  for (u32 i = 0; i < 80; ++i) {
    Record r;
    r.id = i;
    r.health = static_cast<s32>(next() % 200) - 50;
    r.x = static_cast<f32>(next() % 1000) * 0.25f;
    r.y = static_cast<f32>(next() % 1000) * -0.5f;
    r.z = static_cast<f32>(next() % 1000) * 0.125f;
    r.score = static_cast<f64>(next()) / 7.0;
    r.level = static_cast<u16>(next() % 100);
    r.name = "entity_" + std::to_string(next() % 100000);
    for (u32 k = 0; k < 10 + next() % 10; ++k) r.ids.push_back(static_cast<s64>(next()) << 20);
    for (u32 k = 0; k < 16; ++k) r.weights.push_back(static_cast<f32>(next() % 100) / 3.0f);
    for (u32 k = 0; k < 3; ++k) r.tags.push_back("tag" + std::string(next() % 12, 'x'));
    set.records.push_back(std::move(r));
  }
  return set;
}

const RecordSet& records() {
  static const RecordSet set = make_records();
  return set;
}

// --- (a) the hand-written baseline ---------------------------------------------------------

namespace hand {

template <class T>
inline void put(u8*& p, T v) {
  serial::store_be(p, v);
  p += sizeof(T);
}
inline void put_string(u8*& p, const std::string& s) {
  put(p, static_cast<u32>(s.size()));
  std::memcpy(p, s.data(), s.size());
  p += s.size();
}
template <class T>
inline void put_vector(u8*& p, const std::vector<T>& v) {
  put(p, static_cast<u32>(v.size()));
  serial::store_be_array(p, v.data(), v.size());
  p += v.size() * sizeof(T);
}

usize size(const RecordSet& set) {
  usize n = 4;
  for (const Record& r : set.records) {
    n += 4 + 4 + 12 + 8 + 2 + 4 + r.name.size() + 4 + r.ids.size() * 8 + 4 + r.weights.size() * 4 +
         4;
    for (const std::string& t : r.tags) n += 4 + t.size();
  }
  return n;
}

void save(const RecordSet& set, std::vector<u8>& out) {
  out.resize(size(set));
  u8* p = out.data();
  put(p, static_cast<u32>(set.records.size()));
  for (const Record& r : set.records) {
    put(p, r.id);
    put(p, r.health);
    put(p, r.x);
    put(p, r.y);
    put(p, r.z);
    put(p, r.score);
    put(p, r.level);
    put_string(p, r.name);
    put_vector(p, r.ids);
    put_vector(p, r.weights);
    put(p, static_cast<u32>(r.tags.size()));
    for (const std::string& t : r.tags) put_string(p, t);
  }
}

struct Reader {
  const u8* p;
  const u8* end;
  template <class T>
  bool get(T& v) {
    if (static_cast<usize>(end - p) < sizeof(T)) return false;
    v = serial::load_be<T>(p);
    p += sizeof(T);
    return true;
  }
  bool get_string(std::string& s) {
    u32 n = 0;
    if (!get(n) || n > static_cast<usize>(end - p)) return false;
    s.assign(reinterpret_cast<const char*>(p), n);
    p += n;
    return true;
  }
  template <class T>
  bool get_vector(std::vector<T>& v) {
    u32 n = 0;
    if (!get(n) || u64{n} * sizeof(T) > static_cast<usize>(end - p)) return false;
    v.resize(n);
    serial::load_be_array(v.data(), p, n);
    p += usize{n} * sizeof(T);
    return true;
  }
};

bool load(std::span<const u8> bytes, RecordSet& set) {
  Reader in{bytes.data(), bytes.data() + bytes.size()};
  u32 count = 0;
  if (!in.get(count) || count > bytes.size()) return false;
  set.records.resize(count);
  for (Record& r : set.records) {
    u32 tags = 0;
    if (!in.get(r.id) || !in.get(r.health) || !in.get(r.x) || !in.get(r.y) || !in.get(r.z) ||
        !in.get(r.score) || !in.get(r.level) || !in.get_string(r.name) || !in.get_vector(r.ids) ||
        !in.get_vector(r.weights) || !in.get(tags) || tags > bytes.size()) {
      return false;
    }
    r.tags.resize(tags);
    for (std::string& t : r.tags) {
      if (!in.get_string(t)) return false;
    }
  }
  return in.p == in.end;
}

}  // namespace hand

// --- (b) cereal over in-memory stream buffers ----------------------------------------------

// Appends to a reused byte vector (cheaper than std::ostringstream, which reallocates).
class VectorOutBuf : public std::streambuf {
 public:
  explicit VectorOutBuf(std::vector<char>& out) : out_(out) {}

 protected:
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    out_.insert(out_.end(), s, s + n);
    return n;
  }
  int_type overflow(int_type c) override {
    if (c != traits_type::eof()) out_.push_back(static_cast<char>(c));
    return c;
  }

 private:
  std::vector<char>& out_;
};

class MemoryInBuf : public std::streambuf {
 public:
  MemoryInBuf(const char* data, usize size) {
    char* p = const_cast<char*>(data);
    setg(p, p, p + size);
  }
};

// --- the benchmarks ------------------------------------------------------------------------

void check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "serial_bench: %s\n", what);
    std::abort();
  }
}

// One pass into a reused growing buffer (GrowingSaver): Keel's fastest way to save to memory.
void BM_KeelSave(benchmark::State& state) {
  const RecordSet& set = records();
  serial::GrowingSaver saver;
  for (auto _ : state) {
    saver.clear();
    saver.io(set);
    benchmark::DoNotOptimize(saver.bytes().data());
    benchmark::ClobberMemory();
  }
  std::vector<u8> hand_bytes;
  hand::save(set, hand_bytes);
  check(saver.ok() && saver.to_vector() == to_buffer(as_bytes(std::span<const u8>(hand_bytes))),
        "keel and hand-written bytes differ");
  state.SetBytesProcessed(static_cast<s64>(state.iterations() * saver.used()));
  state.counters["bytes"] = static_cast<double>(saver.used());
}
BENCHMARK(BM_KeelSave);

// Size first, then save into an exactly-sized buffer (what save_to_bytes does).
void BM_KeelSizedSave(benchmark::State& state) {
  const RecordSet& set = records();
  ByteBuffer buffer;
  for (auto _ : state) {
    serial::Sizer sizer;
    sizer.io(set);
    buffer.resize(sizer.size());
    serial::BufferSaver saver(buffer);
    saver.io(set);
    benchmark::DoNotOptimize(buffer.data());
    benchmark::ClobberMemory();
  }
  std::vector<u8> hand_bytes;
  hand::save(set, hand_bytes);
  check(buffer == to_buffer(as_bytes(std::span<const u8>(hand_bytes))),
        "keel and hand-written bytes differ");
  state.SetBytesProcessed(static_cast<s64>(state.iterations() * buffer.size()));
}
BENCHMARK(BM_KeelSizedSave);

void BM_HandWrittenSave(benchmark::State& state) {
  const RecordSet& set = records();
  std::vector<u8> buffer;
  for (auto _ : state) {
    hand::save(set, buffer);
    benchmark::DoNotOptimize(buffer.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<s64>(state.iterations() * buffer.size()));
  state.counters["bytes"] = static_cast<double>(buffer.size());
}
BENCHMARK(BM_HandWrittenSave);

void BM_CerealSave(benchmark::State& state) {
  const RecordSet& set = records();
  std::vector<char> buffer;
  for (auto _ : state) {
    buffer.clear();
    VectorOutBuf buf(buffer);
    std::ostream os(&buf);
    {
      cereal::BinaryOutputArchive ar(os);
      ar(set);
    }
    benchmark::DoNotOptimize(buffer.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<s64>(state.iterations() * buffer.size()));
  state.counters["bytes"] = static_cast<double>(buffer.size());
}
BENCHMARK(BM_CerealSave);

void BM_KeelLoad(benchmark::State& state) {
  const ByteBuffer bytes = *serial::save_to_bytes(records());
  RecordSet loaded;
  for (auto _ : state) {
    serial::BufferLoader loader(bytes);
    loader.io(loaded);
    bool ok = static_cast<bool>(loader.finish());
    benchmark::DoNotOptimize(ok);
  }
  check(loaded == records(), "keel load differs");
  state.SetBytesProcessed(static_cast<s64>(state.iterations() * bytes.size()));
}
BENCHMARK(BM_KeelLoad);

void BM_HandWrittenLoad(benchmark::State& state) {
  std::vector<u8> bytes;
  hand::save(records(), bytes);
  RecordSet loaded;
  for (auto _ : state) {
    bool ok = hand::load(bytes, loaded);
    benchmark::DoNotOptimize(ok);
  }
  check(loaded == records(), "hand-written load differs");
  state.SetBytesProcessed(static_cast<s64>(state.iterations() * bytes.size()));
}
BENCHMARK(BM_HandWrittenLoad);

void BM_CerealLoad(benchmark::State& state) {
  std::vector<char> bytes;
  {
    VectorOutBuf buf(bytes);
    std::ostream os(&buf);
    cereal::BinaryOutputArchive ar(os);
    ar(records());
  }
  RecordSet loaded;
  for (auto _ : state) {
    MemoryInBuf buf(bytes.data(), bytes.size());
    std::istream is(&buf);
    cereal::BinaryInputArchive ar(is);
    ar(loaded);
    benchmark::DoNotOptimize(loaded.records.data());
  }
  check(loaded == records(), "cereal load differs");
  state.SetBytesProcessed(static_cast<s64>(state.iterations() * bytes.size()));
}
BENCHMARK(BM_CerealLoad);

}  // namespace

KEEL_BENCH_RATIO("serial save 80 records: keel vs hand-written", "BM_KeelSave",
                 "BM_HandWrittenSave");
KEEL_BENCH_RATIO("serial save 80 records: keel vs cereal", "BM_KeelSave", "BM_CerealSave");
KEEL_BENCH_RATIO("serial save 80 records: keel sizer + exact buffer vs hand-written",
                 "BM_KeelSizedSave", "BM_HandWrittenSave");
KEEL_BENCH_RATIO("serial load 80 records: keel vs hand-written", "BM_KeelLoad",
                 "BM_HandWrittenLoad");
KEEL_BENCH_RATIO("serial load 80 records: keel vs cereal", "BM_KeelLoad", "BM_CerealLoad");

KEEL_BENCH_MAIN()
