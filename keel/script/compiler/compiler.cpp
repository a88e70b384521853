#include "keel/script/compiler/compiler.h"

#include "keel/core/assert.h"
#include "keel/script/bytecode.h"
#include "keel/script/detail/builtins.h"
#include "keel/text/signature.h"

#include <algorithm>
#include <bit>
#include <string>
#include <utility>
#include <vector>

namespace keel::script {

namespace {

using text::Token;

text::ParamKinds kind_of(const Token& t) {
  switch (t.type) {
    case text::TokenType::kName: return text::kName;
    case text::TokenType::kString: return text::kString;
    case text::TokenType::kNumber: return text::kNumber;
    case text::TokenType::kCommand: return 0;
  }
  return 0;
}

// Which token types a script may write for a parameter type.
text::ParamKinds token_kinds(ParamType type) {
  switch (type) {
    case ParamType::kInt:
    case ParamType::kFloat: return text::kNumber;
    case ParamType::kString: return text::kString;
    case ParamType::kName:
    case ParamType::kVariable: return text::kName;
    case ParamType::kValue: return text::kNumber | text::kName;
  }
  return 0;
}

// Whether a token can be a built-in's operand of this kind.
bool fits(detail::Operand operand, const Token& t) {
  switch (operand) {
    case detail::Operand::kInt:
    case detail::Operand::kF32: return t.is_number();
    case detail::Operand::kVar: return t.is_name();
    case detail::Operand::kStr: return t.type == text::TokenType::kString;
  }
  return false;
}

std::string count_text(usize n) { return fmt::format("{} parameter{}", n, n == 1 ? "" : "s"); }

class Compiler {
 public:
  Compiler(const CommandSet& commands, text::Diagnostics& diagnostics,
           const CompileOptions& options)
      : commands_(commands), diag_(diagnostics), options_(options) {}

  void statement(const Token& stmt) {
    if (stmt.is("SCRIPT")) {
      script(stmt);
      return;
    }
    if (options_.skip_other_statements) return;
    if (const CommandDef* def = commands_.find(stmt.text)) {
      diag_.error(stmt, "`{}` is outside any SCRIPT(\"name\") {{ }} block", def->name);
    } else {
      diag_.error(stmt,
                  "`{}` is not a script statement (a script file holds SCRIPT(\"name\") {{ }} "
                  "blocks; other statements are allowed only when the caller skips them)",
                  stmt.text);
    }
  }

  void warn_unknown_targets() {
    for (const auto& [hash, token] : targets_) {
      if (library_.find(hash) == nullptr) {
        diag_.warning(*token,
                      "no script named \"{}\" in this file (it must be loaded from another "
                      "library at run time)",
                      token->text);
      }
    }
  }

  Library take() { return std::move(library_); }

 private:
  void script(const Token& stmt) {
    const CommandDef* script_def = commands_.find("SCRIPT");
    if (script_def == nullptr || script_def->builtin != Builtin::kScript) {
      diag_.error(stmt,
                  "`SCRIPT` is unknown: the command set has no built-in commands (start from "
                  "script::default_commands() and add the game's commands to it)");
      return;
    }
    const usize errors_before = diag_.error_count();
    check(stmt, *script_def);
    if (diag_.error_count() != errors_before) return;
    if (!stmt.block) {
      diag_.error(*stmt.conditional, "SCRIPT(\"{}\") must be followed by a {{ }} block",
                  stmt.param(0)->text);
      return;
    }
    const Token& name = *stmt.param(0);
    const Hash hash = name.hash();
    for (const auto& [h, token] : defined_) {
      if (h != hash) continue;
      if (token->text == name.text) {
        diag_.error(name, "script \"{}\" is defined twice (first at {}:{})", name.text, token->file,
                    token->line);
      } else {
        diag_.error(name,
                    "script names \"{}\" and \"{}\" (at {}:{}) have the same hash 0x{:08X}; "
                    "rename one",
                    name.text, token->text, token->file, token->line, hash);
      }
      return;
    }
    defined_.emplace_back(hash, &name);
    current_ = &name;
    code_.clear();
    lines_.clear();
    block(stmt.conditional);
    Script s;
    s.name_hash = hash;
    s.name = std::string(name.text);
    s.code = std::move(code_);
    if (options_.debug_info) {
      s.file = std::string(stmt.file);
      s.lines = std::move(lines_);
    }
    code_ = {};
    lines_ = {};
    const Status added = library_.add_script(std::move(s));
    KEEL_ASSERT(added.has_value(), "script hashes are checked above");
    current_ = nullptr;
  }

  void block(const Token* first) {
    for (const Token& cmd : text::chain(first)) command(cmd);
  }

  // Parameter count, types and conditional against the command's signature.
  bool check(const Token& cmd, const CommandDef& def) {
    bool good = true;
    const usize listed = def.params.size();
    const usize required = static_cast<usize>(
        std::count_if(def.params.begin(), def.params.end(),
                      [](const ParamSpec& p) { return !p.default_value.has_value(); }));
    const u32 count = cmd.param_count();
    if (count < required || count > listed) {
      const std::string expected = required == listed
                                       ? count_text(listed)
                                       : fmt::format("{} to {} parameters", required, listed);
      diag_.error(cmd, "`{}` expects {}, got {}{}", def.name, expected, count,
                  def.help.empty() ? "" : fmt::format(" (usage: {})", def.help));
      good = false;
    }
    usize index = 0;
    for (const Token* p = cmd.params; p != nullptr && index < listed; p = p->next, ++index) {
      const text::ParamKinds allowed = token_kinds(def.params[index].type);
      if ((kind_of(*p) & allowed) == 0) {
        diag_.error(*p, "`{}` expects {} as parameter {}, got {}", def.name,
                    text::describe(allowed), index + 1, text::describe(kind_of(*p)));
        good = false;
      }
    }
    const bool has_conditional = cmd.conditional != nullptr || cmd.block;
    if (def.conditional == Conditional::kForbidden && has_conditional) {
      const Token& at = cmd.conditional != nullptr ? *cmd.conditional : cmd;
      diag_.error(at, "`{}` does not take a conditional command or block; end it with `;`",
                  def.name);
      good = false;
    } else if (def.conditional == Conditional::kRequired && !has_conditional) {
      diag_.error(cmd, "`{}` must be followed by a command or a {{ }} block", def.name);
      good = false;
    }
    return good;
  }

  void command(const Token& cmd) {
    if (cmd.is("SCRIPT")) {
      diag_.error(cmd, "SCRIPT cannot be inside another script (\"{}\" starts at line {})",
                  current_->text, current_->line);
      return;
    }
    const CommandDef* def = commands_.find(cmd.text);
    if (def == nullptr) {
      const std::string_view guess = commands_.suggest(cmd.text);
      diag_.error(cmd, "unknown command `{}`{}", cmd.text,
                  guess.empty() ? std::string() : fmt::format("; did you mean `{}`?", guess));
      return;
    }
    if (!check(cmd, *def)) return;
    const usize start = code_.size();
    if (options_.debug_info) {
      lines_.push_back({static_cast<u32>(start), cmd.line, cmd.column});
      if (options_.source != nullptr) {
        library_.add_source_line(cmd.file, cmd.line, options_.source->line_text(cmd.line));
      }
    }
    switch (def->builtin) {
      case Builtin::kCommand: compile_builtin(cmd, *def); break;
      case Builtin::kNone: compile_game(cmd, *def); break;
      case Builtin::kScript: break;  // handled above
    }
  }

  // A command of the language: the opcode (detail/builtins.h) of that name whose operands fit
  // what was written, encoded from its operand layout.
  void compile_builtin(const Token& cmd, const CommandDef& def) {
    const detail::BuiltinInfo* named = detail::builtin_info(def.opcode);
    if (named == nullptr) {
      diag_.error(cmd, "`{}` is not a built-in command of this runtime", def.name);
      return;
    }
    if (named->layout == detail::Layout::kIf) {
      compile_if(cmd, named->opcode);
      return;
    }
    for (const detail::BuiltinInfo& info : detail::kBuiltins) {
      if (info.opcode == 0 || info.command != named->command) continue;
      bool all = true;
      for (u32 i = 0; i < info.operand_count && all; ++i) {
        const Token* p = cmd.param(i);
        all = p != nullptr && fits(info.operands[i], *p);
      }
      if (!all) continue;
      header(info.opcode, info.size());
      for (u32 i = 0; i < info.operand_count; ++i) builtin_operand(info, i, *cmd.param(i));
      return;
    }
    diag_.error(cmd, "`{}` has no form that takes these parameters (usage: {})", def.name,
                def.help);
  }

  void builtin_operand(const detail::BuiltinInfo& info, u32 index, const Token& p) {
    switch (info.operands[index]) {
      case detail::Operand::kInt:
        if (info.warn_not_positive && p.as_int() <= 0) {
          diag_.warning(p, "{}({}) does not wait", info.command, p.text);
        }
        u32_(std::bit_cast<u32>(p.as_int()));
        break;
      case detail::Operand::kF32:
        if (info.warn_not_positive && p.number <= 0.0) {
          diag_.warning(p, "{}({}) does not wait", info.command, p.text);
        }
        u32_(std::bit_cast<u32>(static_cast<f32>(p.number)));
        break;
      case detail::Operand::kStr:  // a script name
        targets_.emplace_back(p.hash(), &p);
        u32_(symbol(p));
        break;
      case detail::Operand::kVar: u32_(symbol(p)); break;
    }
  }

  void compile_if(const Token& cmd, Opcode opcode) {
    Comparator comparator{};
    const Token& name = *cmd.param(1);
    if (!parse_comparator(name.text, comparator)) {
      diag_.error(name, "unknown comparator `{}`; use one of {}", name.text,
                  comparator_spellings());
      return;
    }
    const usize start = code_.size();
    header(opcode, 0);
    const Token& a = *cmd.param(0);
    const Token& b = *cmd.param(2);
    code_.push_back(static_cast<std::byte>(comparator));
    code_.push_back(static_cast<std::byte>(a.is_name() ? kParamVar : kParamInt));
    code_.push_back(static_cast<std::byte>(b.is_name() ? kParamVar : kParamInt));
    code_.push_back(static_cast<std::byte>(kIfConditionalOffset));
    operand(a);
    operand(b);
    block(cmd.conditional);
    patch_length(cmd, start);
  }

  void compile_game(const Token& cmd, const CommandDef& def) {
    const usize start = code_.size();
    header(def.opcode, 0);
    usize kinds_at = 0;
    u32 kinds = 0;
    if (has_kinds_word(def)) {
      kinds_at = code_.size();
      u32_(0);
    }
    for (usize i = 0; i < def.params.size(); ++i) {
      const Token* p = cmd.param(static_cast<u32>(i));
      const ParamSpec& spec = def.params[i];
      const f64 number = p != nullptr ? p->number : spec.default_value.value_or(0.0);
      switch (spec.type) {
        case ParamType::kInt:
          u32_(std::bit_cast<u32>(p != nullptr ? p->as_int() : trunc(number)));
          break;
        case ParamType::kFloat: u32_(std::bit_cast<u32>(static_cast<f32>(number))); break;
        case ParamType::kString:
        case ParamType::kName:
        case ParamType::kVariable: u32_(symbol(*p)); break;
        case ParamType::kValue:
          if (p != nullptr && p->is_name()) {
            kinds |= 1u << i;
            u32_(symbol(*p));
          } else {
            u32_(std::bit_cast<u32>(p != nullptr ? p->as_int() : trunc(number)));
          }
          break;
      }
    }
    if (kinds_at != 0) write_u32(code_.data() + kinds_at, kinds);
    if (cmd.conditional != nullptr) block(cmd.conditional);
    patch_length(cmd, start);
  }

  static s32 trunc(f64 v) {
    if (!(v == v)) return 0;
    if (v >= 2147483647.0) return 2147483647;
    if (v <= -2147483648.0) return -2147483647 - 1;
    return static_cast<s32>(v);
  }

  void operand(const Token& t) {
    if (t.is_name()) {
      u32_(symbol(t));
    } else {
      u32_(std::bit_cast<u32>(t.as_int()));
    }
  }

  void patch_length(const Token& cmd, usize start) {
    const usize length = code_.size() - start;
    if (length > kMaxCommandLength) {
      diag_.error(cmd,
                  "`{}` and its block compile to {} bytes; the limit is {} (split the block "
                  "into scripts and use CALLSCRIPT)",
                  cmd.text, length, kMaxCommandLength);
      return;
    }
    write_u16(code_.data() + start + 2, static_cast<u16>(length));
  }

  Hash symbol(const Token& t) {
    library_.add_symbol(t.text);
    return t.hash();
  }

  void header(Opcode op, u16 length) {
    const usize at = code_.size();
    code_.resize(at + 4);
    write_u16(code_.data() + at, op);
    write_u16(code_.data() + at + 2, length);
  }

  void u32_(u32 v) {
    const usize at = code_.size();
    code_.resize(at + 4);
    write_u32(code_.data() + at, v);
  }

  const CommandSet& commands_;
  text::Diagnostics& diag_;
  const CompileOptions& options_;
  Library library_;
  std::vector<std::byte> code_;
  std::vector<LineEntry> lines_;
  const Token* current_ = nullptr;
  std::vector<std::pair<Hash, const Token*>> defined_;
  std::vector<std::pair<Hash, const Token*>> targets_;
};

}  // namespace

std::optional<Library> compile(const text::Token* first, const CommandSet& commands,
                               text::Diagnostics& diagnostics, const CompileOptions& options) {
  const usize errors_before = diagnostics.error_count();
  Compiler compiler(commands, diagnostics, options);
  for (const text::Token& stmt : text::chain(first)) compiler.statement(stmt);
  if (options.warn_unknown_targets) compiler.warn_unknown_targets();
  if (diagnostics.error_count() != errors_before) return std::nullopt;
  return compiler.take();
}

std::optional<Library> compile_one(const text::Token& script_statement, const CommandSet& commands,
                                   text::Diagnostics& diagnostics, const CompileOptions& options) {
  if (!script_statement.is("SCRIPT")) {
    diagnostics.error(script_statement, "expected a SCRIPT(\"name\") {{ }} statement, got `{}`",
                      script_statement.text);
    return std::nullopt;
  }
  const usize errors_before = diagnostics.error_count();
  Compiler compiler(commands, diagnostics, options);
  compiler.statement(script_statement);
  if (diagnostics.error_count() != errors_before) return std::nullopt;
  return compiler.take();
}

}  // namespace keel::script
