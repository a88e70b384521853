// What a build reports while it runs, for progress displays and logs. The builder calls an
// observer from its worker threads but never from two at once (calls are serialised).
#pragma once

#include "keel/core/types.h"
#include "keel/pipeline/handler.h"

#include <string>
#include <string_view>

namespace keel::pipeline {

enum class AssetOutcome : u8 {
  kBuilt,     // the handler wrote its intermediate
  kUpToDate,  // nothing changed
  kNoOutput,  // the handler declared no output: the asset is left out of the data file
  kFailed,
};
std::string_view to_string(AssetOutcome outcome);

struct AssetEvent {
  std::string_view platform;
  std::string_view data_file;  // e.g. "main"
  std::string_view type;       // the command name, e.g. "Blob"
  std::string_view name;       // the declared asset name, or the first parameter's text
  std::string_view location;   // "main.kcmd:12"
  usize index = 0;             // 1-based position among `total`
  usize total = 0;
  AssetOutcome outcome = AssetOutcome::kBuilt;  // asset_finished only
  double seconds = 0;
};

struct DataFileReport {
  std::string platform;
  std::string data_file;  // name, e.g. "main"
  std::string path;       // the data file written (or that would be)
  usize assets = 0;
  usize built = 0;
  usize up_to_date = 0;
  usize no_output = 0;
  usize failed = 0;
  usize removed = 0;  // intermediates of assets that are gone, deleted
  usize errors = 0;   // diagnostics with severity error (command files and handlers)
  bool repacked = false;
  bool ok = true;
  double seconds = 0;
};

class BuildObserver {
 public:
  virtual ~BuildObserver() = default;
  virtual void data_file_started(std::string_view /*platform*/, std::string_view /*data_file*/,
                                 usize /*assets*/) {}
  virtual void asset_started(const AssetEvent& /*event*/) {}
  virtual void asset_finished(const AssetEvent& /*event*/) {}
  // Diagnostics (rendered, possibly several lines) and handler log lines.
  virtual void message(log::Level /*level*/, std::string_view /*text*/) {}
  virtual void repacking(std::string_view /*path*/, usize /*intermediates*/) {}
  virtual void data_file_finished(const DataFileReport& /*report*/) {}
};

}  // namespace keel::pipeline
