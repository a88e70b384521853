#include "keel/script/compiler.h"

#include "keel/core/assert.h"
#include "keel/script/bytecode.h"

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
    const usize errors_before = diag_.error_count();
    check(stmt, *commands_.find("SCRIPT"));
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
    if (def.conditional == text::Conditional::kForbidden && has_conditional) {
      const Token& at = cmd.conditional != nullptr ? *cmd.conditional : cmd;
      diag_.error(at, "`{}` does not take a conditional command or block; end it with `;`",
                  def.name);
      good = false;
    } else if (def.conditional == text::Conditional::kRequired && !has_conditional) {
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
      case Builtin::kBreak: header(kOpBreak, 4); break;
      case Builtin::kPause: {
        const Token& p = *cmd.param(0);
        if (p.is_number()) {
          const s32 frames = p.as_int();
          if (frames <= 0) diag_.warning(p, "PAUSE({}) does not wait", p.text);
          header(kOpPauseInt, 8);
          u32_(std::bit_cast<u32>(frames));
        } else {
          header(kOpPauseVar, 8);
          u32_(symbol(p));
        }
        break;
      }
      case Builtin::kPauseSeconds: {
        const Token& p = *cmd.param(0);
        if (p.is_number()) {
          if (p.number <= 0.0) diag_.warning(p, "PAUSESECONDS({}) does not wait", p.text);
          header(kOpPauseSeconds, 8);
          u32_(std::bit_cast<u32>(static_cast<f32>(p.number)));
        } else {
          header(kOpPauseSecondsVar, 8);
          u32_(symbol(p));
        }
        break;
      }
      case Builtin::kIf: compile_if(cmd); break;
      case Builtin::kChangeScript:
      case Builtin::kCallScript: {
        header(def->builtin == Builtin::kChangeScript ? kOpChangeScript : kOpCallScript, 8);
        const Token& target = *cmd.param(0);
        targets_.emplace_back(target.hash(), &target);
        u32_(symbol(target));
        break;
      }
      case Builtin::kSet:
      case Builtin::kAdd: {
        const Token& value = *cmd.param(1);
        const bool set = def->builtin == Builtin::kSet;
        header(value.is_name() ? (set ? kOpSetVar : kOpAddVar) : (set ? kOpSetInt : kOpAddInt), 12);
        u32_(symbol(*cmd.param(0)));
        operand(value);
        break;
      }
      case Builtin::kNone: compile_game(cmd, *def); break;
      case Builtin::kScript: break;  // handled above
    }
  }

  void compile_if(const Token& cmd) {
    Comparator comparator{};
    const Token& name = *cmd.param(1);
    if (!parse_comparator(name.text, comparator)) {
      diag_.error(name, "unknown comparator `{}`; use one of {}", name.text,
                  comparator_spellings());
      return;
    }
    const usize start = code_.size();
    header(kOpIf, 0);
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
