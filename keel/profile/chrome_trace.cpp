#include "keel/profile/chrome_trace.h"

#include "keel/core/file.h"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <limits>
#include <vector>

namespace keel::profile {

namespace {

// Length of the valid UTF-8 sequence starting at s[i], or 0 if it is not valid.
usize utf8_sequence_length(std::string_view s, usize i) {
  const auto byte = [&](usize k) { return static_cast<u8>(s[k]); };
  const u8 lead = byte(i);
  const auto cont = [&](usize k, u8 lo = 0x80, u8 hi = 0xBF) {
    return k < s.size() && byte(k) >= lo && byte(k) <= hi;
  };
  if (lead >= 0xC2 && lead <= 0xDF) return cont(i + 1) ? 2 : 0;
  if (lead == 0xE0) return cont(i + 1, 0xA0, 0xBF) && cont(i + 2) ? 3 : 0;
  if ((lead >= 0xE1 && lead <= 0xEC) || lead == 0xEE || lead == 0xEF) {
    return cont(i + 1) && cont(i + 2) ? 3 : 0;
  }
  if (lead == 0xED) return cont(i + 1, 0x80, 0x9F) && cont(i + 2) ? 3 : 0;
  if (lead == 0xF0) return cont(i + 1, 0x90, 0xBF) && cont(i + 2) && cont(i + 3) ? 4 : 0;
  if (lead >= 0xF1 && lead <= 0xF3) return cont(i + 1) && cont(i + 2) && cont(i + 3) ? 4 : 0;
  if (lead == 0xF4) return cont(i + 1, 0x80, 0x8F) && cont(i + 2) && cont(i + 3) ? 4 : 0;
  return 0;
}

struct OutEvent {
  const Site* site;
  f64 start_ns;
  f64 end_ns;
  u32 depth;
};

}  // namespace

void append_json_string(std::string& out, std::string_view text) {
  out.push_back('"');
  for (usize i = 0; i < text.size();) {
    const char c = text[i];
    const auto u = static_cast<u8>(c);
    if (u >= 0x80) {
      const usize n = utf8_sequence_length(text, i);
      if (n == 0) {
        fmt::format_to(std::back_inserter(out), "\\u{:04x}", u);
        ++i;
      } else {
        out.append(text.substr(i, n));
        i += n;
      }
      continue;
    }
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      default:
        if (u < 0x20) {
          fmt::format_to(std::back_inserter(out), "\\u{:04x}", u);
        } else {
          out.push_back(c);
        }
    }
    ++i;
  }
  out.push_back('"');
}

std::string chrome_trace_json(std::span<const ThreadTrace> threads, const TraceOptions& options) {
  // Ticks to nanoseconds, per thread (each buffer has its own tick source).
  std::vector<std::vector<OutEvent>> per_thread(threads.size());
  for (usize t = 0; t < threads.size(); ++t) {
    const f64 scale = threads[t].ns_per_tick;
    per_thread[t].reserve(threads[t].events.size());
    for (const TraceEvent& e : threads[t].events) {
      if (e.site == nullptr) continue;
      per_thread[t].push_back(
          {e.site, static_cast<f64>(e.start) * scale, static_cast<f64>(e.end) * scale, e.depth});
    }
  }

  // The window of the last N frames.
  f64 window_start = -std::numeric_limits<f64>::infinity();
  if (options.frames > 0) {
    std::vector<OutEvent> frames;
    for (const auto& events : per_thread) {
      for (const OutEvent& e : events) {
        if (e.depth == 0) frames.push_back(e);
      }
    }
    if (!frames.empty()) {
      std::sort(frames.begin(), frames.end(),
                [](const OutEvent& a, const OutEvent& b) { return a.end_ns > b.end_ns; });
      const usize n = std::min<usize>(options.frames, frames.size());
      window_start = std::numeric_limits<f64>::infinity();
      for (usize i = 0; i < n; ++i) window_start = std::min(window_start, frames[i].start_ns);
    }
  }
  f64 origin = std::numeric_limits<f64>::infinity();
  for (auto& events : per_thread) {
    std::erase_if(events, [&](const OutEvent& e) {
      return e.end_ns <= window_start && e.start_ns < window_start;  // ended before the window
    });
    // Parents before children at equal start times, as the trace viewers expect.
    std::sort(events.begin(), events.end(), [](const OutEvent& a, const OutEvent& b) {
      return a.start_ns != b.start_ns ? a.start_ns < b.start_ns : a.depth < b.depth;
    });
    if (!events.empty()) origin = std::min(origin, events.front().start_ns);
  }
  if (origin == std::numeric_limits<f64>::infinity()) origin = 0.0;

  std::string out;
  out += "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n";
  fmt::format_to(std::back_inserter(out),
                 "{{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":{},\"tid\":0,\"args\":{{"
                 "\"name\":",
                 options.pid);
  append_json_string(out, options.process_name);
  out += "}}";
  for (usize t = 0; t < threads.size(); ++t) {
    const u32 tid = threads[t].thread_id;
    fmt::format_to(std::back_inserter(out),
                   ",\n{{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":{},\"tid\":{},\"args\":{{"
                   "\"name\":",
                   options.pid, tid);
    append_json_string(out, threads[t].thread_name.empty() ? fmt::format("thread {}", tid)
                                                           : threads[t].thread_name);
    out += "}}";
    for (const OutEvent& e : per_thread[t]) {
      out += ",\n{\"name\":";
      append_json_string(out, e.site->name);
      const f64 ts_us = (e.start_ns - origin) / 1000.0;
      const f64 dur_us = std::max(0.0, e.end_ns - e.start_ns) / 1000.0;
      fmt::format_to(std::back_inserter(out),
                     ",\"cat\":\"keel\",\"ph\":\"X\",\"ts\":{:.3f},\"dur\":{:.3f},\"pid\":{},"
                     "\"tid\":{},\"args\":{{\"depth\":{}}}}}",
                     ts_us, dur_us, options.pid, tid, e.depth);
    }
  }
  out += "\n]}\n";
  return out;
}

Status write_chrome_trace(const std::filesystem::path& path, std::span<const ThreadTrace> threads,
                          const TraceOptions& options) {
  return write_file_atomic(path, chrome_trace_json(threads, options));
}

}  // namespace keel::profile
