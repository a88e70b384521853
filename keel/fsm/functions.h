// The function dictionary (Golden Rules ch. 7, "Callbacks"): names an FSM's Execute and
// CreateLink commands call, mapped to game functions. The book keeps one static list; here a
// registry is an object the game owns (several worlds or tests can each have their own), handed
// to FsmInstances through an Environment.
//
//   fsm::FunctionRegistry functions;
//   functions.declare("ClearPin", [](fsm::FsmInstance& fsm) { fsm.object<Atm>().pin.clear(); });
//   KEEL_FSM_DECLARE_FUNCTION(functions, RunPinEntry);   // registered as "RunPinEntry"
//   functions.clear();                                   // the book's ClearFunctionList
//
// One function may be registered under several names; a name is registered once. Names are
// case-sensitive (their keel::string_hash is the key, as in the compiled FSM).
#pragma once

#include "keel/core/error.h"
#include "keel/core/hash.h"
#include "keel/core/prehashed_map.h"
#include "keel/core/types.h"

#include <deque>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace keel::fsm {

class FsmInstance;
using FsmFunction = std::function<void(FsmInstance&)>;

class FunctionRegistry {
 public:
  // Fails with kAlreadyExists when the name (or another name with the same hash) is taken.
  Status declare(std::string_view name, FsmFunction function);
  // The book's other argument order (DeclareFunction(fn, "name")).
  Status declare(FsmFunction function, std::string_view name) {
    return declare(name, std::move(function));
  }

  const FsmFunction* find(Hash name) const {  // nullptr when not registered
    const Entry* e = slots_.get(name);
    return e != nullptr ? &e->function : nullptr;
  }
  const FsmFunction* find(std::string_view name) const { return find(string_hash(name)); }
  std::string_view name_of(Hash name) const;  // empty when not registered

  // The book's ClearFunctionList: forgets every function and releases all memory.
  void clear();
  usize size() const { return entries_.size(); }
  // Bytes held by the registry's tables (0 after clear()).
  usize memory_bytes() const;

 private:
  struct Entry {
    Hash hash;
    std::string name;
    FsmFunction function;
  };
  std::deque<Entry> entries_;  // stable addresses: find() results stay valid across declare()
  PrehashedMap<Hash, const Entry*> slots_;  // optimize()d: a lookup reads one slot
};

}  // namespace keel::fsm

// Registers `fn` under its own name, like the book's DECLAREFSMFUNTION (sic) macro.
#define KEEL_FSM_DECLARE_FUNCTION(registry, fn) (registry).declare(#fn, fn)
