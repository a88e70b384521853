#include "birthday.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace keel::hash_tool {
namespace {

// C3-04: Eqs 3.1/3.2, the correct probabilities, the book-compatible function and its guards.
TEST(Birthday, C3_04_ProbabilityCorrectAndBookCompatible) {
  EXPECT_NEAR(1.0 - birthday_probability(2, 365), 0.9973, 5e-5);  // Eq 3.1
  EXPECT_NEAR(1.0 - birthday_probability(3, 365), 0.9918, 5e-5);  // Eq 3.2
  EXPECT_NEAR(birthday_probability(2, 365), 0.002740, 5e-7);
  EXPECT_NEAR(birthday_probability(3, 365), 0.008204, 5e-7);
  EXPECT_NEAR(birthday_probability(23, 365), 0.5073, 5e-5);
  EXPECT_NEAR(birthday_probability(22, 365), 0.4757, 5e-5);
  EXPECT_NEAR(birthday_probability(47, 365), 0.9548, 5e-5);
  EXPECT_NEAR(birthday_probability(46, 365), 0.9483, 5e-5);
  EXPECT_EQ(birthday_probability(1, 365), 0.0);
  EXPECT_EQ(birthday_probability(0, 365), 0.0);
  EXPECT_EQ(birthday_probability(366, 365), 1.0);
  EXPECT_DOUBLE_EQ(birthday_probability(3, 3), 1.0 - (2.0 / 3.0) * (1.0 / 3.0));  // n = N: not 1

  EXPECT_NEAR(birthday_probability_book(22, 365), 0.505944, 5e-7);  // the text's "50.59%"
  EXPECT_NEAR(birthday_probability_book(46, 365), 0.9547, 5e-5);
  EXPECT_EQ(birthday_probability_book(1, 365), 0.0);    // book guard
  EXPECT_EQ(birthday_probability_book(365, 365), 1.0);  // book guard: n >= nDays
  EXPECT_EQ(birthday_probability_book(400, 365), 1.0);
}

std::vector<std::string> report(u64 values, BirthdayMode mode) {
  auto rows = birthday_table(values, BirthdayOptions{.mode = mode});
  EXPECT_TRUE(rows.has_value());
  return rows ? birthday_report(values, *rows) : std::vector<std::string>{};
}

// C3-05: `birthday 4294967296` in book mode prints the book's table exactly; the corrected mode
// prints every count one higher. N = 365 ends at 95.47%/46 (book) and 95.48%/47 (correct).
TEST(Birthday, C3_05_BookTableReproducedAndCorrected) {
  const std::vector<std::string> book_table = {
      "Birthday paradox demonstration",
      "",
      "Calculating for 4294967296 samples",
      "5.00% probability of a collision with 20991 samples",
      "10.00% probability of a collision with 30084 samples",
      "15.00% probability of a collision with 37363 samples",
      "20.00% probability of a collision with 43781 samples",
      "25.00% probability of a collision with 49711 samples",
      "30.00% probability of a collision with 55352 samples",
      "35.00% probability of a collision with 60831 samples",
      "40.00% probability of a collision with 66241 samples",
      "45.00% probability of a collision with 71661 samples",
      "50.00% probability of a collision with 77163 samples",
      "55.00% probability of a collision with 82820 samples",
      "60.00% probability of a collision with 88718 samples",
      "65.00% probability of a collision with 94962 samples",
      "70.00% probability of a collision with 101695 samples",
      "75.00% probability of a collision with 109124 samples",
      "80.00% probability of a collision with 117579 samples",
      "85.00% probability of a collision with 127656 samples",
      "90.00% probability of a collision with 140637 samples",
      "95.00% probability of a collision with 160415 samples",
  };
  EXPECT_EQ(report(4294967296ull, BirthdayMode::kBook), book_table);

  auto book_rows = birthday_table(4294967296ull, {.mode = BirthdayMode::kBook});
  auto correct_rows = birthday_table(4294967296ull);
  ASSERT_TRUE(book_rows && correct_rows);
  ASSERT_EQ(book_rows->size(), 19u);
  ASSERT_EQ(correct_rows->size(), 19u);
  for (usize i = 0; i < 19; ++i) {
    EXPECT_EQ((*correct_rows)[i].samples, (*book_rows)[i].samples + 1) << "row " << i;
  }
  const auto correct = report(4294967296ull, BirthdayMode::kCorrect);
  EXPECT_EQ(correct[12], "50.00% probability of a collision with 77164 samples");
  EXPECT_EQ(correct.back(), "95.00% probability of a collision with 160416 samples");

  const std::vector<std::string> book365 = {
      "5.36%/6",   "11.45%/9",  "16.47%/11", "22.10%/13", "25.08%/14", "31.31%/16", "37.74%/18",
      "40.98%/19", "47.43%/21", "50.59%/22", "56.75%/24", "62.58%/26", "65.35%/27", "70.55%/29",
      "75.27%/31", "81.39%/34", "86.37%/37", "90.29%/40", "95.47%/46"};
  auto rows365 = birthday_table(365, {.mode = BirthdayMode::kBook});
  ASSERT_TRUE(rows365);
  ASSERT_EQ(rows365->size(), book365.size());
  for (usize i = 0; i < book365.size(); ++i) {
    EXPECT_EQ(fmt::format("{:.2f}%/{}", 100 * (*rows365)[i].probability, (*rows365)[i].samples),
              book365[i]);
  }
  EXPECT_EQ(report(365, BirthdayMode::kBook).back(),
            "95.47% probability of a collision with 46 samples");
  EXPECT_EQ(report(365, BirthdayMode::kCorrect).back(),
            "95.48% probability of a collision with 47 samples");
}

TEST(Birthday, TableRejectsBadArguments) {
  EXPECT_EQ(birthday_table(1).error().code(), ErrorCode::kOutOfRange);
  EXPECT_EQ(birthday_table(kBirthdayMaxValues + 1).error().code(), ErrorCode::kOutOfRange);
  EXPECT_FALSE(birthday_table(365, {.step = 0.0}));
  EXPECT_FALSE(birthday_table(365, {.first = 1.5}));
  auto tiny = birthday_table(2);  // 2 samples from 2 values collide half the time
  ASSERT_TRUE(tiny);
  EXPECT_EQ(tiny->front().samples, 2u);
  EXPECT_DOUBLE_EQ(tiny->front().probability, 0.5);
  auto coarse = birthday_table(365, {.first = 0.25, .step = 0.25});
  ASSERT_TRUE(coarse);
  ASSERT_EQ(coarse->size(), 3u);  // 25%, 50%, 75%
  EXPECT_EQ((*coarse)[1].samples, 23u);
}

}  // namespace
}  // namespace keel::hash_tool
