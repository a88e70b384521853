#include "keel/pipeline/console_progress.h"

#include <fmt/format.h>

namespace keel::pipeline {

ConsoleProgress::ConsoleProgress(std::FILE* out, ProgressOptions options)
    : out_(out), options_(options) {}

ConsoleProgress::~ConsoleProgress() { clear_status(); }

void ConsoleProgress::status(const std::string& line) {
  if (!options_.terminal) return;
  // At most ~30 updates a second: a no-op build of thousands of assets is not slowed by output.
  const auto now = std::chrono::steady_clock::now();
  if (status_shown_ && now - last_status_ < std::chrono::milliseconds(33)) return;
  last_status_ = now;
  std::string shown = line;
  if (options_.width > 4 && shown.size() > static_cast<usize>(options_.width)) {
    shown.resize(static_cast<usize>(options_.width) - 3);
    shown += "...";
  }
  fmt::print(out_, "\r\x1b[K{}", shown);
  std::fflush(out_);
  status_shown_ = true;
}

void ConsoleProgress::clear_status() {
  if (status_shown_) {
    fmt::print(out_, "\r\x1b[K");
    std::fflush(out_);
    status_shown_ = false;
  }
}

void ConsoleProgress::print(std::string_view line) {
  clear_status();
  fmt::print(out_, "{}", line);
  if (!line.ends_with('\n')) fmt::print(out_, "\n");
  std::fflush(out_);
}

void ConsoleProgress::data_file_started(std::string_view platform, std::string_view data_file,
                                        usize assets) {
  status(fmt::format("{}/{}: {} asset{}", platform, data_file, assets, assets == 1 ? "" : "s"));
}

// Whether status() would show a line now: no line is formatted for nothing (a no-op build of
// 10,000 assets into a log would format 20,000).
bool ConsoleProgress::status_due() const {
  return options_.terminal && (!status_shown_ || std::chrono::steady_clock::now() - last_status_ >=
                                                     std::chrono::milliseconds(33));
}

void ConsoleProgress::asset_started(const AssetEvent& e) {
  if (!status_due()) return;
  const int digits = static_cast<int>(fmt::formatted_size("{}", e.total));
  status(fmt::format("[{:>{}}/{}] {}/{}: {} {}", e.index - 1, digits, e.total, e.platform,
                     e.data_file, e.type, e.name));
}

void ConsoleProgress::asset_finished(const AssetEvent& e) {
  // On a terminal the status line shows the work (like ninja) and only failures stay; in a log
  // every asset that was built (or left out) gets its line.
  const bool shown = e.outcome == AssetOutcome::kFailed || options_.verbose ||
                     (!options_.terminal && e.outcome != AssetOutcome::kUpToDate);
  if (!shown && !status_due()) return;
  const int digits = static_cast<int>(fmt::formatted_size("{}", e.total));
  const std::string line =
      fmt::format("[{:>{}}/{}] {}/{}: {} {} ({})", e.index, digits, e.total, e.platform,
                  e.data_file, e.type, e.name, to_string(e.outcome));
  if (shown) {
    print(line);
  } else {
    status(line);
  }
}

void ConsoleProgress::message(log::Level, std::string_view text) { print(text); }

void ConsoleProgress::repacking(std::string_view path, usize intermediates) {
  print(fmt::format("packing {} ({} intermediate{})", path, intermediates,
                    intermediates == 1 ? "" : "s"));
}

void ConsoleProgress::data_file_finished(const DataFileReport& r) {
  std::string line =
      fmt::format("{}/{}: {} built, {} up to date", r.platform, r.data_file, r.built, r.up_to_date);
  if (r.failed != 0) line += fmt::format(", {} FAILED", r.failed);
  if (r.no_output != 0) line += fmt::format(", {} without output", r.no_output);
  if (r.removed != 0) line += fmt::format(", {} removed", r.removed);
  if (!r.ok) {
    line += fmt::format(" - {} left as it was", r.path);
  } else if (r.repacked) {
    line += fmt::format(" - packed {}", r.path);
  } else {
    line += " - data file up to date";
  }
  print(line);
}

}  // namespace keel::pipeline
