// Loaded FSM definitions (the book's FSMDEF and FSMSTATE) and the load-time checks.
//
//   fsm::FsmLibrary library;
//   library.add(*fsm::CompiledFsms::load_file("data/character.kfsm"));
//   library.add(*fsm::CompiledFsms::load_file("data/player.kfsm"));   // child of the first
//   if (Status s = library.link(); !s) { ... }          // parents, types, cycles, targets
//   const fsm::FsmDef* player = library.find("Player");
//
// Each FSM is compiled alone, so what crosses FSMs is checked by link(): the parent exists and
// has the same type (and the same behaviour names), there is no inheritance cycle, the initial
// state and every Transition target resolve in the FSM or its ancestors. link() may be called
// again after adding more images; FSMs linked earlier stay valid (their addresses never change).
//
// At link time each state's handlers are flattened: a state sees its own handlers, then (unless
// it is an orphan) those of the same-named state up the parent chain, in one sorted table. An
// FSM's state table holds every state of the chain, the most derived version of each.
//
// A chain holds at most kMaxInheritanceDepth FSMs (the FSM, its parent, ...): link() reports a
// longer one as an error naming the FSM. Memory is linear in the FSMs and states loaded, times at
// most that depth (each FSM's state table lists the states of its chain).
#pragma once

#include "keel/core/error.h"
#include "keel/core/hash.h"
#include "keel/core/prehashed_map.h"
#include "keel/core/types.h"
#include "keel/fsm/compiled.h"

#include <deque>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace keel::fsm {

struct FsmDef;

inline constexpr u32 kMaxInheritanceDepth = 64;

struct Handler {
  Hash event = 0;
  const u32* stream = nullptr;  // validated command words, ending with End
};

struct StateDef {
  Hash name = 0;
  u32 behaviors = 0;  // absolute: the FSM's defaults, groups and the state's own Behavior
  u32 flag_count = 0;
  bool orphan = false;
  std::string_view name_string;
  const FsmDef* fsm = nullptr;       // the FSM that declares this state
  const StateDef* parent = nullptr;  // same-named state up the chain; null if orphan or none
  std::vector<Handler> handlers;     // own + inherited, sorted by event hash
  const u32* on_enter = nullptr;     // "state_enter", "state_exit" and the run event, cached
  const u32* on_exit = nullptr;
  const u32* on_run = nullptr;
  StateView view;
  PrehashedMap<Hash, const u32*> lookup;  // event hash -> stream, the same as `handlers`

  const Handler* find(Hash event) const;
  const u32* handler(Hash event) const { return lookup.get(event); }
};

struct FsmDef {
  Hash name = 0;
  Hash type = 0;
  Hash run_event = 0;
  std::string_view name_string;
  std::string_view type_string;
  const FsmDef* parent = nullptr;
  const StateDef* initial = nullptr;
  std::vector<const StateDef*> states;  // every state of the chain, most derived, by name hash
  FsmView view;
  PrehashedMap<Hash, const StateDef*> state_lookup;  // the same states as `states`
  u32 depth = 0;  // 0 without a parent, else the parent's depth + 1 (< kMaxInheritanceDepth)
  PrehashedMap<Hash, const char*> strings;  // this FSM's own dictionary (NUL-terminated)

  const StateDef* find_state(Hash state) const { return state_lookup.get(state); }
  const StateDef* find_state(std::string_view state_name) const {
    return find_state(string_hash(state_name));
  }
  // A string of the dictionaries of this FSM and its ancestors (event, state, function, alias
  // and link names, Error messages); empty when unknown.
  std::string_view string(Hash hash) const;
  std::string_view behavior_name(u32 bit) const { return view.behavior_name(bit); }
  u32 behavior_count() const { return view.behavior_count(); }
  // Every function this FSM and its ancestors call (hashes; names through string()).
  std::vector<Hash> functions() const;
};

// One problem found by FsmLibrary::link().
struct LinkProblem {
  enum class Kind : u8 {
    kMissingParent,    // the parent FSM is not loaded
    kParentNotLinked,  // the parent is loaded but failed (or waits for its own parent)
    kInvalid,          // type mismatch, cycle, unresolved initial state or transition target
  };
  Kind kind = Kind::kInvalid;
  std::string fsm;
  std::string message;
};

class FsmLibrary {
 public:
  FsmLibrary() = default;
  FsmLibrary(const FsmLibrary&) = delete;
  FsmLibrary& operator=(const FsmLibrary&) = delete;

  // Takes an image. Fails (adding nothing) when one of its FSMs has the name of one already here.
  Status add(CompiledFsms image);
  // Runs the load-time checks on every FSM not linked yet; the error lists every problem, one
  // per line. FSMs that fail stay unlinked (a later add + link may fix them).
  Status link();

  // The problems of the last link(), in the order reported.
  const std::vector<LinkProblem>& problems() const { return problems_; }

  const FsmDef* find(Hash name) const;  // linked FSMs only
  const FsmDef* find(std::string_view name) const { return find(string_hash(name)); }
  Result<const FsmDef*> get(std::string_view name) const;
  std::vector<const FsmDef*> fsms() const;  // linked, in the order they were added

 private:
  struct Entry {
    FsmView view;
    std::unique_ptr<FsmDef> def;  // set once linked
  };
  Status link_one(Entry& entry);
  void problem(LinkProblem::Kind kind, std::string_view fsm,
               std::string message);  // ok when linked

  std::vector<std::unique_ptr<CompiledFsms>> images_;
  std::vector<Entry> entries_;
  std::unordered_map<Hash, usize> entry_index_;  // FSM name hash -> entries_ index
  std::deque<StateDef> states_;
  std::vector<LinkProblem> problems_;
};

}  // namespace keel::fsm
