// Graphviz view of FSM source: states as boxes, transitions as edges labelled with their event,
// groups as clusters (a group state is a dashed box inside its cluster), the initial state
// marked by an arrow from a dot. Works on the source tree, because groups do not survive
// compilation; compile first to report errors, then draw.
//
//   keel-fsm dot character.fsm | dot -Tsvg > character.svg
#pragma once

#include "keel/text/token.h"

#include <string>

namespace keel::fsm {

// One digraph; each FSM statement of the chain is a cluster of its own.
std::string to_dot(const text::Token* first);

}  // namespace keel::fsm
