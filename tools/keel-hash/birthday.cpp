#include "birthday.h"

#include <fmt/format.h>
#include <algorithm>

namespace keel::hash_tool {

double birthday_probability(u64 samples, u64 values) {
  if (samples <= 1 || values == 0) return 0.0;
  if (samples > values) return 1.0;
  const double n = static_cast<double>(values);
  double no_collision = 1.0;
  for (u64 k = 1; k < samples; ++k) no_collision *= 1.0 - static_cast<double>(k) / n;
  return 1.0 - no_collision;
}

double birthday_probability_book(u64 samples, u64 values) {
  if (samples <= 1) return 0.0;
  if (samples >= values) return 1.0;
  const double n = static_cast<double>(values);
  double no_collision = 1.0;
  for (u64 k = 2; k <= samples; ++k) no_collision *= 1.0 - static_cast<double>(k) / n;
  return 1.0 - no_collision;
}

Result<std::vector<BirthdayRow>> birthday_table(u64 values, const BirthdayOptions& options) {
  if (values < 2 || values > kBirthdayMaxValues) {
    return fail(ErrorCode::kOutOfRange, "value count {} outside 2..{}", values, kBirthdayMaxValues);
  }
  if (!(options.first > 0.0 && options.first < 1.0) ||
      !(options.step > 0.0 && options.step < 1.0)) {
    return fail(ErrorCode::kOutOfRange, "report thresholds must lie in (0, 1): first {} step {}",
                options.first, options.step);
  }
  // The book's loop, kept step for step so kBook reproduces its printed table: `value` is the
  // chance of no collision and `report` the no-collision threshold of the next row, walking
  // down from 1 - step to `first`.
  const double max_value = static_cast<double>(values);
  const double one_over_max = 1.0 / max_value;
  const bool book = options.mode == BirthdayMode::kBook;
  double value = 1.0;
  double people = 1.0;
  double report = 1.0 - options.step;
  std::vector<BirthdayRow> rows;
  while (value > options.first) {
    report = std::max(report, options.first);
    while (value > report) {
      people += 1.0;
      // Book: the k-th sample multiplies by (1 - k/N); correct: by (1 - (k-1)/N).
      // Clamped at 0: for tiny N rounding could push the book's last factor below zero.
      value *= std::max(0.0, book ? 1.0 - people * one_over_max : 1.0 - (people - 1.0) / max_value);
    }
    rows.push_back(BirthdayRow{1.0 - value, static_cast<u64>(people)});
    report -= options.step;
  }
  return rows;
}

std::vector<std::string> birthday_report(u64 values, const std::vector<BirthdayRow>& rows) {
  std::vector<std::string> lines;
  lines.reserve(rows.size() + 3);
  lines.emplace_back("Birthday paradox demonstration");
  lines.emplace_back("");
  lines.push_back(fmt::format("Calculating for {} samples", values));
  for (const BirthdayRow& row : rows) {
    lines.push_back(fmt::format("{:.2f}% probability of a collision with {} samples",
                                100.0 * row.probability, row.samples));
  }
  return lines;
}

}  // namespace keel::hash_tool
