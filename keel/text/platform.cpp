#include "keel/text/platform.h"

namespace keel::text {

namespace {

struct Preprocessor {
  std::string_view platform;
  std::string_view command;
  Diagnostics& diag;
  bool ok = true;

  // 1 = keep, 0 = drop; reports malformed commands (which are dropped).
  bool keep(const Token& cmd) {
    if (cmd.params == nullptr) {
      diag.error(cmd, "`{}` needs at least one platform name", cmd.text);
      ok = false;
      return false;
    }
    bool any_include = false;
    bool any_exclude = false;
    bool listed = false;
    bool valid = true;
    for (const Token* p = cmd.params; p != nullptr; p = p->next) {
      if (!p->is_string()) {
        diag.error(*p, "`{}` expects platform names as strings, e.g. \"PC\" or \"-PC\"", cmd.text);
        valid = false;
        continue;
      }
      std::string_view name = p->text;
      const bool exclude = !name.empty() && (name[0] == '-' || name[0] == '!');
      if (exclude) name.remove_prefix(1);
      (exclude ? any_exclude : any_include) = true;
      Token probe;
      probe.text = name;
      if (probe.is(platform)) listed = true;
    }
    if (any_include && any_exclude) {
      diag.error(cmd, "`{}` mixes included and excluded platforms; use one form", cmd.text);
      valid = false;
    }
    if (cmd.conditional == nullptr && !cmd.block) {
      diag.error(cmd, "`{}` must be followed by a command or a {{ }} block", cmd.text);
      valid = false;
    }
    if (!valid) {
      ok = false;
      return false;
    }
    return any_include ? listed : !listed;
  }

  // Rewrites the chain starting at *slot.
  void chain(Token** slot) {
    while (*slot != nullptr) {
      Token* t = *slot;
      if (t->is_command() && t->is(command)) {
        Token* rest = t->next;
        if (keep(*t) && t->conditional != nullptr) {
          // splice the conditional chain in place of the PLATFORM command
          *slot = t->conditional;
          Token* last = t->conditional;
          while (last->next != nullptr) last = last->next;
          last->next = rest;
          continue;  // re-examine the spliced commands (they may be PLATFORM too)
        }
        *slot = rest;
        continue;
      }
      if (t->is_command() && t->conditional != nullptr) {
        chain(&t->conditional);
        // A spliced block, or a dropped conditional, leaves a block behind (possibly empty).
        if (t->conditional == nullptr || t->conditional->next != nullptr) t->block = true;
      }
      slot = &t->next;
    }
  }
};

}  // namespace

bool preprocess_platform(Document& document, std::string_view platform, Diagnostics& diagnostics,
                         std::string_view command) {
  Preprocessor p{platform, command, diagnostics};
  Token* first = document.first();
  p.chain(&first);
  document.set_first(first);
  return p.ok;
}

}  // namespace keel::text
