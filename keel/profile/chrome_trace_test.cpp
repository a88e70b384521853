#include "keel/profile/chrome_trace.h"

#include "keel/core/file.h"
#include "keel/profile/testing/fake_profiler.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace keel::profile {
namespace {

constexpr Site kTraceA{"A", __FILE__, __LINE__};
constexpr Site kTraceB{"B", __FILE__, __LINE__};

using nlohmann::json;

std::vector<json> complete_events(const json& doc) {
  std::vector<json> out;
  for (const json& e : doc.at("traceEvents")) {
    if (e.at("ph") == "X") out.push_back(e);
  }
  return out;
}

// Three frames of 1000 ticks (1 tick = 1 us): A 100..700 containing B 200..300 in each.
FakeProfiler& three_frames(FakeProfiler& f) {
  for (u64 frame = 0; frame < 3; ++frame) {
    const u64 t = frame * 1000;
    f.begin_frame(t);
    f.enter(kTraceA, t + 100);
    f.sample(kTraceB, t + 200, t + 300);
    f.leave(kTraceA, t + 700);
    f.end_frame(t + 1000);
  }
  return f;
}

TEST(ChromeTrace, ValidJsonWithCompleteEvents) {
  FakeProfiler f(FakeProfilerOptions{.trace_capacity = 256, .ns_per_tick = 1000.0});
  three_frames(f);
  f.trace()->set_thread_name("main");
  const std::vector<ThreadTrace> threads{f.trace()->snapshot()};
  const json doc = json::parse(chrome_trace_json(threads));

  ASSERT_TRUE(doc.at("traceEvents").is_array());
  const std::vector<json> events = complete_events(doc);
  ASSERT_EQ(events.size(), 9u);  // 3 x (Frame, A, B)
  for (const json& e : events) {
    EXPECT_TRUE(e.at("name").is_string());
    EXPECT_TRUE(e.at("ts").is_number());
    EXPECT_TRUE(e.at("dur").is_number());
    EXPECT_EQ(e.at("pid"), 1);
    EXPECT_EQ(e.at("tid"), 1);
  }
  // Sorted by start, parents first; times in microseconds from the first event.
  EXPECT_EQ(events[0].at("name"), "Frame");
  EXPECT_DOUBLE_EQ(events[0].at("ts").get<double>(), 0.0);
  EXPECT_DOUBLE_EQ(events[0].at("dur").get<double>(), 1000.0);
  EXPECT_EQ(events[1].at("name"), "A");
  EXPECT_DOUBLE_EQ(events[1].at("ts").get<double>(), 100.0);
  EXPECT_DOUBLE_EQ(events[1].at("dur").get<double>(), 600.0);
  EXPECT_EQ(events[2].at("name"), "B");
  EXPECT_DOUBLE_EQ(events[2].at("ts").get<double>(), 200.0);
  EXPECT_DOUBLE_EQ(events[2].at("dur").get<double>(), 100.0);
  EXPECT_DOUBLE_EQ(events[8].at("ts").get<double>(), 2200.0);

  bool named = false;
  for (const json& e : doc.at("traceEvents")) {
    if (e.at("ph") == "M" && e.at("name") == "thread_name") {
      EXPECT_EQ(e.at("args").at("name"), "main");
      named = true;
    }
  }
  EXPECT_TRUE(named);
}

TEST(ChromeTrace, LastNFrames) {
  FakeProfiler f(FakeProfilerOptions{.trace_capacity = 256, .ns_per_tick = 1000.0});
  three_frames(f);
  const std::vector<ThreadTrace> threads{f.trace()->snapshot()};
  const std::vector<json> one =
      complete_events(json::parse(chrome_trace_json(threads, {.frames = 1})));
  ASSERT_EQ(one.size(), 3u);
  EXPECT_DOUBLE_EQ(one[0].at("ts").get<double>(), 0.0);  // relative to the window's first event
  EXPECT_EQ(one[1].at("name"), "A");
  EXPECT_DOUBLE_EQ(one[1].at("ts").get<double>(), 100.0);
  EXPECT_EQ(complete_events(json::parse(chrome_trace_json(threads, {.frames = 2}))).size(), 6u);
  EXPECT_EQ(complete_events(json::parse(chrome_trace_json(threads, {.frames = 99}))).size(), 9u);
}

TEST(ChromeTrace, MergesThreadsOnTheirOwnTracks) {
  FakeProfiler main_thread(FakeProfilerOptions{.trace_capacity = 64, .ns_per_tick = 1000.0});
  FakeProfiler worker(FakeProfilerOptions{.trace_capacity = 64, .ns_per_tick = 1000.0});
  three_frames(main_thread);
  worker.ticks().set(1500);
  worker.profiler().enter(kTraceB);
  worker.ticks().set(1600);
  worker.profiler().leave(kTraceB);
  std::vector<ThreadTrace> threads{main_thread.trace()->snapshot(), worker.trace()->snapshot()};
  threads[1].thread_id = 2;
  threads[1].thread_name = "worker";
  const std::vector<json> events =
      complete_events(json::parse(chrome_trace_json(threads, {.frames = 2})));
  std::map<int, int> per_tid;
  for (const json& e : events) ++per_tid[e.at("tid").get<int>()];
  EXPECT_EQ(per_tid[1], 6);
  EXPECT_EQ(per_tid[2], 1);  // inside the window of the last two frames (1000..3000)
  const std::vector<json> last =
      complete_events(json::parse(chrome_trace_json(threads, {.frames = 1})));
  for (const json& e : last) EXPECT_EQ(e.at("tid"), 1);  // the worker's sample ended before 2000
}

TEST(ChromeTrace, NamesAreEscaped) {
  static constexpr Site kOdd{"say \"hi\"\\ \n\t\x01 caf\xc3\xa9 bad\xff", __FILE__, __LINE__};
  FakeProfiler f(FakeProfilerOptions{.trace_capacity = 8});
  f.begin_frame(0);
  f.sample(kOdd, 1, 2);
  f.end_frame(10);
  f.trace()->set_thread_name("th\"read");
  const std::vector<ThreadTrace> threads{f.trace()->snapshot()};
  const json doc = json::parse(chrome_trace_json(threads));
  const std::vector<json> events = complete_events(doc);
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[1].at("name").get<std::string>(),
            "say \"hi\"\\ \n\t\x01 caf\xc3\xa9 bad\xc3\xbf");  // the stray byte as U+00FF
}

TEST(ChromeTrace, JsonStringEscaping) {
  std::string out;
  append_json_string(out, "a\"b\\c\nd\x1f\xe2\x82\xac\xe2\x82");
  EXPECT_EQ(out, "\"a\\\"b\\\\c\\nd\\u001f\xe2\x82\xac\\u00e2\\u0082\"");
}

TEST(ChromeTrace, WrittenAtomicallyToAFile) {
  const std::filesystem::path dir = std::filesystem::path(KEEL_TEST_TMPDIR) / "chrome_trace";
  std::filesystem::create_directories(dir);
  const std::filesystem::path path = dir / "trace.json";
  FakeProfiler f(FakeProfilerOptions{.trace_capacity = 64});
  three_frames(f);
  const std::vector<ThreadTrace> threads{f.trace()->snapshot()};
  ASSERT_TRUE(write_chrome_trace(path, threads, {.frames = 1}).has_value());
  const Result<std::string> text = read_file(path);
  ASSERT_TRUE(text.has_value());
  EXPECT_EQ(complete_events(json::parse(*text)).size(), 3u);
  EXPECT_FALSE(write_chrome_trace(dir / "missing" / "trace.json", threads).has_value());
}

TEST(ChromeTrace, EmptyTraceIsValid) {
  const json doc = json::parse(chrome_trace_json(std::vector<ThreadTrace>{}));
  EXPECT_EQ(doc.at("traceEvents").size(), 1u);  // the process name only
}

TEST(TraceBuffer, RingKeepsTheNewestEvents) {
  FakeTickSource ticks;
  TraceBuffer buffer(ticks, 3);  // rounded up to 4
  EXPECT_EQ(buffer.capacity(), 4u);
  for (u64 i = 0; i < 10; ++i) buffer.push(&kTraceA, i, i + 1, 1);
  EXPECT_EQ(buffer.recorded(), 10u);
  const ThreadTrace trace = buffer.snapshot();
  ASSERT_EQ(trace.events.size(), 4u);
  for (usize i = 0; i < 4; ++i) EXPECT_EQ(trace.events[i].start, 6 + i);
  buffer.clear();
  EXPECT_TRUE(buffer.snapshot().events.empty());
}

}  // namespace
}  // namespace keel::profile
