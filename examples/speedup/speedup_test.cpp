#include "examples/speedup/speedup.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace keel::examples {
namespace {

TEST(ProfileSpeedup, D6_45_Table92Arithmetic) {
  const std::vector<f64> before{32, 23, 15, 10, 3, 2};
  const SpeedupPrediction r = predict_speedup(before, 0, 0.5).value();
  EXPECT_DOUBLE_EQ(r.frame_parts, 84.0);
  ASSERT_EQ(r.after_pct.size(), before.size());
  const std::vector<f64> rounded_expected{19, 27, 18, 12, 4, 2};
  for (usize i = 0; i < before.size(); ++i) {
    EXPECT_EQ(std::round(r.after_pct[i]), rounded_expected[i]) << "row " << i;
  }
  EXPECT_NEAR(r.after_pct[0], 16.0 / 84.0 * 100.0, 1e-12);
  EXPECT_NEAR(r.after_pct[1], 23.0 / 84.0 * 100.0, 1e-12);
  // (32 - 19.05) / 32 = 40.5%: the book's "41-percent improvement" (it rounds 19 first).
  EXPECT_NEAR(r.apparent_improvement_pct, 41.0, 1.0);
  EXPECT_NEAR(r.apparent_improvement_pct, 100.0 * (32.0 - 1600.0 / 84.0) / 32.0, 1e-9);
  EXPECT_NEAR(100.0 * (32.0 - std::round(r.after_pct[0])) / 32.0, 40.6, 0.05);
}

TEST(ProfileSpeedup, NoSpeedupChangesNothing) {
  const std::vector<f64> before{50, 25};
  const SpeedupPrediction r = predict_speedup(before, 1, 0.0).value();
  EXPECT_DOUBLE_EQ(r.frame_parts, 100.0);
  EXPECT_DOUBLE_EQ(r.after_pct[0], 50.0);
  EXPECT_DOUBLE_EQ(r.after_pct[1], 25.0);
  EXPECT_DOUBLE_EQ(r.apparent_improvement_pct, 0.0);
}

TEST(ProfileSpeedup, RemovingAFunctionEntirely) {
  const std::vector<f64> before{50, 25};
  const SpeedupPrediction r = predict_speedup(before, 0, 1.0).value();
  EXPECT_DOUBLE_EQ(r.frame_parts, 50.0);
  EXPECT_DOUBLE_EQ(r.after_pct[0], 0.0);
  EXPECT_DOUBLE_EQ(r.after_pct[1], 50.0);
  EXPECT_DOUBLE_EQ(r.apparent_improvement_pct, 100.0);
}

TEST(EntryPoints, SpeedupRejectsBadInput) {
  const std::vector<f64> before{50, 25};
  EXPECT_EQ(predict_speedup(before, 2, 0.5).error().code(), ErrorCode::kOutOfRange);
  EXPECT_EQ(predict_speedup({}, 0, 0.5).error().code(), ErrorCode::kOutOfRange);
  EXPECT_EQ(predict_speedup(before, 0, 1.5).error().code(), ErrorCode::kOutOfRange);
  EXPECT_EQ(predict_speedup(before, 0, -0.1).error().code(), ErrorCode::kOutOfRange);
  const std::vector<f64> too_much{80, 30};
  EXPECT_EQ(predict_speedup(too_much, 0, 0.5).error().code(), ErrorCode::kInvalidArgument);
  const std::vector<f64> negative{-1, 30};
  EXPECT_EQ(predict_speedup(negative, 1, 0.5).error().code(), ErrorCode::kInvalidArgument);
}

}  // namespace
}  // namespace keel::examples
