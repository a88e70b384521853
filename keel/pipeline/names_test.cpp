#include "keel/pipeline/detail/names.h"

#include "keel/core/hash.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

namespace keel::pipeline {
namespace {

TEST(PipelineNames, FileNamesForAssets) {
  EXPECT_EQ(file_name_for("face"), "face");
  EXPECT_EQ(file_name_for("Level-1.v2_final"), "Level-1.v2_final");
  // Anything else is replaced, and the original's hash keeps different names apart.
  EXPECT_EQ(file_name_for("ui/menu"), fmt::format("ui_menu-{:08x}", string_hash("ui/menu")));
  EXPECT_NE(file_name_for("ui/menu"), file_name_for("ui menu"));
  EXPECT_NE(file_name_for("ui_menu"), file_name_for("ui menu"));
  EXPECT_EQ(file_name_for(".hidden"), fmt::format(".hidden-{:08x}", string_hash(".hidden")));
  EXPECT_EQ(file_name_for("..").substr(0, 3), "..-");
  EXPECT_EQ(file_name_for(""), fmt::format("-{:08x}", string_hash("")));
  const std::string long_name(200, 'a');
  EXPECT_EQ(file_name_for(long_name).size(), 80u + 9u);
}

TEST(PipelineNames, CaseInsensitiveNames) {
  EXPECT_TRUE(equal_names("Common", "COMMON"));
  EXPECT_FALSE(equal_names("PC", "PC2"));
  EXPECT_EQ(to_lower("HandHeld_2"), "handheld_2");
  EXPECT_TRUE(is_identifier("Handheld_2"));
  EXPECT_TRUE(is_identifier("_x"));
  EXPECT_FALSE(is_identifier("2d"));
  EXPECT_FALSE(is_identifier("a-b"));
  EXPECT_FALSE(is_identifier(""));
}

}  // namespace
}  // namespace keel::pipeline
