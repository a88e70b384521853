// Never lose a save: atomic files, checksums ("save file corrupt at byte N"), all-or-nothing
// loads, layout refusal, and the entry points' misuse handling.
#include "keel/save/save_file.h"
#include "keel/core/hash.h"
#include "keel/save/format.h"
#include "keel/save/testing/book_objects.h"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>

namespace keel::save {
namespace {

using testing::BookScene;
using testing::ExObj1;

Status load_scene(const SaveSystem& system, ByteSpan file, SaveFile& f) {
  alignas(8) static char level[64] = {};
  Status st = f.begin_load_bytes(file);
  u32 client = 0;
  if (st) st = f.get_value(client);
  if (st) {
    f.declare_block(level, 64);
    st = f.process_objects();
  }
  (void)system;
  return f.end(st);
}

TEST(SaveFile, CompressedRoundTripIsSmaller) {
  SaveSystem system = testing::book_system();
  BookScene scene;
  auto packed = testing::save_scene(system, scene, {Compression::kZstd});
  auto stored = testing::save_scene(system, scene, {Compression::kNone});
  ASSERT_TRUE(packed && stored);
  EXPECT_LT(packed->size(), stored->size());
  SaveFile f(system);
  ASSERT_TRUE(load_scene(system, *packed, f));
  EXPECT_EQ(f.take_objects().size(), 3u);
}

TEST(SaveFile, FlippedByteAnywhereIsCorruptNeverACrash) {
  SaveSystem system = testing::book_system();
  BookScene scene;
  auto file = testing::save_scene(system, scene);
  ASSERT_TRUE(file);
  for (usize i = 0; i < file->size(); ++i) {
    ByteBuffer bad = *file;
    bad[i] ^= std::byte{0x20};
    SaveFile f(system);
    ExObj1::load_calls = 0;
    auto st = load_scene(system, bad, f);
    ASSERT_FALSE(st) << "byte " << i;
    EXPECT_EQ(st.error().code(), ErrorCode::kCorrupt) << i << ": " << st.error().message();
    if (i >= 8) {
      EXPECT_NE(st.error().message().find("save file corrupt at byte"), std::string::npos)
          << st.error().message();
    }
    EXPECT_EQ(ExObj1::load_calls, 0);  // nothing restored
    EXPECT_TRUE(f.take_objects().empty());
  }
}

TEST(SaveFile, TruncatedAndExtendedFilesAreCorrupt) {
  SaveSystem system = testing::book_system();
  BookScene scene;
  auto file = testing::save_scene(system, scene);
  ASSERT_TRUE(file);
  for (usize n : {usize{0}, usize{10}, usize{47}, usize{60}, file->size() - 1}) {
    SaveFile f(system);
    auto st = f.begin_load_bytes(ByteSpan(*file).first(n));
    ASSERT_FALSE(st) << n;
    EXPECT_EQ(st.error().code(), ErrorCode::kCorrupt);
  }
  ByteBuffer longer = *file;
  longer.push_back(std::byte{0});
  SaveFile f(system);
  auto st = f.begin_load_bytes(longer);
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message().find("after its end"), std::string::npos);
}

TEST(SaveFile, LoadIsAllOrNothing) {
  // A failure in the middle of the load pass (custom data of the 1st object unread) leaves the
  // caller with no objects at all.
  SaveSystem system = testing::book_system();
  BookScene scene;
  testing::ExObj4 custom;
  custom.samples = {1.f, 2.f};
  custom.nextObject = &scene.a;
  SaveFile out(system);
  ASSERT_TRUE(out.begin_save({}));
  ASSERT_TRUE(out.put_value(u32{0xABCD}));
  out.declare_block(scene.level, 64);
  out.declare_object(&custom);
  ASSERT_TRUE(out.end(out.process_objects()));
  testing::ExObj4::read_one_too_few = true;
  SaveFile in(system);
  auto st = load_scene(system, out.bytes(), in);
  testing::ExObj4::read_one_too_few = false;
  ASSERT_FALSE(st);
  EXPECT_TRUE(in.take_objects().empty());
}

TEST(SaveFile, OtherLayoutIsRefusedWithAMessage) {
  SaveSystem system = testing::book_system();
  BookScene scene;
  auto file = testing::save_scene(system, scene);
  ASSERT_TRUE(file);
  ByteBuffer foreign = *file;
  foreign[8] = std::byte{kBigEndian};
  foreign[9] = std::byte{4};
  // Re-seal the header as a big-endian 32-bit writer would have.
  u32 client_size = 0;
  std::memcpy(&client_size, foreign.data() + 12, 4);
  const u64 check =
      hash64(foreign.data() + kFixedHeaderSize, client_size, hash64(foreign.data(), 40));
  std::memcpy(foreign.data() + 40, &check, 8);
  SaveFile f(system);
  auto st = f.begin_load_bytes(foreign);
  ASSERT_FALSE(st);
  EXPECT_EQ(st.error().code(), ErrorCode::kUnsupported);
  EXPECT_NE(st.error().message().find("big-endian, 32-bit pointers"), std::string::npos)
      << st.error().message();
}

TEST(SaveFile, CustomDataTableCutInsideAnEntryIsCorrupt) {
  // Found by the fuzz target (seed crash_extras_table_cut): a table whose size ends inside an
  // entry's index and length made the entry's length check wrap around.
  SaveSystem system = testing::book_system();
  BookScene scene;
  testing::ExObj4 custom;
  custom.samples = {1.f};
  custom.nextObject = &scene.a;
  SaveFile out(system);
  ASSERT_TRUE(out.begin_save({}, {Compression::kNone}));
  out.declare_block(scene.level, 64);
  out.declare_object(&custom);
  ASSERT_TRUE(out.end(out.process_objects()));
  // The body ends with the custom data: u64 size 16, then index 1, length 8, count 1, 1.0f.
  ByteBuffer body(out.body().begin(), out.body().end());
  const usize size_at = body.size() - 24;
  u64 size = 0;
  std::memcpy(&size, body.data() + size_at, 8);
  ASSERT_EQ(size, 16u);
  size = 3;  // ends inside the entry's index; the entry now claims more than the body holds
  std::memcpy(body.data() + size_at, &size, 8);
  const u32 length = 2048;
  std::memcpy(body.data() + size_at + 12, &length, 4);
  FileHeader header;
  header.compression = Compression::kNone;
  header.version = system.version();
  auto file = encode_file(header, body);
  ASSERT_TRUE(file);
  SaveFile in(system);
  Status st = in.begin_load_bytes(*file);
  in.declare_block(scene.level, 64);
  if (st) st = in.process_objects();
  st = in.end(st);
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message().find("custom data table is malformed"), std::string::npos)
      << st.error().message();
}

TEST(SaveFile, AtomicWriteKeepsOldSaveOnFailure) {
  SaveSystem system = testing::book_system();
  auto dir = std::filesystem::temp_directory_path() / fmt::format("keel_save_atomic.{}", getpid());
  std::filesystem::create_directories(dir);
  const auto path = dir / "slot.ksav";
  BookScene scene;
  SaveFile f(system);
  ASSERT_TRUE(f.begin_save(path));
  f.declare_block(scene.level, 64);
  f.declare_object(&scene.a);
  ASSERT_TRUE(f.end(f.process_objects()));
  const auto size = std::filesystem::file_size(path);
  // A failing save (pointer into undeclared memory) leaves the old file as it was.
  static const char nowhere[4] = {};
  scene.a.objName = nowhere;
  ASSERT_TRUE(f.begin_save(path));
  f.declare_block(scene.level, 64);
  f.declare_object(&scene.a);
  EXPECT_FALSE(f.end(f.process_objects()));
  EXPECT_EQ(std::filesystem::file_size(path), size);
  usize entries = 0;
  for ([[maybe_unused]] auto& e : std::filesystem::directory_iterator(dir)) ++entries;
  EXPECT_EQ(entries, 1u);  // no temporary left behind
  std::filesystem::remove_all(dir);
}

TEST(SaveFile, FileWrittenAroundItsBodyInPlaceIsTheCopiedFile) {
  // Format level: the same bytes as encode_file, with and without client data.
  ByteBuffer body(200'000);
  for (usize i = 0; i < body.size(); ++i) body[i] = static_cast<std::byte>(i * 7 + i / 1000);
  for (const char* level : {"", "harbour"}) {
    FileHeader header;
    header.compression = Compression::kNone;
    header.version = 0x1234;
    header.client.level_name = level;
    header.client.extra = {std::byte{1}, std::byte{2}};
    auto copied = encode_file(header, body);
    auto prefix = uncompressed_prefix_size(header, body.size());
    ASSERT_TRUE(copied && prefix);
    ByteBuffer in_place(*prefix, std::byte{0xEE});
    in_place.insert(in_place.end(), body.begin(), body.end());
    ASSERT_TRUE(encode_file_in_place(header, in_place, *prefix));
    EXPECT_EQ(in_place, *copied) << level;
    ByteBuffer short_room(*prefix - 1);
    short_room.insert(short_room.end(), body.begin(), body.end());
    EXPECT_FALSE(encode_file_in_place(header, short_room, *prefix - 1));
  }
  // Through SaveFile: the first save of a system copies its body (no room yet), the next ones
  // write around it; a client header of another size copies again. All give the same body.
  SaveSystem system = testing::plain_system();
  alignas(8) static char level[64] = {};
  ByteBuffer first_body;
  auto first = testing::save_plain_scene(system, level, {Compression::kNone}, &first_body);
  ASSERT_TRUE(first);
  for (int round = 0; round < 2; ++round) {
    ByteBuffer again_body;
    auto again = testing::save_plain_scene(system, level, {Compression::kNone}, &again_body);
    ASSERT_TRUE(again);
    EXPECT_EQ(*again, *first) << round;
    EXPECT_EQ(again_body, first_body) << round;
  }
  SaveFile f(system);
  ASSERT_TRUE(f.begin_save({}, {Compression::kNone}));
  ClientHeader client;
  client.level_name = "a much longer level name than before";
  f.set_header(client);
  ASSERT_TRUE(f.put_value(u32{0xABCD}));
  ASSERT_TRUE(f.end());
  auto decoded = decode_file(f.bytes());
  ASSERT_TRUE(decoded);
  EXPECT_EQ(decoded->header.client.level_name, "a much longer level name than before");
  EXPECT_TRUE(
      std::equal(decoded->body.begin(), decoded->body.end(), f.body().begin(), f.body().end()));
}

TEST(EntryPoints, SaveFileWrongOrder) {
  SaveSystem system = testing::book_system();
  SaveFile f(system);
  std::byte b{};
  EXPECT_FALSE(SaveFile(system).put(ByteSpan(&b, 1)));
  EXPECT_FALSE(SaveFile(system).get(MutableByteSpan(&b, 1)));
  EXPECT_FALSE(SaveFile(system).process_objects());
  EXPECT_FALSE(SaveFile(system).end());
  EXPECT_EQ(SaveFile(system).declare_block(&b, 1), 0u);
  BookScene scene;
  EXPECT_EQ(SaveFile(system).declare_object(&scene.a), 0u);
  {
    SaveFile s(system);
    ASSERT_TRUE(s.begin_save({}));
    EXPECT_FALSE(s.begin_save({}));  // twice
  }
  {
    SaveFile s(system);
    ASSERT_TRUE(s.begin_save({}));
    EXPECT_FALSE(s.process_objects());  // nothing declared
  }
  {
    SaveFile s(system);
    ASSERT_TRUE(s.begin_save({}));
    EXPECT_FALSE(s.save_template(scene.a));  // outside its pass
  }
}

TEST(EntryPoints, SaveFileBadArguments) {
  SaveSystem system = testing::book_system();
  {
    SaveFile s(system);
    ASSERT_TRUE(s.begin_save({}));
    EXPECT_EQ(s.declare_block(nullptr, 4), 0u);
    EXPECT_FALSE(s.status());
  }
  {
    SaveFile s(system);
    ASSERT_TRUE(s.begin_save({}));
    EXPECT_EQ(s.declare_block(&s, 0), 0u);
  }
  {
    SaveFile s(system);
    ASSERT_TRUE(s.begin_save({}));
    EXPECT_EQ(s.declare_object(nullptr), 0u);
  }
  {
    SaveFile s(system);
    EXPECT_FALSE(s.begin_load(std::filesystem::path("/nonexistent/dir/x.ksav")));
    EXPECT_FALSE(s.end(s.status()));
  }
  {
    // An object whose class is not registered.
    SaveSystem small({type<ExObj1>()});
    testing::ExObj2 b;
    SaveFile s(small);
    ASSERT_TRUE(s.begin_save({}));
    s.declare_object(&b);
    auto st = s.process_objects();
    ASSERT_FALSE(st);
    EXPECT_NE(st.error().message().find("not registered"), std::string::npos);
  }
}

TEST(EntryPoints, SaveSystemBadRegistrations) {
  SystemOptions quiet;
  quiet.log_problems = false;
  SaveSystem dup({type<ExObj1>(), type<ExObj1>()}, quiet);
  EXPECT_EQ(dup.type_count(), 1u);
  EXPECT_EQ(dup.problems().size(), 1u);
  TypeInfo empty;
  SaveSystem none({empty}, quiet);
  EXPECT_EQ(none.type_count(), 0u);
  EXPECT_EQ(none.problems().size(), 1u);
  EXPECT_FALSE(read_header("/nonexistent/x.ksav"));
}

}  // namespace
}  // namespace keel::save

#include "keel/save/inspect.h"

namespace keel::save {
namespace {

TEST(SaveInspect, ShowsEveryObjectWithoutTheGameClasses) {
  SaveSystem system = testing::book_system();
  BookScene scene;
  auto file = testing::save_scene(system, scene);
  ASSERT_TRUE(file);
  auto in = inspect(*file);
  ASSERT_TRUE(in) << in.error().to_string();
  ASSERT_EQ(in->sets.size(), 1u);
  ASSERT_EQ(in->sets[0].objects.size(), 3u);
  EXPECT_EQ(in->sets[0].objects[1].type->name, "ExObj2");
  EXPECT_EQ(in->client_data_bytes, 4u);
  const std::string dump = format_dump(*in);
  EXPECT_NE(dump.find("nextObject       -> object #1"), std::string::npos) << dump;
  EXPECT_NE(dump.find("objName          -> block 1 + 6"), std::string::npos);
  ByteBuffer bad = *file;
  bad[bad.size() / 2] ^= std::byte{1};
  EXPECT_FALSE(inspect(bad));
}

}  // namespace
}  // namespace keel::save
