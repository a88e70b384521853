#include "keel/fsm/library.h"

#include "keel/core/assert.h"
#include "keel/fsm/detail/streams.h"

#include <algorithm>
#include <set>

namespace keel::fsm {

namespace {
constexpr Hash kStateEnter = string_hash("state_enter");
constexpr Hash kStateExit = string_hash("state_exit");

std::string too_deep(std::string_view fsm) {
  return fmt::format("FSM '{}': inheritance chain longer than {} FSMs (the limit)", fsm,
                     kMaxInheritanceDepth);
}
}  // namespace

const Handler* StateDef::find(Hash event) const {
  const auto it = std::lower_bound(handlers.begin(), handlers.end(), event,
                                   [](const Handler& h, Hash e) { return h.event < e; });
  return it != handlers.end() && it->event == event ? &*it : nullptr;
}

std::string_view FsmDef::string(Hash hash) const {
  for (const FsmDef* f = this; f != nullptr; f = f->parent) {
    if (const char* s = f->strings.get(hash)) return s;
  }
  return {};
}

std::vector<Hash> FsmDef::functions() const {
  std::vector<Hash> out;
  for (const FsmDef* f = this; f != nullptr; f = f->parent) {
    const std::span<const u32> own = f->view.functions();
    out.insert(out.end(), own.begin(), own.end());
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

Status FsmLibrary::add(CompiledFsms image) {
  std::unordered_map<Hash, u32> in_image;
  for (u32 i = 0; i < image.fsm_count(); ++i) {
    const FsmView f = image.fsm(i);
    if (entry_index_.contains(f.name_hash()) || !in_image.emplace(f.name_hash(), i).second) {
      return fail(ErrorCode::kAlreadyExists, "FSM '{}' is already loaded", f.name());
    }
  }
  images_.push_back(std::make_unique<CompiledFsms>(std::move(image)));
  const CompiledFsms& stored = *images_.back();
  for (u32 i = 0; i < stored.fsm_count(); ++i) {
    entry_index_.emplace(stored.fsm(i).name_hash(), entries_.size());
    entries_.push_back(Entry{stored.fsm(i), nullptr});
  }
  return ok();
}

Status FsmLibrary::link() {
  problems_.clear();
  std::vector<bool> tried(entries_.size(), false);
  auto entry_of = [&](Hash name) -> Entry* {
    const auto it = entry_index_.find(name);
    return it != entry_index_.end() ? &entries_[it->second] : nullptr;
  };
  // Parents first: repeat until no FSM can be linked.
  for (bool progress = true; progress;) {
    progress = false;
    for (usize i = 0; i < entries_.size(); ++i) {
      Entry& e = entries_[i];
      if (e.def != nullptr || tried[i]) continue;
      if (e.view.has_parent()) {
        const Entry* parent = entry_of(e.view.parent_hash());
        if (parent == nullptr || parent->def == nullptr) continue;
      }
      tried[i] = true;
      if (link_one(e)) progress = true;
    }
  }
  // Explain the FSMs still waiting.
  for (usize i = 0; i < entries_.size(); ++i) {
    const Entry& e = entries_[i];
    if (e.def != nullptr || tried[i]) continue;
    const Entry* parent = entry_of(e.view.parent_hash());
    if (parent == nullptr) {
      problem(
          LinkProblem::Kind::kMissingParent, e.view.name(),
          fmt::format("FSM '{}': parent FSM '{}' is not loaded", e.view.name(), e.view.parent()));
      continue;
    }
    // Walk up: a cycle comes back to an FSM already seen.
    std::vector<const Entry*> path{&e};
    const Entry* at = parent;
    bool cycle = false;
    while (at != nullptr && at->def == nullptr && at->view.has_parent() &&
           path.size() <= kMaxInheritanceDepth) {
      if (std::find(path.begin(), path.end(), at) != path.end()) {
        cycle = at == &e;
        break;
      }
      path.push_back(at);
      at = entry_of(at->view.parent_hash());
    }
    if (path.size() > kMaxInheritanceDepth) {
      problem(LinkProblem::Kind::kInvalid, e.view.name(), too_deep(e.view.name()));
    } else if (cycle) {
      std::string chain;
      for (const Entry* p : path) chain += fmt::format("'{}' -> ", p->view.name());
      problem(
          LinkProblem::Kind::kInvalid, e.view.name(),
          fmt::format("FSM '{}': inheritance cycle {}'{}'", e.view.name(), chain, e.view.name()));
    } else {
      problem(LinkProblem::Kind::kParentNotLinked, e.view.name(),
              fmt::format("FSM '{}': parent FSM '{}' could not be linked", e.view.name(),
                          e.view.parent()));
    }
  }
  if (problems_.empty()) return ok();
  std::string message;
  for (const LinkProblem& p : problems_) message += (message.empty() ? "" : "\n") + p.message;
  return fail(ErrorCode::kNotFound, "{}", message);
}

void FsmLibrary::problem(LinkProblem::Kind kind, std::string_view fsm, std::string message) {
  problems_.push_back(LinkProblem{kind, std::string(fsm), std::move(message)});
}

Status FsmLibrary::link_one(Entry& entry) {
  const FsmView& v = entry.view;
  const usize problems_before = problems_.size();
  const FsmDef* parent = nullptr;
  if (v.has_parent()) {
    parent = find(v.parent_hash());
    KEEL_ASSERT(parent != nullptr);
    if (parent->depth + 1 >= kMaxInheritanceDepth) {
      problem(LinkProblem::Kind::kInvalid, v.name(), too_deep(v.name()));
    } else if (parent->type != v.type_hash()) {
      problem(LinkProblem::Kind::kInvalid, v.name(),
              fmt::format("FSM '{}' (type '{}') cannot inherit from '{}' (type '{}')", v.name(),
                          v.type(), parent->name_string, parent->type_string));
    } else {
      bool same =
          parent->behavior_count() == v.behavior_count() && parent->run_event == v.run_event_hash();
      for (u32 b = 0; same && b < v.behavior_count(); ++b) {
        same = parent->behavior_name(b) == v.behavior_name(b);
      }
      if (!same) {
        problem(LinkProblem::Kind::kInvalid, v.name(),
                fmt::format("FSM '{}' and its parent '{}' were compiled with different definitions "
                            "of type '{}' "
                            "(behaviour bits or run event)",
                            v.name(), parent->name_string, v.type()));
      }
    }
    if (problems_.size() != problems_before) return fail(ErrorCode::kTypeMismatch, "type");
  }

  auto def = std::make_unique<FsmDef>();
  def->name = v.name_hash();
  def->type = v.type_hash();
  def->run_event = v.run_event_hash();
  def->name_string = v.name();
  def->type_string = v.type();
  def->parent = parent;
  def->depth = parent != nullptr ? parent->depth + 1 : 0;
  def->view = v;
  if (parent != nullptr) def->states = parent->states;
  for (u32 i = 0; i < v.state_count(); ++i) {
    const StateView sv = v.state(i);
    StateDef& s = states_.emplace_back();
    s.name = sv.name_hash();
    s.behaviors = sv.behaviors();
    s.flag_count = sv.flag_count();
    s.orphan = sv.orphan();
    s.name_string = sv.name();
    s.fsm = def.get();
    s.view = sv;
    s.parent = (parent != nullptr && !s.orphan) ? parent->find_state(s.name) : nullptr;
    s.handlers.reserve(sv.event_count() + (s.parent != nullptr ? s.parent->handlers.size() : 0));
    for (u32 e = 0; e < sv.event_count(); ++e) {
      s.handlers.push_back(Handler{sv.event_hash(e), sv.handler(e).data()});
    }
    if (s.parent != nullptr) {
      for (const Handler& h : s.parent->handlers) {
        if (!sv.find_handler(h.event)) s.handlers.push_back(h);
      }
      std::sort(s.handlers.begin(), s.handlers.end(),
                [](const Handler& a, const Handler& b) { return a.event < b.event; });
    }
    for (const Handler& h : s.handlers) s.lookup.insert(h.event, h.stream);
    s.lookup.optimize();
    const Handler* enter = s.find(kStateEnter);
    const Handler* exit = s.find(kStateExit);
    const Handler* run = s.find(def->run_event);
    s.on_enter = enter != nullptr ? enter->stream : nullptr;
    s.on_exit = exit != nullptr ? exit->stream : nullptr;
    s.on_run = run != nullptr ? run->stream : nullptr;
    const auto at = std::lower_bound(def->states.begin(), def->states.end(), s.name,
                                     [](const StateDef* x, Hash n) { return x->name < n; });
    if (at != def->states.end() && (*at)->name == s.name) {
      *at = &s;
    } else {
      def->states.insert(at, &s);
    }
  }

  for (const StateDef* st : def->states) def->state_lookup.insert(st->name, st);
  def->state_lookup.optimize();
  for (u32 i = 0; i < v.dictionary_size(); ++i) {  // own strings only: string() walks up
    const Hash h = v.dictionary_hash(i);
    if (!def->strings.contains(h)) def->strings.insert(h, v.dictionary_string(i).data());
  }
  def->initial = def->find_state(v.initial_state_hash());
  if (def->initial == nullptr) {
    problem(LinkProblem::Kind::kInvalid, v.name(),
            fmt::format("FSM '{}': initial state '{}' is not a state of '{}' or its "
                        "parents",
                        v.name(), v.initial_state(), v.name()));
  }
  // Every Transition of this FSM's own handlers must reach a state of the chain (inherited
  // handlers were checked against the parent, whose states this FSM has too).
  for (u32 i = 0; i < v.state_count(); ++i) {
    const StateView sv = v.state(i);
    for (u32 e = 0; e < sv.event_count(); ++e) {
      const u32* stream = sv.handler(e).data();
      detail::visit_commands(stream, [&](u32 pc) {
        if (header_opcode(stream[pc]) != static_cast<u8>(Opcode::kTransition)) return;
        const Hash target = stream[pc + 1];
        if (def->find_state(target) != nullptr) return;
        const std::optional<std::string_view> name = v.lookup(target);
        problem(LinkProblem::Kind::kInvalid, v.name(),
                fmt::format("FSM '{}', state '{}', handler '{}': Transition target '{}' is not a "
                            "state of '{}' or "
                            "its parents",
                            v.name(), sv.name(), v.lookup(sv.event_hash(e)).value_or("?"),
                            name.value_or("?"), v.name()));
      });
    }
  }
  if (problems_.size() != problems_before) return fail(ErrorCode::kNotFound, "unresolved");
  entry.def = std::move(def);
  return ok();
}

const FsmDef* FsmLibrary::find(Hash name) const {
  const auto it = entry_index_.find(name);
  return it != entry_index_.end() ? entries_[it->second].def.get() : nullptr;
}

Result<const FsmDef*> FsmLibrary::get(std::string_view name) const {
  if (const FsmDef* f = find(name)) return f;
  for (const Entry& e : entries_) {
    if (e.view.name() == name) {
      return fail(ErrorCode::kNotFound, "FSM '{}' is loaded but not linked", name);
    }
  }
  return fail(ErrorCode::kNotFound, "no FSM '{}' is loaded", name);
}

std::vector<const FsmDef*> FsmLibrary::fsms() const {
  std::vector<const FsmDef*> out;
  for (const Entry& e : entries_) {
    if (e.def != nullptr) out.push_back(e.def.get());
  }
  return out;
}

}  // namespace keel::fsm
