// The birthday paradox (Golden Rules ch. 3): how many samples make a hash collision likely. The
// table keel-hash birthday prints (a book exercise, not an engine feature).
//
//   birthday_probability(23, 365)   -> 0.5073  (chance that 23 people share a birthday)
//   birthday_table(4294967296)      -> rows "50.00% probability of a collision with 77164 samples"
//
// birthday_probability is the correct formula: with n samples from N values the chance of no
// collision is the product over k = 1..n-1 of (1 - k/N). The book's program multiplies by
// (1 - k/N) for k = 2..n instead (one factor too far), which is how it prints 77,163 samples for
// a 50% chance with 32-bit hashes; BirthdayMode::kBook reproduces its output exactly, the default
// BirthdayMode::kCorrect prints the true counts (each one sample higher for 2^32).
#pragma once

#include "keel/core/error.h"
#include "keel/core/types.h"

#include <string>
#include <vector>

namespace keel::hash_tool {

// P(at least two of `samples` values drawn from `values` equally likely ones are equal).
// 0 for fewer than 2 samples, 1 for more samples than values.
double birthday_probability(u64 samples, u64 values);
// The book's Birthday(nPeople, nDays), off-by-one factor and guards included: 0 for nPeople <= 1,
// 1 for nPeople >= nDays. Birthday(22, 365) = 0.5059, the text's "50.59%".
double birthday_probability_book(u64 samples, u64 values);

enum class BirthdayMode : u8 { kCorrect, kBook };

struct BirthdayOptions {
  BirthdayMode mode = BirthdayMode::kCorrect;
  double first = 0.05;  // the first reported probability
  double step = 0.05;   // then every `step` up to 1 - first
};

struct BirthdayRow {
  double probability = 0;  // chance of a collision at `samples`
  u64 samples = 0;         // smallest count whose chance reaches the report threshold
};

// Largest value count the table accepts: the loop runs about 2.5 * sqrt(values) times.
inline constexpr u64 kBirthdayMaxValues = u64{1} << 53;

// The demo's table: for thresholds first, first + step, ... (19 rows for the defaults), the first
// sample count whose collision chance reaches it. Fails for values < 2 or > kBirthdayMaxValues
// and for thresholds outside (0, 1).
Result<std::vector<BirthdayRow>> birthday_table(u64 values, const BirthdayOptions& options = {});

// The demo's output: "Birthday paradox demonstration", "", "Calculating for N samples", then one
// "P% probability of a collision with S samples" line per row.
std::vector<std::string> birthday_report(u64 values, const std::vector<BirthdayRow>& rows);

}  // namespace keel::hash_tool
