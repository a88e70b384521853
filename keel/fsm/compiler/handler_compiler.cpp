// Event-handler commands to DWORD streams (opcodes.h, Tables 7.1-7.3).
#include "keel/fsm/compiler/detail/compiler.h"
#include "keel/fsm/detail/modifier.h"
#include "keel/fsm/opcodes.h"
#include "keel/text/signature.h"

#include <bit>
#include <string>

namespace keel::fsm::detail {

namespace {

using text::Token;

class HandlerCompiler {
 public:
  HandlerCompiler(FsmScope& scope, const FlagScope& flags, std::string_view event)
      : scope_(scope), diag_(*scope.diag), flags_(flags), event_(event) {}

  std::vector<u32> run(const Token* first) {
    std::vector<u32> out;
    const bool ended = sequence(first, out);
    if (!ended) out.push_back(make_header(Opcode::kEnd, 0));
    return out;
  }

 private:
  // Compiles a chain of commands; returns true when the last one is End.
  bool sequence(const Token* first, std::vector<u32>& out) {
    const Token* stopper = nullptr;
    bool warned = false;
    bool last_end = false;
    for (const Token& cmd : text::chain(first)) {
      if (stopper != nullptr && !warned && !cmd.is("End")) {
        diag_.warning(cmd, "`{}` is never reached: `{}` ends the handler", cmd.text, stopper->text);
        warned = true;
      }
      const std::optional<Opcode> op = command(cmd, out);  // compiled anyway: errors still count
      last_end = op == Opcode::kEnd;
      if (op == Opcode::kEnd || op == Opcode::kTransition || op == Opcode::kEvent) {
        stopper = &cmd;
      }
    }
    return last_end;
  }

  // Compiles one command; returns its built-in opcode (nullopt for game commands and errors).
  std::optional<Opcode> command(const Token& cmd, std::vector<u32>& out) {
    const std::optional<Opcode> op = builtin_opcode(cmd.text);
    if (op && !scope_.type->enabled(*op)) {
      diag_.error(cmd, "`{}` is not available in FSMs of type '{}'", cmd.text, scope_.type->name());
      return std::nullopt;
    }
    if (!op) {
      if (const CommandSpec* spec = scope_.type->find_command(cmd.text)) {
        custom(*spec, cmd, out);
        return std::nullopt;
      }
      if (cmd.is("SetFlags")) {
        diag_.error(cmd, "unknown command `SetFlags`; the command is `SetFlag`");
      } else {
        diag_.error(cmd, "unknown command `{}` in an event handler", cmd.text);
      }
      return std::nullopt;
    }
    switch (*op) {
      case Opcode::kEnd:
        if (text::check_command(cmd, diag_, {})) out.push_back(make_header(Opcode::kEnd, 0));
        break;
      case Opcode::kTransition: transition(cmd, out); break;
      case Opcode::kExecute: name_command(cmd, Opcode::kExecute, out, true); break;
      case Opcode::kSetAnimation: set_animation(cmd, out); break;
      case Opcode::kSetFlag: flags(cmd, Opcode::kSetFlag, out); break;
      case Opcode::kIfFlags: flags(cmd, Opcode::kIfFlags, out); break;
      case Opcode::kError: name_command(cmd, Opcode::kError, out, false); break;
      case Opcode::kEvent: name_command(cmd, Opcode::kEvent, out, false); break;
      case Opcode::kChangeBehavior: change_behavior(cmd, out); break;
      case Opcode::kCreateLink: create_link(cmd, out); break;
      case Opcode::kAcceptLink:
        if (text::check_command(cmd, diag_, {})) {
          if (!event_.starts_with("link_")) {
            diag_.warning(cmd,
                          "`AcceptLink` only has an effect in a \"link_<name>\" handler, not in "
                          "\"{}\"",
                          event_);
          }
          out.push_back(make_header(Opcode::kAcceptLink, 0));
        }
        break;
      case Opcode::kBreakLink: break_link(cmd, out); break;
      case Opcode::kIfLink: if_link(cmd, out); break;
      case Opcode::kIfRandom: if_random(cmd, out); break;
      case Opcode::kSendEvent: send_event(cmd, out); break;
    }
    return op;
  }

  bool strings(const Token& cmd, u32 fixed, bool variadic, bool block = false) {
    std::vector<text::ParamKinds> kinds(fixed, text::kString);
    if (variadic) kinds.push_back(text::kString);
    const text::CommandRules rules{
        .min_params = fixed,
        .variadic = variadic,
        .conditional = block ? text::Conditional::kRequired : text::Conditional::kForbidden};
    // check_command takes an initializer list; spell out the shapes used here.
    switch (kinds.size()) {
      case 0: return text::check_command(cmd, diag_, {}, rules);
      case 1: return text::check_command(cmd, diag_, {text::kString}, rules);
      case 2: return text::check_command(cmd, diag_, {text::kString, text::kString}, rules);
      default:
        return text::check_command(cmd, diag_, {text::kString, text::kString, text::kString},
                                   rules);
    }
  }

  // A plain name parameter (no off-prefix allowed).
  bool plain_name(const Token& p, std::string_view what) {
    if (p.text.empty()) {
      diag_.error(p, "{} name is empty", what);
      return false;
    }
    if (!parse_modifier(p.text).on) {
      diag_.error(p, "'{}': a {} name cannot start with ~ ! or - (no modifier is allowed here)",
                  p.text, what);
      return false;
    }
    return true;
  }

  // Writes the header after the block is compiled: the length covers operands and block.
  bool close_conditional(const Token& cmd, std::vector<u32>& out, usize at, u32 header) {
    const usize length = out.size() - at - 1;
    if (length > kMaxCommandLength) {
      diag_.error(cmd,
                  "`{}` and its block take {} words; a command holds at most {} (move part of "
                  "the block into another handler and use Event())",
                  cmd.text, length, kMaxCommandLength);
      return false;
    }
    out[at] = header | (static_cast<u32>(length) << 8);
    return true;
  }

  void conditional_block(const Token& cmd, std::vector<u32>& out) {
    if (cmd.conditional != nullptr) sequence(cmd.conditional, out);
  }

  void transition(const Token& cmd, std::vector<u32>& out) {
    if (!strings(cmd, 1, true) || !plain_name(*cmd.params, "state")) return;
    u32 bits = kTransitionRunExit;
    for (const Token* p = cmd.params->next; p != nullptr; p = p->next) {
      const Modifier m = parse_modifier(p->text);
      if (!iequals(m.name, "state_exit")) {
        diag_.error(*p, "unknown `Transition` modifier '{}' (valid: state_exit)", p->text);
        return;
      }
      bits = m.on ? kTransitionRunExit : 0;
    }
    const std::string_view target = cmd.params->text;
    if (!scope_.has_parent && !scope_.state_names.contains(target)) {
      diag_.error(*cmd.params, "no state '{}' in this FSM (and it has no Parent)", target);
      return;
    }
    const Hash h = scope_.add_string(target, *cmd.params);
    out.push_back(make_header(Opcode::kTransition, 1, bits));
    out.push_back(h);
  }

  void name_command(const Token& cmd, Opcode op, std::vector<u32>& out, bool function) {
    if (!strings(cmd, 1, false)) return;
    const Token& p = *cmd.params;
    if (op != Opcode::kError && !plain_name(p, op == Opcode::kExecute ? "function" : "event")) {
      return;
    }
    if (op == Opcode::kEvent && p.text == event_) {
      diag_.warning(cmd, "`Event(\"{}\")` inside the handler of \"{}\" calls itself forever",
                    p.text, event_);
    }
    const Hash h = scope_.add_string(p.text, p);
    if (function) scope_.out->functions.push_back(h);
    out.push_back(make_header(op, 1));
    out.push_back(h);
  }

  void set_animation(const Token& cmd, std::vector<u32>& out) {
    if (!strings(cmd, 1, true) || !plain_name(*cmd.params, "animation")) return;
    u32 bits = kAnimDefault;
    for (const Token* p = cmd.params->next; p != nullptr; p = p->next) {
      const Modifier m = parse_modifier(p->text);
      u32 bit = 0;
      if (iequals(m.name, "blending")) {
        bit = kAnimBlend;
      } else if (iequals(m.name, "repeat")) {
        bit = kAnimRepeat;
      } else if (iequals(m.name, "reverse")) {
        bit = kAnimReverse;
      } else if (iequals(m.name, "keepframe")) {
        bit = kAnimKeepFrame;
      } else {
        diag_.error(*p,
                    "unknown `SetAnimation` modifier '{}' (valid: blending, repeat, reverse, "
                    "keepframe)",
                    p->text);
        return;
      }
      bits = m.on ? (bits | bit) : (bits & ~bit);
    }
    const Hash h = scope_.add_string(cmd.params->text, *cmd.params);
    out.push_back(make_header(Opcode::kSetAnimation, 1, bits));
    out.push_back(h);
  }

  // Masks of on/off names; later entries override earlier ones ("unified in order").
  struct Masks {
    u32 on = 0;
    u32 off = 0;
    bool ok = true;
  };
  void apply(Masks& m, u32 bit, bool on) {
    if (on) {
      m.on |= bit;
      m.off &= ~bit;
    } else {
      m.off |= bit;
      m.on &= ~bit;
    }
  }

  std::optional<u32> flag_bit(const Token& p, std::string_view name) {
    const std::vector<std::string>& declared = *flags_.declared;
    for (usize i = 0; i < declared.size(); ++i) {
      if (declared[i] == name) return 1u << i;
    }
    if (flags_.later != nullptr && flags_.later->contains(name)) {
      diag_.error(p, "flag '{}' is used before its Flags(...) declaration", name);
    } else {
      diag_.error(p, "unknown flag '{}' (declare it with Flags(\"{}\") in this state)", name, name);
    }
    return std::nullopt;
  }

  void emit_masks(std::vector<u32>& out, Opcode op, const Masks& m) {
    const u32 a = m.on != 0 ? 1 : 0;
    const u32 b = m.off != 0 ? 1 : 0;
    out.push_back(make_header(op, a + b, a, b));
    if (a != 0) out.push_back(m.on);
    if (b != 0) out.push_back(m.off);
  }

  void flags(const Token& cmd, Opcode op, std::vector<u32>& out) {
    const bool conditional = op == Opcode::kIfFlags;
    if (!strings(cmd, 1, true, conditional)) return;
    Masks m;
    for (const Token* p = cmd.params; p != nullptr; p = p->next) {
      const Modifier mod = parse_modifier(p->text);
      const std::optional<u32> bit = flag_bit(*p, mod.name);
      if (!bit) {
        m.ok = false;
        continue;
      }
      if (conditional && ((mod.on && (m.off & *bit) != 0) || (!mod.on && (m.on & *bit) != 0))) {
        diag_.warning(*p, "flag '{}' is required both set and clear: the block never runs",
                      mod.name);
      }
      if (conditional) {
        (mod.on ? m.on : m.off) |= *bit;  // every test must pass: keep both
      } else {
        apply(m, *bit, mod.on);
      }
    }
    if (!m.ok) return;
    if (!conditional) {
      if (m.on == 0 && m.off == 0) return;  // unreachable: at least one parameter
      emit_masks(out, op, m);
      return;
    }
    const usize at = out.size();
    emit_masks(out, op, m);
    const u32 header = out[at] & ~0xFF00u;
    conditional_block(cmd, out);
    close_conditional(cmd, out, at, header);
  }

  void change_behavior(const Token& cmd, std::vector<u32>& out) {
    if (!strings(cmd, 1, true)) return;
    Masks m;
    for (const Token* p = cmd.params; p != nullptr; p = p->next) {
      const Modifier mod = parse_modifier(p->text);
      const std::optional<u32> bit = scope_.behavior(mod.name, *p);
      if (!bit) {
        m.ok = false;
        continue;
      }
      apply(m, *bit, mod.on);
    }
    if (m.ok) emit_masks(out, Opcode::kChangeBehavior, m);
  }

  void create_link(const Token& cmd, std::vector<u32>& out) {
    if (!strings(cmd, 2, true) || !plain_name(*cmd.params, "link") ||
        !plain_name(*cmd.params->next, "function")) {
      return;
    }
    u32 bits = 0;
    for (const Token* p = cmd.params->next->next; p != nullptr; p = p->next) {
      const Modifier m = parse_modifier(p->text);
      u32 bit = 0;
      if (iequals(m.name, "oneway")) {
        bit = kLinkOneWay;
      } else if (iequals(m.name, "always")) {
        bit = kLinkAlways;
      } else {
        diag_.error(*p, "unknown `CreateLink` modifier '{}' (valid: oneway, always)", p->text);
        return;
      }
      bits = m.on ? (bits | bit) : (bits & ~bit);
    }
    const std::string_view name = cmd.params->text;
    const Hash link = scope_.add_string(name, *cmd.params);
    const Hash function = scope_.add_string(cmd.params->next->text, *cmd.params->next);
    const Hash link_event = scope_.add_string(std::string("link_").append(name), *cmd.params);
    const Hash unlink_event = scope_.add_string(std::string("unlink_").append(name), *cmd.params);
    scope_.out->functions.push_back(function);
    out.push_back(make_header(Opcode::kCreateLink, 4, bits));
    out.insert(out.end(), {link, function, link_event, unlink_event});
  }

  void break_link(const Token& cmd, std::vector<u32>& out) {
    if (!strings(cmd, 1, true)) return;
    std::vector<u32> hashes;
    for (const Token* p = cmd.params; p != nullptr; p = p->next) {
      if (!plain_name(*p, "link")) return;
      hashes.push_back(scope_.add_string(p->text, *p));
    }
    if (hashes.size() > kMaxCommandLength) {
      diag_.error(cmd, "`BreakLink` names more than {} links", kMaxCommandLength);
      return;
    }
    const u32 n = static_cast<u32>(hashes.size());
    out.push_back(make_header(Opcode::kBreakLink, n, n));
    out.insert(out.end(), hashes.begin(), hashes.end());
  }

  void if_link(const Token& cmd, std::vector<u32>& out) {
    if (!strings(cmd, 1, true, true)) return;
    std::vector<u32> present;
    std::vector<u32> absent;
    for (const Token* p = cmd.params; p != nullptr; p = p->next) {
      const Modifier m = parse_modifier(p->text);
      if (m.name.empty()) {
        diag_.error(*p, "link name is empty");
        return;
      }
      (m.on ? present : absent).push_back(scope_.add_string(m.name, *p));
    }
    if (present.size() + absent.size() > kMaxCommandLength) {
      diag_.error(cmd, "`IfLink` tests more than {} links", kMaxCommandLength);
      return;
    }
    const usize at = out.size();
    const u32 header = make_header(Opcode::kIfLink, 0, static_cast<u32>(present.size()),
                                   static_cast<u32>(absent.size()));
    out.push_back(header);
    out.insert(out.end(), present.begin(), present.end());
    out.insert(out.end(), absent.begin(), absent.end());
    conditional_block(cmd, out);
    close_conditional(cmd, out, at, header);
  }

  void if_random(const Token& cmd, std::vector<u32>& out) {
    if (cmd.params != nullptr && cmd.params->is_string()) {
      diag_.error(*cmd.params, "`IfRandom` takes an unquoted number from 0 to 1, not a string");
      return;
    }
    if (!text::check_command(cmd, diag_, {text::kNumber},
                             {.conditional = text::Conditional::kRequired})) {
      return;
    }
    const double p = cmd.params->number;
    if (!(p >= 0.0 && p <= 1.0)) {
      diag_.error(*cmd.params, "`IfRandom` probability {} is outside 0..1", cmd.params->text);
      return;
    }
    const usize at = out.size();
    const u32 header = make_header(Opcode::kIfRandom, 0);
    out.push_back(header);
    out.push_back(std::bit_cast<u32>(static_cast<float>(p)));
    conditional_block(cmd, out);
    close_conditional(cmd, out, at, header);
  }

  void send_event(const Token& cmd, std::vector<u32>& out) {
    if (!strings(cmd, 2, false) || !plain_name(*cmd.params, "link") ||
        !plain_name(*cmd.params->next, "event")) {
      return;
    }
    const Hash link = scope_.add_string(cmd.params->text, *cmd.params);
    const Hash event = scope_.add_string(cmd.params->next->text, *cmd.params->next);
    out.push_back(make_header(Opcode::kSendEvent, 2));
    out.push_back(link);
    out.push_back(event);
  }

  void custom(const CommandSpec& spec, const Token& cmd, std::vector<u32>& out) {
    const u32 fixed = static_cast<u32>(spec.params.size());
    const u32 count = cmd.param_count();
    const bool has_conditional = cmd.conditional != nullptr || cmd.block;
    bool good = true;
    if (count < fixed || (spec.modifiers.empty() && count > fixed)) {
      diag_.error(cmd, "`{}` expects {} parameter{}{}, got {}", spec.name, fixed,
                  fixed == 1 ? "" : "s", spec.modifiers.empty() ? "" : " and modifiers", count);
      return;
    }
    if (spec.has_block && !has_conditional) {
      diag_.error(cmd, "`{}` must be followed by a command or a {{ }} block", spec.name);
      good = false;
    } else if (!spec.has_block && has_conditional) {
      diag_.error(cmd, "`{}` does not take a conditional command or block", spec.name);
      good = false;
    }
    std::vector<u32> params;
    u32 index = 0;
    u32 modifiers = 0;
    for (const Token* p = cmd.params; p != nullptr; p = p->next, ++index) {
      if (index < fixed) {
        if (spec.params[index] == text::kNumber) {
          if (!p->is_number()) {
            diag_.error(*p, "`{}` expects a number as parameter {}", spec.name, index + 1);
            good = false;
            continue;
          }
          params.push_back(std::bit_cast<u32>(static_cast<float>(p->number)));
        } else {
          if (!p->is_string()) {
            diag_.error(*p, "`{}` expects a string as parameter {}", spec.name, index + 1);
            good = false;
            continue;
          }
          params.push_back(scope_.add_string(p->text, *p));
        }
        continue;
      }
      const Modifier m = parse_modifier(p->text);
      bool found = false;
      for (usize i = 0; i < spec.modifiers.size(); ++i) {
        if (p->is_string() && iequals(spec.modifiers[i], m.name)) {
          modifiers = m.on ? (modifiers | (1u << i)) : (modifiers & ~(1u << i));
          found = true;
        }
      }
      if (!found) {
        diag_.error(*p, "unknown `{}` modifier '{}'", spec.name, p->text);
        good = false;
      }
    }
    if (!good) return;
    const u32 b = fixed | (spec.has_block ? kCustomHasBlock : 0);
    const usize at = out.size();
    const u32 header = make_header(spec.opcode, 0, modifiers, b);
    out.push_back(header | (fixed << 8));
    out.insert(out.end(), params.begin(), params.end());
    if (spec.has_block) {
      conditional_block(cmd, out);
      close_conditional(cmd, out, at, header);
    }
  }

  FsmScope& scope_;
  text::Diagnostics& diag_;
  FlagScope flags_;
  std::string_view event_;
};

}  // namespace

std::vector<u32> compile_handler(FsmScope& scope, const FlagScope& flags, std::string_view event,
                                 const Token* first) {
  return HandlerCompiler(scope, flags, event).run(first);
}

}  // namespace keel::fsm::detail
