#include "keel/fsm/compiler/dot.h"

#include "keel/fsm/detail/modifier.h"

#include <fmt/format.h>

#include <set>
#include <string_view>

namespace keel::fsm {

namespace {

using text::Token;

std::string quote(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  out += '"';
  return out;
}

bool string_param(const Token& cmd) { return cmd.params != nullptr && cmd.params->is_string(); }

class DotWriter {
 public:
  std::string run(const Token* first) {
    out_ = "digraph fsm {\n  compound=true;\n  rankdir=LR;\n  node [shape=box, style=rounded];\n";
    int index = 0;
    for (const Token& stmt : text::chain(first)) {
      if (stmt.is("FSM") && string_param(stmt)) fsm(stmt, index++);
    }
    out_ += "}\n";
    return out_;
  }

 private:
  std::string node(std::string_view state) const {
    return quote(fmt::format("{}:{}", prefix_, state));
  }

  void line(int depth, std::string_view text) {
    out_.append(static_cast<usize>(depth) * 2, ' ');
    out_ += text;
    out_ += '\n';
  }

  void fsm(const Token& stmt, int index) {
    prefix_ = fmt::format("f{}", index);
    declared_.clear();
    targets_.clear();
    edges_.clear();
    std::string label(stmt.params->text);
    if (stmt.params->next != nullptr) label += fmt::format(" : {}", stmt.params->next->text);
    const Token* initial = nullptr;
    for (const Token& item : text::chain(stmt.conditional)) {
      if (item.is("Parent") && string_param(item))
        label += fmt::format("\nParent: {}", item.params->text);
      if (item.is("InitialState") && string_param(item)) initial = &item;
    }
    line(1, fmt::format("subgraph cluster_{} {{", prefix_));
    line(2, fmt::format("label={}; style=bold;", quote(label)));
    block(stmt.conditional, 2);
    if (initial != nullptr) {
      line(2, fmt::format("{} [shape=point, label=\"\"];", quote(prefix_ + ":start")));
      targets_.emplace(initial->params->text);
      edges_ +=
          fmt::format("  {} -> {};\n", quote(prefix_ + ":start"), node(initial->params->text));
    }
    // States named but not declared here come from the parent FSM.
    for (const std::string& t : targets_) {
      if (!declared_.contains(t)) {
        line(2, fmt::format("{} [label={}, style=\"rounded,dotted\"];", node(t),
                            quote(t + "\n(inherited)")));
      }
    }
    line(1, "}");
    out_ += edges_;
  }

  void block(const Token* first, int depth) {
    for (const Token& item : text::chain(first)) {
      if (item.is("State") && string_param(item)) {
        const std::string_view name = item.params->text;
        declared_.emplace(name);
        line(depth, fmt::format("{} [label={}];", node(name), quote(name)));
        handlers(item, node(name));
      } else if (item.is("Group")) {
        const int id = group_id_++;
        line(depth, fmt::format("subgraph cluster_{}_g{} {{", prefix_, id));
        const std::string_view name = string_param(item) ? item.params->text : "";
        line(depth + 1,
             fmt::format("label={}; style=dashed;", quote(name.empty() ? "group" : name)));
        block(item.conditional, depth + 1);
        line(depth, "}");
      } else if (item.is("GroupState")) {
        const std::string id = quote(fmt::format("{}:group{}", prefix_, group_id_ - 1));
        line(depth, fmt::format("{} [label=\"GroupState\", style=\"rounded,dashed\"];", id));
        handlers(item, id);
      }
    }
  }

  void handlers(const Token& state, const std::string& from) {
    for (const Token& item : text::chain(state.conditional)) {
      if (item.is("On") && string_param(item)) {
        commands(item.conditional, from, item.params->text, false);
      }
    }
  }

  void commands(const Token* first, const std::string& from, std::string_view event,
                bool conditional) {
    for (const Token& cmd : text::chain(first)) {
      if (cmd.is("Transition") && string_param(cmd)) {
        const std::string_view target = cmd.params->text;
        targets_.emplace(target);
        bool no_exit = false;
        for (const Token* p = cmd.params->next; p != nullptr; p = p->next) {
          const Modifier m = parse_modifier(p->text);
          if (iequals(m.name, "state_exit")) no_exit = !m.on;
        }
        std::string label(event);
        if (conditional) label += " ?";
        if (no_exit) label += " (no exit)";
        edges_ += fmt::format("  {} -> {} [label={}{}];\n", from, node(target), quote(label),
                              conditional ? ", style=dashed" : "");
      } else if (cmd.conditional != nullptr) {
        commands(cmd.conditional, from, event, true);
      }
    }
  }

  std::string out_;
  std::string edges_;
  std::string prefix_;
  std::set<std::string, std::less<>> declared_;
  std::set<std::string, std::less<>> targets_;
  int group_id_ = 0;
};

}  // namespace

std::string to_dot(const text::Token* first) { return DotWriter().run(first); }

}  // namespace keel::fsm
