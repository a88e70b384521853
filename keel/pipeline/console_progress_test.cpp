// The build display: plain log lines when not on a terminal, a rewritten status line on one.
#include "keel/pipeline/console_progress.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

namespace keel::pipeline {
namespace {

std::string run(ProgressOptions options) {
  std::FILE* f = std::tmpfile();
  {
    ConsoleProgress p(f, options);
    p.data_file_started("PC", "main", 2);
    p.asset_started({"PC", "main", "Blob", "logo", "main.kcmd:1", 1, 2, AssetOutcome::kBuilt, 0});
    p.asset_finished({"PC", "main", "Blob", "logo", "main.kcmd:1", 1, 2, AssetOutcome::kBuilt, 0});
    p.asset_started({"PC", "main", "Blob", "sky", "main.kcmd:2", 2, 2, AssetOutcome::kBuilt, 0});
    p.asset_finished(
        {"PC", "main", "Blob", "sky", "main.kcmd:2", 2, 2, AssetOutcome::kUpToDate, 0});
    p.message(log::Level::kError, "main.kcmd:3:1: error: oops\n");
    p.repacking("image/PC/main.kpk", 2);
    DataFileReport r;
    r.platform = "PC";
    r.data_file = "main";
    r.path = "image/PC/main.kpk";
    r.built = 1;
    r.up_to_date = 1;
    r.repacked = true;
    p.data_file_finished(r);
  }
  std::rewind(f);
  std::string out;
  char buffer[256];
  for (usize n; (n = std::fread(buffer, 1, sizeof buffer, f)) > 0;) out.append(buffer, n);
  std::fclose(f);
  return out;
}

TEST(PipelineProgress, PlainLog) {
  const std::string out = run({.terminal = false, .verbose = false, .width = 100});
  EXPECT_EQ(out,
            "[1/2] PC/main: Blob logo (built)\n"
            "main.kcmd:3:1: error: oops\n"
            "packing image/PC/main.kpk (2 intermediates)\n"
            "PC/main: 1 built, 1 up to date - packed image/PC/main.kpk\n");
  EXPECT_THAT(run({.terminal = false, .verbose = true, .width = 100}),
              ::testing::HasSubstr("[2/2] PC/main: Blob sky (up to date)\n"));
}

TEST(PipelineProgress, TerminalStatusLine) {
  const std::string out = run({.terminal = true, .verbose = false, .width = 100});
  EXPECT_THAT(out, ::testing::StartsWith("\r\x1b[KPC/main: 2 assets"));
  // Permanent lines clear the status line first; the display ends with it cleared.
  EXPECT_THAT(out, ::testing::Not(::testing::HasSubstr("(built)\n")));  // status only
  EXPECT_THAT(out, ::testing::HasSubstr("\r\x1b[Kmain.kcmd:3:1: error: oops\n"));
  EXPECT_THAT(out, ::testing::EndsWith("packed image/PC/main.kpk\n"));
}

}  // namespace
}  // namespace keel::pipeline
