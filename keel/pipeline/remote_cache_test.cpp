// The remote cache's logic (keys, records, verification, a store that goes down) and the
// builder's hook, against an in-memory store. The HTTP transport against a real nginx is
// tools/keel-build/remote_cache_test.sh.
#include "keel/pipeline/remote_cache.h"
#include "keel/core/file.h"
#include "keel/pipeline/builder.h"
#include "keel/pipeline/single_asset.h"
#include "keel/pipeline/testing/pipeline_fixture.h"

#include <gtest/gtest.h>

#include <map>
#include <mutex>

namespace keel::pipeline {
namespace {

namespace fs = std::filesystem;
using testing::Pipeline;

class MemoryStore final : public CacheStore {
 public:
  Result<std::optional<ByteBuffer>> get(CacheSpace space, std::string_view key) override {
    std::lock_guard lock(mutex_);
    ++gets;
    if (down) return fail(ErrorCode::kIo, "connection refused");
    auto it = entries.find(name(space, key));
    if (it == entries.end()) return std::optional<ByteBuffer>();
    return std::optional<ByteBuffer>(it->second);
  }
  Status put(CacheSpace space, std::string_view key, ByteSpan bytes) override {
    std::lock_guard lock(mutex_);
    ++puts;
    if (down) return fail(ErrorCode::kIo, "connection refused");
    entries[name(space, key)] = to_buffer(bytes);
    return ok();
  }
  std::string where() const override { return "memory"; }

  static std::string name(CacheSpace space, std::string_view key) {
    return fmt::format("{}/{}", to_string(space), key);
  }
  usize count(std::string_view prefix) const {
    usize n = 0;
    for (const auto& [k, v] : entries) n += k.starts_with(prefix) ? 1 : 0;
    return n;
  }

  std::map<std::string, ByteBuffer> entries;
  bool down = false;
  int gets = 0;
  int puts = 0;

 private:
  std::mutex mutex_;
};

TEST(RemoteCache, Sha256MatchesFips180Vectors) {
  EXPECT_EQ(sha256_hex(as_bytes("abc")),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256_hex(as_bytes("")),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex(as_bytes("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_TRUE(is_sha256_hex(sha256_hex(as_bytes("abc"))));
  EXPECT_FALSE(is_sha256_hex("../../etc/passwd"));
  EXPECT_FALSE(is_sha256_hex(std::string(64, 'A')));  // lowercase only
}

TEST(RemoteCache, ActionKeyCoversEveryInput) {
  const ActionInput base{"Blob", 7, "PC", "face", 42, {{"src/face.tga", 1}}};
  const std::string key = action_key(base);
  EXPECT_TRUE(is_sha256_hex(key));
  EXPECT_EQ(action_key(base), key);
  auto differs = [&](auto change) {
    ActionInput in = base;
    change(in);
    return action_key(in) != key;
  };
  EXPECT_TRUE(differs([](ActionInput& in) { in.handler_type = "Blob2"; }));
  EXPECT_TRUE(differs([](ActionInput& in) { in.handler_key = 8; }));
  EXPECT_TRUE(differs([](ActionInput& in) { in.platform = "XBOX"; }));
  EXPECT_TRUE(differs([](ActionInput& in) { in.asset_name = "face2"; }));
  EXPECT_TRUE(differs([](ActionInput& in) { in.command_hash = 43; }));
  EXPECT_TRUE(differs([](ActionInput& in) { in.sources[0].hash = 2; }));
  EXPECT_TRUE(differs([](ActionInput& in) { in.sources[0].path = "src/face.png"; }));
  EXPECT_TRUE(differs([](ActionInput& in) { in.sources.push_back({"x", 1}); }));
  // Field boundaries count: ("ab", "c") is not ("a", "bc").
  EXPECT_NE(action_key({"ab", 0, "c", "", 0, {}}), action_key({"a", 0, "bc", "", 0, {}}));
}

ActionRecord record(std::string_view content, u64 build_ns, bool inlined) {
  ActionRecord r;
  r.content = sha256_hex(as_bytes(content));
  r.size = content.size();
  r.build_ns = build_ns;
  r.inlined = inlined;
  if (inlined) r.data = content;
  return r;
}

TEST(RemoteCache, ActionRecordRoundTripsAndRejectsGarbage) {
  const ActionRecord r = record("x", 123456, false);
  Result<ActionRecord> back = ActionRecord::parse(r.to_text());
  ASSERT_TRUE(back) << back.error().to_string();
  EXPECT_EQ(back->content, r.content);
  EXPECT_EQ(back->size, 1u);
  EXPECT_EQ(back->build_ns, 123456u);
  const std::string text = r.to_text();
  EXPECT_FALSE(ActionRecord::parse(""));
  EXPECT_FALSE(ActionRecord::parse("<html>404</html>"));
  EXPECT_FALSE(ActionRecord::parse(text.substr(0, text.size() - 1)));  // no final newline
  EXPECT_FALSE(ActionRecord::parse(text + "more\n"));
  std::string bad_hash = text;
  bad_hash[bad_hash.find("cas ") + 4] = 'Z';
  EXPECT_FALSE(ActionRecord::parse(bad_hash));
  std::string bad_size = text;
  bad_size.replace(bad_size.find("size 1"), 6, "size -1");
  EXPECT_FALSE(ActionRecord::parse(bad_size));
  std::string padded = text;
  padded.replace(padded.find("size 1"), 6, "size 01");
  EXPECT_FALSE(ActionRecord::parse(padded)) << "one text per record";
  EXPECT_FALSE(ActionRecord::parse(std::string(5000, 'a')));
  EXPECT_FALSE(back->inlined);
  EXPECT_TRUE(back->data.empty());
  EXPECT_TRUE(parse_cache_mode("read"));
  EXPECT_EQ(*parse_cache_mode("readwrite"), CacheMode::kReadWrite);
  EXPECT_FALSE(parse_cache_mode("write"));
}

TEST(RemoteCache, InlineActionRecordCarriesExactlyItsContent) {
  // Binary content with newlines and NULs: only `size` delimits it.
  const std::string content("line\n\0\xff\nkeel-cache-action 1\n", 27);
  const ActionRecord r = record(content, 99, true);
  const std::string text = r.to_text();
  EXPECT_TRUE(text.starts_with("keel-cache-action 2\ninline "));
  EXPECT_TRUE(text.ends_with(content));
  Result<ActionRecord> back = ActionRecord::parse(text);
  ASSERT_TRUE(back) << back.error().to_string();
  EXPECT_TRUE(back->inlined);
  EXPECT_EQ(back->content, r.content);
  EXPECT_EQ(back->size, content.size());
  EXPECT_EQ(back->build_ns, 99u);
  EXPECT_EQ(back->data, content);
  EXPECT_EQ(back->to_text(), text);

  EXPECT_FALSE(ActionRecord::parse(text.substr(0, text.size() - 1))) << "truncated content";
  EXPECT_FALSE(ActionRecord::parse(text + "x")) << "content longer than its size";
  std::string as_cas = text;
  as_cas.replace(as_cas.find("inline "), 7, "cas ");
  EXPECT_FALSE(ActionRecord::parse(as_cas)) << "format 2 names its content inline";
  std::string v1_inline = text;
  v1_inline[v1_inline.find('2')] = '1';
  EXPECT_FALSE(ActionRecord::parse(v1_inline)) << "format 1 carries no content";
  EXPECT_TRUE(ActionRecord::parse(record("", 1, true).to_text())) << "empty content";
  // A size beyond the inline limit is refused before anything is trusted.
  std::string huge = record("", 1, true).to_text();
  huge.replace(huge.find("size 0"), 6, fmt::format("size {}", kMaxInlineContent + 1));
  EXPECT_FALSE(ActionRecord::parse(huge));
  // Long text lines are not a record even when content follows.
  std::string long_lines = text;
  long_lines.replace(long_lines.find("build_ns 99"), 11, "build_ns 9" + std::string(1100, '9'));
  EXPECT_FALSE(ActionRecord::parse(long_lines));
}

TEST(RemoteCache, ProjectNamesItsCache) {
  text::Diagnostics diag;
  std::optional<Project> p = parse_project(
      "Platform(\"PC\");\nDataFile(\"main.kcmd\");\n"
      "Cache(\"http://cache.studio.example:8080/keel\");\n",
      "/tmp/x/cache.kproj", diag);
  ASSERT_TRUE(p) << diag.render();
  EXPECT_EQ(p->cache_url, "http://cache.studio.example:8080/keel");
  EXPECT_FALSE(parse_project("Platform(\"PC\");\nDataFile(\"main.kcmd\");\nCache(8080);\n",
                             "/tmp/x/bad.kproj", diag));
}

class RemotePipeline : public Pipeline {
 public:
  ByteBuffer data_file() {
    Result<std::string> bytes = keel::read_file(files_.path("image/PC/main.kpk"));
    EXPECT_TRUE(bytes);
    return bytes ? to_buffer(*bytes) : ByteBuffer();
  }
  void wipe_intermediates() {
    fs::remove_all(files_.path("obj"));
    reload();
  }
  MemoryStore store_;
};

TEST_F(RemotePipeline, MissUploadsThenHitInstallsWithoutBuilding) {
  RemoteCache writer(store_, CacheMode::kReadWrite);
  DataFileReport r = build({.remote_cache = &writer});
  ASSERT_TRUE(r.ok) << messages_;
  EXPECT_EQ(created_, 3u);
  CacheStats s = writer.stats();
  EXPECT_EQ(s.misses, 3u);
  EXPECT_EQ(s.hits, 0u);
  EXPECT_EQ(s.uploads, 3u);
  EXPECT_GT(s.bytes_up, 0u);
  EXPECT_EQ(store_.count("ac/"), 3u);
  EXPECT_EQ(store_.count("cas/"), 0u) << "small intermediates travel inside their record";
  EXPECT_EQ(store_.puts, 3) << "one request per upload";
  const ByteBuffer local = data_file();

  wipe_intermediates();
  fs::remove(files_.path("image/PC/main.kpk"));
  RemoteCache reader(store_, CacheMode::kRead);
  const int puts = store_.puts;
  const int gets = store_.gets;
  r = build({.remote_cache = &reader});
  ASSERT_TRUE(r.ok) << messages_;
  EXPECT_EQ(created_, 0u) << "a hit runs no handler work";
  s = reader.stats();
  EXPECT_EQ(s.hits, 3u);
  EXPECT_EQ(s.misses, 0u);
  EXPECT_EQ(s.bad_entries, 0u);
  EXPECT_GT(s.bytes_down, 0u);
  EXPECT_EQ(store_.puts, puts) << "read mode uploads nothing";
  EXPECT_EQ(store_.gets - gets, 3) << "one request per inline hit";
  EXPECT_EQ(data_file(), local) << "the same data file, byte for byte";
  EXPECT_NE(reader.summary().find("3 hits, 0 misses"), std::string::npos) << reader.summary();

  // The downloads are recorded like builds: the next build is a local no-op.
  reload();
  r = build({.remote_cache = &reader});
  EXPECT_EQ(r.built, 0u);
  EXPECT_EQ(r.up_to_date, 3u);
  EXPECT_EQ(reader.stats().hits, 3u);
}

TEST_F(RemotePipeline, ChangedSourceIsAMiss) {
  RemoteCache cache(store_, CacheMode::kReadWrite);
  ASSERT_TRUE(build({.remote_cache = &cache}).ok) << messages_;
  files_.write("src/hero.bin", "HERO-v2");
  wipe_intermediates();
  ASSERT_TRUE(build({.remote_cache = &cache}).ok) << messages_;
  EXPECT_EQ(created_, 1u);
  EXPECT_EQ(cache.stats().hits, 2u);
  EXPECT_EQ(cache.stats().misses, 4u);
}

TEST_F(RemotePipeline, CorruptInlineEntryIsReportedAndRebuiltLocally) {
  RemoteCache writer(store_, CacheMode::kReadWrite);
  ASSERT_TRUE(build({.remote_cache = &writer}).ok) << messages_;
  const ByteBuffer local = data_file();
  ASSERT_EQ(store_.count("ac/"), 3u);
  // Flip the last byte of one record: its inline content, which the record's hash covers.
  store_.entries.begin()->second.back() ^= std::byte{1};
  // Cut another one short: the content no longer has the record's size.
  std::next(store_.entries.begin())->second.pop_back();

  wipe_intermediates();
  RemoteCache reader(store_, CacheMode::kRead);
  const DataFileReport r = build({.remote_cache = &reader});
  ASSERT_TRUE(r.ok) << messages_;
  EXPECT_EQ(created_, 2u) << "both bad entries are built locally";
  EXPECT_EQ(reader.stats().bad_entries, 2u);
  EXPECT_EQ(reader.stats().hits, 1u);
  EXPECT_NE(messages_.find("inline content does not have the SHA-256"), std::string::npos)
      << messages_;
  EXPECT_NE(messages_.find("inline content of"), std::string::npos) << messages_;
  EXPECT_EQ(data_file(), local);
}

TEST_F(RemotePipeline, LargeIntermediateGoesThroughCas) {
  std::string big(kDefaultInlineLimit + 1000, '\0');
  for (usize i = 0; i < big.size(); ++i) big[i] = static_cast<char>(i * 7 + i / 251);
  files_.write("src/hero.bin", big);
  RemoteCache writer(store_, CacheMode::kReadWrite);
  ASSERT_TRUE(build({.remote_cache = &writer}).ok) << messages_;
  EXPECT_EQ(writer.stats().uploads, 3u);
  EXPECT_EQ(store_.count("ac/"), 3u);
  ASSERT_EQ(store_.count("cas/"), 1u) << "only the large intermediate";
  EXPECT_EQ(store_.puts, 4);
  auto content = std::find_if(store_.entries.begin(), store_.entries.end(),
                              [](const auto& e) { return e.first.starts_with("cas/"); });
  EXPECT_GT(content->second.size(), kDefaultInlineLimit);
  const ByteBuffer local = data_file();

  wipe_intermediates();
  RemoteCache reader(store_, CacheMode::kRead);
  const int gets = store_.gets;
  ASSERT_TRUE(build({.remote_cache = &reader}).ok) << messages_;
  EXPECT_EQ(created_, 0u);
  EXPECT_EQ(reader.stats().hits, 3u);
  EXPECT_EQ(store_.gets - gets, 4) << "two requests for the large one, one for each small one";
  EXPECT_EQ(data_file(), local);

  // A record in the older form (format 1, content in cas/) of a small intermediate still hits.
  RemoteCache all_cas(store_, CacheMode::kReadWrite, 0);
  store_.entries.clear();
  wipe_intermediates();
  ASSERT_TRUE(build({.remote_cache = &all_cas}).ok) << messages_;
  EXPECT_EQ(store_.count("cas/"), 3u);
  wipe_intermediates();
  RemoteCache reader2(store_, CacheMode::kRead);
  ASSERT_TRUE(build({.remote_cache = &reader2}).ok) << messages_;
  EXPECT_EQ(reader2.stats().hits, 3u);
  EXPECT_EQ(data_file(), local);
}

TEST_F(RemotePipeline, CorruptEntryIsReportedAndRebuiltLocally) {
  RemoteCache writer(store_, CacheMode::kReadWrite, 0);  // every intermediate through cas/
  ASSERT_TRUE(build({.remote_cache = &writer}).ok) << messages_;
  const ByteBuffer local = data_file();
  // Flip a byte of one content entry, and make another action record garbage.
  auto content = std::find_if(store_.entries.begin(), store_.entries.end(),
                              [](const auto& e) { return e.first.starts_with("cas/"); });
  ASSERT_NE(content, store_.entries.end());
  content->second.back() ^= std::byte{1};

  wipe_intermediates();
  RemoteCache reader(store_, CacheMode::kRead);
  const DataFileReport r = build({.remote_cache = &reader});
  ASSERT_TRUE(r.ok) << messages_;
  EXPECT_EQ(created_, 1u) << "the bad entry is built locally";
  EXPECT_EQ(reader.stats().bad_entries, 1u);
  EXPECT_EQ(reader.stats().hits, 2u);
  EXPECT_NE(messages_.find("bad entry"), std::string::npos) << messages_;
  EXPECT_EQ(data_file(), local);

  // An action record that is not one.
  for (auto& [name, bytes] : store_.entries) {
    if (name.starts_with("ac/")) bytes = to_buffer("<html>oops</html>");
  }
  wipe_intermediates();
  RemoteCache third(store_, CacheMode::kRead);
  ASSERT_TRUE(build({.remote_cache = &third}).ok) << messages_;
  EXPECT_EQ(created_, 3u);
  EXPECT_EQ(third.stats().bad_entries, 3u);
  EXPECT_EQ(data_file(), local);
}

TEST_F(RemotePipeline, StoreThatIsDownWarnsOnceAndTheBuildGoesOn) {
  store_.down = true;
  RemoteCache cache(store_, CacheMode::kReadWrite);
  const DataFileReport r = build({.remote_cache = &cache});
  ASSERT_TRUE(r.ok) << messages_;
  EXPECT_EQ(r.built, 3u);
  EXPECT_EQ(created_, 3u);
  EXPECT_TRUE(cache.stats().down);
  EXPECT_EQ(store_.gets, 1) << "asked once, then off for the run";
  EXPECT_EQ(store_.puts, 0);
  usize warnings = 0;
  for (usize at = messages_.find("not usable"); at != std::string::npos;
       at = messages_.find("not usable", at + 1)) {
    ++warnings;
  }
  EXPECT_EQ(warnings, 1u) << messages_;
  EXPECT_NE(cache.summary().find("store failed"), std::string::npos);
}

TEST_F(RemotePipeline, ForceRebuildDoesNotFetch) {
  RemoteCache cache(store_, CacheMode::kReadWrite);
  ASSERT_TRUE(build({.remote_cache = &cache}).ok) << messages_;
  const int gets = store_.gets;
  ASSERT_TRUE(build({.force_rebuild = true, .remote_cache = &cache}).ok) << messages_;
  EXPECT_EQ(created_, 3u);
  EXPECT_EQ(store_.gets, gets);
}

TEST_F(RemotePipeline, DirectoryStoreKeepsEntriesAndRefusesBadKeys) {
  DirectoryCacheStore store(files_.path("store"));
  const std::string key = sha256_hex(as_bytes("abc"));
  Result<std::optional<ByteBuffer>> missing = store.get(CacheSpace::kContent, key);
  ASSERT_TRUE(missing);
  EXPECT_FALSE(*missing);
  ASSERT_TRUE(store.put(CacheSpace::kContent, key, as_bytes("abc")));
  Result<std::optional<ByteBuffer>> got = store.get(CacheSpace::kContent, key);
  ASSERT_TRUE(got && *got);
  EXPECT_EQ(keel::to_string(**got), "abc");
  EXPECT_FALSE(*store.get(CacheSpace::kActions, key)) << "the two spaces are apart";
  EXPECT_FALSE(store.get(CacheSpace::kContent, "../project.kproj"));
  EXPECT_FALSE(store.put(CacheSpace::kContent, "../project.kproj", as_bytes("x")));
}

TEST_F(RemotePipeline, OneAssetBuildsFeedTheDataFileBuildThroughAStore) {
  ASSERT_TRUE(build().ok) << messages_;
  const ByteBuffer local = data_file();
  wipe_intermediates();
  fs::remove(files_.path("image/PC/main.kpk"));

  DirectoryCacheStore store(files_.path("store"));
  RemoteCache writer(store, CacheMode::kReadWrite);
  Result<DataFilePlan> plan = plan_data_file(project(), handlers_, "pc", "main");
  ASSERT_TRUE(plan) << plan.error().to_string();
  EXPECT_EQ(plan->platform, "PC");
  ASSERT_EQ(plan->assets, 3u);
  EXPECT_EQ(plan->asset_labels[0], "Blob face");
  ASSERT_EQ(plan->command_files.size(), 2u);  // main.kcmd and the AddFile'd sub.kcmd
  EXPECT_EQ(plan->command_files[1], files_.path("sub.kcmd"));
  for (usize i = 0; i < plan->assets; ++i) {
    Result<OneAssetReport> r =
        build_one_asset(project(), handlers_, {.remote_cache = &writer}, "PC", "main.kcmd", i);
    ASSERT_TRUE(r) << r.error().to_string();
    EXPECT_EQ(r->outcome, AssetOutcome::kBuilt) << r->messages;
    ASSERT_EQ(r->sources.size(), 1u);
    EXPECT_TRUE(r->sources[0].is_absolute());
  }
  EXPECT_EQ(writer.stats().uploads, 3u);
  EXPECT_FALSE(fs::exists(files_.path("obj/PC/main/build.kdb")))
      << "one-asset builds never write it";
  EXPECT_FALSE(build_one_asset(project(), handlers_, {}, "PC", "main.kcmd", 3));
  EXPECT_FALSE(plan_data_file(project(), handlers_, "PC", "nothere.kcmd"));

  RemoteCache reader(store, CacheMode::kRead);
  ASSERT_TRUE(build({.remote_cache = &reader}).ok) << messages_;
  EXPECT_EQ(created_, 0u);
  EXPECT_EQ(reader.stats().hits, 3u);
  EXPECT_EQ(data_file(), local);
}

}  // namespace
}  // namespace keel::pipeline
