// Chrome trace-event export: the recorded samples as "X" (complete) events with ts/dur in
// microseconds, one track per thread, loadable in Perfetto (ui.perfetto.dev) and chrome://tracing.
//
//   {"displayTimeUnit":"ns","traceEvents":[
//     {"name":"thread_name","ph":"M","pid":1,"tid":1,"args":{"name":"main"}},
//     {"name":"Frame","cat":"keel","ph":"X","ts":0.000,"dur":16667.000,"pid":1,"tid":1,...},
//     ...]}
//
// Times are relative to the earliest exported event. With `frames` = N > 0 only the last N
// frames are exported: the window starts at the earliest of the N most recent frame events (of
// any thread) and holds every event of every thread that ends inside it; with no frame events,
// or N = 0, everything still in the buffers is exported.
#pragma once

#include "keel/core/error.h"
#include "keel/core/types.h"
#include "keel/profile/trace_buffer.h"

#include <filesystem>
#include <span>
#include <string>
#include <string_view>

namespace keel::profile {

struct TraceOptions {
  u32 frames = 0;  // 0: all
  u32 pid = 1;
  std::string_view process_name = "keel";
};

std::string chrome_trace_json(std::span<const ThreadTrace> threads,
                              const TraceOptions& options = {});

// Written with keel::write_file_atomic: a crash mid-write leaves any previous file intact.
Status write_chrome_trace(const std::filesystem::path& path, std::span<const ThreadTrace> threads,
                          const TraceOptions& options = {});

// Appends `text` as a JSON string literal (quotes included). Invalid UTF-8 bytes are written as
// \u00XX so the output is always valid JSON.
void append_json_string(std::string& out, std::string_view text);

}  // namespace keel::profile
