// The build tool's display: on a terminal one status line that is rewritten in place
// ("[12/40] PC/main: Blob logo (built)"), with errors and failed assets printed above it;
// otherwise (a pipe, a CI log) one plain line per built, failed or output-less asset. Either way
// a line per data file; the caller prints the summary. `verbose` lists every asset.
#pragma once

#include "keel/pipeline/observer.h"

#include <chrono>
#include <cstdio>
#include <string>

namespace keel::pipeline {

struct ProgressOptions {
  bool terminal = false;  // rewrite a status line (use isatty to decide)
  bool verbose = false;   // also list assets that are up to date
  int width = 100;        // status line width on a terminal
};

class ConsoleProgress final : public BuildObserver {
 public:
  explicit ConsoleProgress(std::FILE* out, ProgressOptions options = {});
  ~ConsoleProgress() override;

  void data_file_started(std::string_view platform, std::string_view data_file,
                         usize assets) override;
  void asset_started(const AssetEvent& event) override;
  void asset_finished(const AssetEvent& event) override;
  void message(log::Level level, std::string_view text) override;
  void repacking(std::string_view path, usize intermediates) override;
  void data_file_finished(const DataFileReport& report) override;

 private:
  void status(const std::string& line);
  bool status_due() const;
  void clear_status();
  void print(std::string_view line);  // a permanent line (above the status line)

  std::FILE* out_;
  ProgressOptions options_;
  bool status_shown_ = false;
  std::chrono::steady_clock::time_point last_status_{};
};

}  // namespace keel::pipeline
