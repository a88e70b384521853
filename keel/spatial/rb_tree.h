// The red-black tree of Golden Rules ch. 2 lives in keel/core (keel/core/rb_tree.h) so that
// lower layers can use it (the profiler orders its flat view with it); this header makes it
// visible under keel::spatial beside the other search trees.
#pragma once

#include "keel/core/rb_tree.h"

namespace keel::spatial {

using keel::RbColor;
using keel::RbNode;
using keel::RbPool;
using keel::RbTree;

}  // namespace keel::spatial
