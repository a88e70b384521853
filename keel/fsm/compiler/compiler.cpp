// FSM, group and state blocks (Golden Rules ch. 7, "FSM scripting language reference").
// Handlers are compiled by handler_compiler.cpp; the image is laid out by image_builder.cpp.
#include "keel/fsm/compiler/compiler.h"

#include "keel/fsm/compiler/detail/compiler.h"
#include "keel/fsm/compiler/detail/image_builder.h"
#include "keel/fsm/detail/modifier.h"
#include "keel/text/signature.h"

#include <algorithm>
#include <map>
#include <memory>
#include <set>

namespace keel::fsm {

namespace detail {

Hash FsmScope::add_string(std::string_view text, const text::Token& at) {
  const Hash h = string_hash(text);
  if (text.find('\0') != std::string_view::npos) {
    diag->error(at, "names cannot contain a NUL byte");
    return h;
  }
  auto [it, fresh] = out->dictionary.try_emplace(h, text);
  if (!fresh && it->second != text) {
    diag->error(at, "'{}' and '{}' have the same hash 0x{:08X}; rename one of them", text,
                it->second, h);
  }
  return h;
}

std::optional<u32> FsmScope::behavior(std::string_view name, const text::Token& at) {
  if (name.empty()) {
    diag->error(at, "behaviour name is empty");
    return std::nullopt;
  }
  if (std::optional<u32> bit = type->behavior_bit(name)) return bit;
  if (type->automatic()) {
    if (Status s = type->add_behavior(name); !s) {
      diag->error(at, "{}", s.error().message());
      return std::nullopt;
    }
    return type->behavior_bit(name);
  }
  std::string valid;
  for (const std::string& b : type->behaviors()) {
    valid += valid.empty() ? "" : ", ";
    valid += b;
  }
  diag->error(at, "unknown behaviour '{}' for FSM type '{}' (valid: {})", name, type->name(),
              valid.empty() ? "none" : valid);
  return std::nullopt;
}

}  // namespace detail

namespace {

using detail::FlagScope;
using detail::FsmScope;
using text::Token;

constexpr std::string_view kUntypedType = "Untyped";
constexpr u32 kMaxFlags = 32;

struct CompiledHandler {
  std::vector<u32> words;
  const Token* at = nullptr;
};

// What a state inherits from its FSM or group: behaviours, flags (group flags come first) and
// handlers (overridden per event by the state's own).
struct Inherited {
  u32 behaviors = 0;
  std::vector<std::string> flags;
  std::map<Hash, CompiledHandler> handlers;
};

struct StateResult {
  u32 behaviors = 0;
  bool orphan = false;
  std::vector<std::string> flags;
  std::map<Hash, CompiledHandler> handlers;  // own + inherited
};

class FsmCompiler {
 public:
  FsmCompiler(text::Diagnostics& diag, FsmType& type, BuiltFsm& out) {
    scope_.diag = &diag;
    scope_.type = &type;
    scope_.out = &out;
  }

  void compile(const Token& stmt) {
    BuiltFsm& out = *scope_.out;
    text::Diagnostics& diag = *scope_.diag;
    scope_.add_string(out.name, *stmt.params);
    scope_.add_string(out.type, stmt.params->next != nullptr ? *stmt.params->next : stmt);
    scope_.add_string(out.run_event, stmt);

    // Pre-pass: FSM-level settings and every state name (groups included).
    Inherited defaults;
    const Token* initial = nullptr;
    const Token* parent = nullptr;
    for (const Token& item : text::chain(stmt.conditional)) {
      if (item.is("DefaultBehavior") || item.is("DefaultBehaviour")) {
        if (text::check_command(item, diag, {text::kString}, {.min_params = 1, .variadic = true})) {
          behaviors(item, defaults.behaviors);
        }
      } else if (item.is("InitialState")) {
        if (initial != nullptr) {
          diag.error(item, "second `InitialState`; the first is at line {}", initial->line);
        } else if (text::check_command(item, diag, {text::kString})) {
          initial = &item;
        }
      } else if (item.is("Parent")) {
        if (parent != nullptr) {
          diag.error(item, "second `Parent`; an FSM has one parent (line {})", parent->line);
        } else if (text::check_command(item, diag, {text::kString})) {
          parent = &item;
        }
      }
    }
    collect_states(stmt.conditional);
    if (parent != nullptr) {
      const std::string_view name = parent->params->text;
      if (name == out.name) {
        diag.error(*parent->params, "FSM '{}' cannot be its own parent", name);
      } else if (name.empty()) {
        diag.error(*parent->params, "parent name is empty");
      } else {
        scope_.has_parent = true;
        out.parent = std::string(name);
        scope_.add_string(name, *parent->params);
      }
    }
    if (initial == nullptr) {
      diag.error(stmt, "FSM '{}' has no InitialState(\"...\") (required, even with a Parent)",
                 out.name);
    } else {
      const std::string_view name = initial->params->text;
      out.initial_state = std::string(name);
      scope_.add_string(name, *initial->params);
      if (!scope_.has_parent && !scope_.state_names.contains(name)) {
        diag.error(*initial->params, "initial state '{}' is not a state of FSM '{}'", name,
                   out.name);
      }
    }
    if (scope_.state_names.empty() && !scope_.has_parent) {
      diag.error(stmt, "FSM '{}' declares no state and has no Parent", out.name);
    }

    states_block(stmt.conditional, defaults, /*fsm_level=*/true);
  }

 private:
  void behaviors(const Token& cmd, u32& mask) {
    for (const Token* p = cmd.params; p != nullptr; p = p->next) {
      const Modifier m = parse_modifier(p->text);
      if (std::optional<u32> bit = scope_.behavior(m.name, *p)) {
        mask = m.on ? (mask | *bit) : (mask & ~*bit);
      }
    }
  }

  void collect_states(const Token* first) {
    for (const Token& item : text::chain(first)) {
      if (item.is("State") && item.params != nullptr && item.params->is_string()) {
        scope_.state_names.emplace(item.params->text);
      } else if (item.is("Group")) {
        collect_states(item.conditional);
      }
    }
  }

  // The items of an FSM block (fsm_level) or a group block.
  void states_block(const Token* first, const Inherited& outer, bool fsm_level) {
    text::Diagnostics& diag = *scope_.diag;
    const Inherited* base = &outer;
    std::unique_ptr<Inherited> group;
    bool first_item = true;
    for (const Token& item : text::chain(first)) {
      const bool was_first = first_item;
      first_item = false;
      if (item.is("State")) {
        state(item, *base);
      } else if (item.is("Group")) {
        if (text::check_command(item, diag, {text::kString},
                                {.min_params = 0, .conditional = text::Conditional::kRequired})) {
          states_block(item.conditional, *base, false);
        }
      } else if (item.is("GroupState")) {
        if (fsm_level) {
          diag.error(item, "`GroupState` is only valid as the first command of a Group block");
        } else if (group != nullptr) {
          diag.error(item, "second `GroupState` in one group; a group has at most one");
        } else if (!was_first) {
          diag.error(item, "`GroupState` must be the first command of its Group block");
        } else if (text::check_command(item, diag, {},
                                       {.conditional = text::Conditional::kRequired})) {
          StateResult r = state_block(item, outer, /*group_state=*/true);
          group = std::make_unique<Inherited>();
          group->behaviors = r.behaviors;
          group->flags = std::move(r.flags);
          group->handlers = std::move(r.handlers);
          base = group.get();
        }
      } else if (fsm_level && (item.is("DefaultBehavior") || item.is("DefaultBehaviour") ||
                               item.is("InitialState") || item.is("Parent"))) {
        // Handled by the pre-pass.
      } else if (item.is("Orphan")) {
        diag.error(item, "`Orphan` is only valid inside a State block");
      } else if (fsm_level) {
        diag.error(item,
                   "unknown command `{}` in an FSM block (valid: DefaultBehavior, InitialState, "
                   "Parent, Group, State)",
                   item.text);
      } else {
        diag.error(item, "unknown command `{}` in a Group block (valid: GroupState, Group, State)",
                   item.text);
      }
    }
  }

  void state(const Token& item, const Inherited& base) {
    text::Diagnostics& diag = *scope_.diag;
    if (!text::check_command(item, diag, {text::kString},
                             {.conditional = text::Conditional::kRequired})) {
      return;
    }
    const std::string_view name = item.params->text;
    if (name.empty()) {
      diag.error(*item.params, "state name is empty");
      return;
    }
    if (auto [it, fresh] = declared_.try_emplace(std::string(name), &item); !fresh) {
      diag.error(*item.params, "state '{}' is declared twice in this FSM (first at line {})", name,
                 it->second->line);
      return;
    }
    scope_.add_string(name, *item.params);
    StateResult r = state_block(item, base, /*group_state=*/false);
    BuiltState s;
    s.name = std::string(name);
    s.behaviors = r.behaviors;
    s.orphan = r.orphan;
    s.flags = std::move(r.flags);
    for (auto& [hash, handler] : r.handlers) s.handlers.emplace(hash, std::move(handler.words));
    scope_.out->states.push_back(std::move(s));
  }

  // The body of a State or GroupState.
  StateResult state_block(const Token& owner, const Inherited& base, bool group_state) {
    text::Diagnostics& diag = *scope_.diag;
    StateResult r;
    r.behaviors = base.behaviors;
    r.flags = base.flags;
    // Every flag this block declares, for "used before its declaration" messages.
    std::set<std::string, std::less<>> all_flags;
    for (const Token& item : text::chain(owner.conditional)) {
      if (item.is("Flags")) {
        for (const Token* p = item.params; p != nullptr; p = p->next) all_flags.emplace(p->text);
      }
    }
    std::map<Hash, CompiledHandler> own;
    for (const Token& item : text::chain(owner.conditional)) {
      if (item.is("Behavior") || item.is("Behaviour")) {
        if (text::check_command(item, diag, {text::kString}, {.min_params = 1, .variadic = true})) {
          behaviors(item, r.behaviors);
        }
      } else if (item.is("Flags")) {
        if (!text::check_command(item, diag, {text::kString},
                                 {.min_params = 1, .variadic = true})) {
          continue;
        }
        for (const Token* p = item.params; p != nullptr; p = p->next) {
          if (p->text.empty() || !parse_modifier(p->text).on) {
            diag.error(*p, "flag name '{}' is empty or starts with ~ ! -", p->text);
          } else if (std::find(r.flags.begin(), r.flags.end(), p->text) != r.flags.end()) {
            diag.error(*p, "flag '{}' is declared twice in this state", p->text);
          } else if (r.flags.size() >= kMaxFlags) {
            diag.error(*p, "flag '{}' is flag number {}; a state has at most {} flags", p->text,
                       r.flags.size() + 1, kMaxFlags);
          } else {
            r.flags.emplace_back(p->text);
          }
        }
      } else if (item.is("Orphan")) {
        if (group_state) {
          diag.error(item, "`Orphan` is not valid in a GroupState (only in a State block)");
        } else if (text::check_command(item, diag, {})) {
          if (!scope_.has_parent) {
            diag.warning(item, "`Orphan` has no effect in an FSM without a Parent");
          }
          r.orphan = true;
        }
      } else if (item.is("On")) {
        handler(item, r.flags, all_flags, own);
      } else {
        diag.error(item, "unknown command `{}` in a {} block (valid: Behavior, Flags, {}On)",
                   item.text, group_state ? "GroupState" : "State", group_state ? "" : "Orphan, ");
      }
    }
    r.handlers = base.handlers;
    for (auto& [hash, h] : own) r.handlers[hash] = std::move(h);
    return r;
  }

  void handler(const Token& on, const std::vector<std::string>& flags,
               const std::set<std::string, std::less<>>& all_flags,
               std::map<Hash, CompiledHandler>& own) {
    text::Diagnostics& diag = *scope_.diag;
    if (!text::check_command(on, diag, {text::kString},
                             {.conditional = text::Conditional::kRequired})) {
      return;
    }
    const std::string_view event = on.params->text;
    if (event.empty()) {
      diag.error(*on.params, "event name is empty");
      return;
    }
    const Hash h = scope_.add_string(event, *on.params);
    if (auto it = own.find(h); it != own.end()) {
      diag.error(*on.params, "a second handler for \"{}\" in this state (first at line {})", event,
                 it->second.at->line);
      return;
    }
    const FlagScope flag_scope{&flags, &all_flags};
    own.emplace(h, CompiledHandler{
                       detail::compile_handler(scope_, flag_scope, event, on.conditional), &on});
  }

  FsmScope scope_;
  std::map<std::string, const Token*, std::less<>> declared_;
};

class Compiler {
 public:
  Compiler(const TypeRegistry& types, text::Diagnostics& diag) : types_(types), diag_(diag) {}

  void fsm(const Token& stmt) {
    if (!stmt.is("FSM")) {
      diag_.error(stmt, "expected `FSM(\"name\", \"type\") {{ ... }}`, got `{}`", stmt.text);
      return;
    }
    if (!text::check_command(stmt, diag_, {text::kString, text::kString},
                             {.min_params = 1, .conditional = text::Conditional::kRequired})) {
      return;
    }
    const std::string_view name = stmt.params->text;
    if (name.empty()) {
      diag_.error(*stmt.params, "FSM name is empty");
      return;
    }
    if (auto [it, fresh] = names_.try_emplace(std::string(name), &stmt); !fresh) {
      diag_.error(*stmt.params, "FSM '{}' is declared twice (first at line {})", name,
                  it->second->line);
      return;
    }
    const std::string_view type_name =
        stmt.params->next != nullptr ? stmt.params->next->text : kUntypedType;
    FsmType* type =
        resolve_type(type_name, stmt.params->next != nullptr ? *stmt.params->next : stmt);
    if (type == nullptr) return;

    BuiltFsm& out = fsms_.emplace_back();
    out.name = std::string(name);
    out.type = std::string(type_name);
    out.run_event = type->run_event();
    FsmCompiler(diag_, *type, out).compile(stmt);
    out.behaviors = type->behaviors();
    out.dictionary.try_emplace(string_hash(out.run_event), out.run_event);
  }

  std::optional<CompiledFsms> finish(usize errors_before, const Token* first) {
    if (names_.empty() && diag_.error_count() == errors_before) {
      if (first != nullptr) {
        diag_.error(*first, "no FSM(...) statement");
      } else {
        diag_.error(SourceLocation{}, "no FSM(...) statement");
      }
    }
    if (diag_.error_count() != errors_before) return std::nullopt;
    // Automatic types may have gained behaviours after an FSM of the same type was compiled:
    // every FSM of a type records the final list.
    for (BuiltFsm& f : fsms_) {
      if (const auto it = automatic_.find(f.type); it != automatic_.end()) {
        f.behaviors = it->second->behaviors();
      }
    }
    return build_image(fsms_);
  }

 private:
  FsmType* resolve_type(std::string_view name, const Token& at) {
    if (const FsmType* known = types_.find(name)) {
      // Copy: a type's automatic flag is never set on registered types, so it stays read-only.
      auto [it, fresh] = registered_.try_emplace(std::string(name), nullptr);
      if (fresh) it->second = std::make_unique<FsmType>(*known);
      return it->second.get();
    }
    if (const auto it = automatic_.find(name); it != automatic_.end()) return it->second.get();
    if (types_.unknown_types() == UnknownTypes::kError && name != kUntypedType) {
      diag_.error(at, "unknown FSM type '{}' (the game registers its types)", name);
      return nullptr;
    }
    auto type = std::make_unique<FsmType>(std::string(name));
    type->set_automatic(true);
    return automatic_.emplace(std::string(name), std::move(type)).first->second.get();
  }

  const TypeRegistry& types_;
  text::Diagnostics& diag_;
  std::vector<BuiltFsm> fsms_;
  std::map<std::string, const Token*, std::less<>> names_;
  std::map<std::string, std::unique_ptr<FsmType>, std::less<>> registered_;
  std::map<std::string, std::unique_ptr<FsmType>, std::less<>> automatic_;
};

}  // namespace

std::optional<CompiledFsms> compile(const text::Token* first, const TypeRegistry& types,
                                    text::Diagnostics& diagnostics) {
  const usize errors_before = diagnostics.error_count();
  Compiler compiler(types, diagnostics);
  for (const Token& stmt : text::chain(first)) compiler.fsm(stmt);
  return compiler.finish(errors_before, first);
}

std::optional<CompiledFsms> compile_one(const text::Token& fsm_statement, const TypeRegistry& types,
                                        text::Diagnostics& diagnostics) {
  const usize errors_before = diagnostics.error_count();
  Compiler compiler(types, diagnostics);
  compiler.fsm(fsm_statement);
  return compiler.finish(errors_before, &fsm_statement);
}

}  // namespace keel::fsm
