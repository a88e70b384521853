#include "keel/profile/tree_view.h"

#include "keel/profile/testing/fake_profiler.h"
#include "keel/profile/testing/table91.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace keel::profile {
namespace {

using testing::kA;
using testing::kB;
using testing::kC;
using testing::kD;
using testing::kE;
using testing::kF;
using testing::kG;
using testing::run_table91_frame;

std::vector<std::string> names(const Profiler& p, const TreeView& view) {
  std::vector<std::string> out;
  for (const TreeView::Row& row : view.rows()) out.emplace_back(p.node(row.node).name());
  return out;
}

TEST(ProfileTreeView, D6_41_FirstLevelThenExpand) {
  FakeProfiler f;
  run_table91_frame(f);
  const Profiler& p = f.profiler();
  TreeView view(p);
  EXPECT_EQ(names(p, view), (std::vector<std::string>{"A", "B"}));
  EXPECT_EQ(view.render(), "+ A 70%\n+ B 25%\n");

  view.expand(p.find("A"));
  EXPECT_EQ(names(p, view), (std::vector<std::string>{"A", "C", "D", "B"}));
  const std::vector<TreeView::Row> rows = view.rows();
  EXPECT_TRUE(rows[0].expanded);
  EXPECT_EQ(rows[1].depth, 2u);
  EXPECT_FALSE(rows[1].has_children);  // C
  EXPECT_TRUE(rows[2].has_children);   // D, collapsed
  EXPECT_FALSE(rows[2].expanded);
  EXPECT_EQ(view.render(), "- A 70%\n    C 30%\n  + D 39%\n+ B 25%\n");

  view.toggle(p.find("A/D"));
  EXPECT_EQ(names(p, view), (std::vector<std::string>{"A", "C", "D", "F", "G", "B"}));
  view.collapse(p.find("A"));
  EXPECT_EQ(names(p, view), (std::vector<std::string>{"A", "B"}));
  view.expand(p.find("A"));  // D remembers it was expanded
  EXPECT_EQ(names(p, view), (std::vector<std::string>{"A", "C", "D", "F", "G", "B"}));

  view.expand_all();
  EXPECT_EQ(view.rows().size(), 8u);
  view.collapse_all();
  EXPECT_EQ(names(p, view), (std::vector<std::string>{"A", "B"}));
  view.expand(kNoNode);  // ignored
  EXPECT_EQ(view.rows().size(), 2u);
}

}  // namespace
}  // namespace keel::profile
