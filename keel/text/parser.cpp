// Recursive-descent parser for the command-file language. It accepts exactly the language of
// the book's "previous token" state machine (ch. 4) - see README.md for the grammar - and adds
// error recovery: after a syntax error it skips to the end of the statement and goes on.
#include "keel/text/document.h"

#include <algorithm>
#include <charconv>
#include <string>

namespace keel::text {

namespace {

enum class Lex : u8 {
  kName,
  kString,
  kNumber,
  kOpen,    // (
  kClose,   // )
  kComma,   // ,
  kSemi,    // ;
  kLBrace,  // {
  kRBrace,  // }
  kEnd,
};

struct Lexeme {
  Lex kind = Lex::kEnd;
  std::string_view text;
  double number = 0.0;
  u32 line = 0;
  u32 column = 0;
};

std::string_view describe(const Lexeme& l) {
  switch (l.kind) {
    case Lex::kName: return "a name";
    case Lex::kString: return "a string";
    case Lex::kNumber: return "a number";
    case Lex::kOpen: return "'('";
    case Lex::kClose: return "')'";
    case Lex::kComma: return "','";
    case Lex::kSemi: return "';'";
    case Lex::kLBrace: return "'{'";
    case Lex::kRBrace: return "'}'";
    case Lex::kEnd: return "the end of the file";
  }
  return "a token";
}

bool name_start(char c) { return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool name_char(char c) { return name_start(c) || (c >= '0' && c <= '9'); }
bool digit(char c) { return c >= '0' && c <= '9'; }

class Parser {
 public:
  Parser(Document& doc, Diagnostics& diag, const ParseOptions& options)
      : doc_(doc),
        diag_(diag),
        max_errors_(std::max<usize>(options.max_errors, 1)),
        src_(doc.source()) {
    if (src_.size() >= 3 && src_.substr(0, 3) == "\xEF\xBB\xBF") pos_ = line_start_ = 3;  // BOM
    advance();
  }

  bool run() {
    Token* first = statements(false, nullptr);
    doc_.set_first(first);
    return errors_ == 0;
  }

 private:
  // ---- lexer -------------------------------------------------------------------------------
  u32 column_of(usize pos) const { return static_cast<u32>(pos - line_start_ + 1); }

  void lex_error(usize pos, std::string message) {
    error_at(line_, column_of(pos), std::move(message));
  }

  void error_at(u32 line, u32 column, std::string message) {
    ++errors_;
    if (errors_ <= max_errors_) {
      diag_.error(SourceLocation::text(doc_.filename(), line, column), std::move(message));
    }
  }
  void error_here(std::string message) { error_at(cur_.line, cur_.column, std::move(message)); }

  void advance() {
    for (;;) {
      if (pos_ >= src_.size()) {
        cur_ = Lexeme{Lex::kEnd, {}, 0.0, line_, column_of(pos_)};
        return;
      }
      const char c = src_[pos_];
      if (c == '\n') {
        ++pos_;
        ++line_;
        line_start_ = pos_;
        continue;
      }
      if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
        ++pos_;
        continue;
      }
      if (c == '/' && pos_ + 1 < src_.size() && src_[pos_ + 1] == '/') {
        while (pos_ < src_.size() && src_[pos_] != '\n') ++pos_;
        continue;
      }
      const usize start = pos_;
      cur_.line = line_;
      cur_.column = column_of(start);
      cur_.number = 0.0;
      if (name_start(c)) {
        while (pos_ < src_.size() && name_char(src_[pos_])) ++pos_;
        cur_.kind = Lex::kName;
        cur_.text = src_.substr(start, pos_ - start);
        return;
      }
      if (c == '"' || c == '\'') {
        if (lex_string(c, start)) return;
        continue;
      }
      if (digit(c) || c == '+' || c == '-') {
        if (lex_number(start)) return;
        continue;
      }
      ++pos_;
      cur_.text = src_.substr(start, 1);
      switch (c) {
        case '(': cur_.kind = Lex::kOpen; return;
        case ')': cur_.kind = Lex::kClose; return;
        case ',': cur_.kind = Lex::kComma; return;
        case ';': cur_.kind = Lex::kSemi; return;
        case '{': cur_.kind = Lex::kLBrace; return;
        case '}': cur_.kind = Lex::kRBrace; return;
        default: break;
      }
      const auto byte = static_cast<u8>(c);
      if (byte >= 0x20 && byte < 0x7F) {
        lex_error(start, fmt::format("unexpected character '{}'", c));
      } else {
        lex_error(start, fmt::format("unexpected byte 0x{:02X}", byte));
      }
    }
  }

  bool lex_string(char quote, usize start) {
    usize p = start + 1;
    while (p < src_.size() && src_[p] != quote && src_[p] != '\n') ++p;
    if (p >= src_.size() || src_[p] == '\n') {
      lex_error(start, fmt::format("string has no closing {} on its line", quote));
      pos_ = p;  // resume at the line break
      return false;
    }
    cur_.kind = Lex::kString;
    cur_.text = src_.substr(start + 1, p - start - 1);
    pos_ = p + 1;
    return true;
  }

  // [sign] digits [. digits] [(e|E) [sign] digits]; the book's table plus an exponent sign.
  bool lex_number(usize start) {
    usize p = start;
    if (src_[p] == '+' || src_[p] == '-') ++p;
    const usize digits_start = p;
    bool dot = false;
    bool exponent = false;
    bool bad = false;
    std::string_view why;
    while (p < src_.size()) {
      const char c = src_[p];
      if (digit(c)) {
        ++p;
      } else if (c == '.') {
        if (dot || exponent) {
          bad = true;
          why = exponent ? "a decimal point after the exponent" : "a second decimal point";
        }
        dot = true;
        ++p;
      } else if (c == 'e' || c == 'E') {
        if (exponent) {
          bad = true;
          why = "a second exponent";
        }
        exponent = true;
        ++p;
        if (p < src_.size() && (src_[p] == '+' || src_[p] == '-')) ++p;
        if (p >= src_.size() || !digit(src_[p])) {
          bad = true;
          if (why.empty()) why = "no digits after the exponent";
        }
      } else {
        break;
      }
    }
    pos_ = p;
    const std::string_view text = src_.substr(start, p - start);
    if (p == digits_start || !digit(src_[digits_start])) {
      lex_error(start, fmt::format("'{}' is not a number: a number needs a digit first", text));
      return false;
    }
    if (bad) {
      lex_error(start, fmt::format("'{}' is not a number: {}", text, why));
      return false;
    }
    const char* first = text.data();
    if (*first == '+') ++first;
    double value = 0.0;
    const auto [end, ec] = std::from_chars(first, text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size()) {
      lex_error(start, fmt::format("'{}' is out of range", text));
      return false;
    }
    cur_.kind = Lex::kNumber;
    cur_.text = text;
    cur_.number = value;
    return true;
  }

  // ---- parser ------------------------------------------------------------------------------
  bool stopped() const { return errors_ >= max_errors_; }

  // statements until '}' (in a block) or the end; returns the first.
  Token* statements(bool in_block, const Token* owner) {
    Token* first = nullptr;
    Token* last = nullptr;
    for (;;) {
      if (stopped()) return first;
      switch (cur_.kind) {
        case Lex::kEnd:
          if (in_block) {
            error_at(owner->line, owner->column,
                     fmt::format("the '{{' block of `{}` is never closed with '}}'", owner->text));
          }
          return first;
        case Lex::kRBrace:
          if (in_block) return first;
          error_here("'}' without a matching '{'");
          advance();
          continue;
        case Lex::kSemi:  // an empty statement, e.g. the ';' in "Texture(x) { ... };"
          advance();
          continue;
        default: break;
      }
      Token* s = statement();
      if (s == nullptr) {
        recover();
        continue;
      }
      if (last == nullptr) {
        first = s;
      } else {
        last->next = s;
      }
      last = s;
    }
  }

  // NAME ( params ) tail
  Token* statement() {
    if (cur_.kind == Lex::kLBrace) {
      error_here("a '{' block must follow a command, e.g. IF(a, equals, 1) { ... }");
      return nullptr;
    }
    if (cur_.kind != Lex::kName) {
      if (cur_.kind == Lex::kOpen) {
        error_here("'(' must follow a command name");
      } else {
        error_here(fmt::format("expected a command, got {}", describe(cur_)));
      }
      return nullptr;
    }
    Token* cmd = doc_.new_token(TokenType::kCommand, cur_.text, cur_.line, cur_.column);
    const Lexeme name = cur_;
    advance();
    if (cur_.kind != Lex::kOpen) {
      error_at(name.line, name.column,
               fmt::format("`{}` needs a parameter list: write {}(...);", name.text, name.text));
      return nullptr;
    }
    advance();
    if (!parameters(*cmd)) return nullptr;
    // after ')': ';', '{' or a conditional command
    switch (cur_.kind) {
      case Lex::kSemi: advance(); return cmd;
      case Lex::kLBrace: {
        advance();
        cmd->block = true;
        cmd->conditional = statements(true, cmd);
        if (cur_.kind != Lex::kRBrace) return nullptr;  // reported (end of file or too many)
        advance();
        return cmd;
      }
      case Lex::kName: {
        Token* cond = statement();
        if (cond == nullptr) return nullptr;
        cmd->conditional = cond;
        return cmd;
      }
      case Lex::kOpen: error_here("'(' must follow a command name"); return nullptr;
      case Lex::kEnd:
        error_at(cmd->line, cmd->column,
                 fmt::format("`{}(...)` is not finished: expected ';' before the end of the file",
                             cmd->text));
        return nullptr;
      default:
        error_here(fmt::format("expected ';', '{{' or a command after `{}(...)`, got {}", cmd->text,
                               describe(cur_)));
        return nullptr;
    }
  }

  bool parameters(Token& cmd) {
    Token* last = nullptr;
    if (cur_.kind == Lex::kClose) {
      advance();
      return true;
    }
    for (;;) {
      Token* p = nullptr;
      switch (cur_.kind) {
        case Lex::kName:
          p = doc_.new_token(TokenType::kName, cur_.text, cur_.line, cur_.column);
          break;
        case Lex::kString:
          p = doc_.new_token(TokenType::kString, cur_.text, cur_.line, cur_.column);
          break;
        case Lex::kNumber:
          p = doc_.new_token(TokenType::kNumber, cur_.text, cur_.line, cur_.column);
          p->number = cur_.number;
          break;
        case Lex::kComma: error_here("comma didn't have anything preceding it"); return false;
        case Lex::kClose:
          error_here(fmt::format("a parameter is missing after the last ',' of `{}`", cmd.text));
          return false;
        default:
          error_here(fmt::format("expected a parameter of `{}`, got {}", cmd.text, describe(cur_)));
          return false;
      }
      if (last == nullptr) {
        cmd.params = p;
      } else {
        last->next = p;
      }
      last = p;
      advance();
      switch (cur_.kind) {
        case Lex::kComma: advance(); continue;
        case Lex::kClose: advance(); return true;
        case Lex::kOpen:
          error_here(fmt::format("commands cannot appear in a parameter list (in `{}`)", cmd.text));
          return false;
        case Lex::kName:
        case Lex::kString:
        case Lex::kNumber:
          error_here(fmt::format("expected ',' or ')' after '{}' in `{}`, got {}", p->text,
                                 cmd.text, describe(cur_)));
          return false;
        default:
          error_here(fmt::format("expected ',' or ')' in the parameters of `{}`, got {}", cmd.text,
                                 describe(cur_)));
          return false;
      }
    }
  }

  // Skips the rest of a broken statement: up to and including its ';' or its whole '{}' block;
  // stops before a '}' that closes an enclosing block.
  void recover() {
    int depth = 0;
    for (;;) {
      switch (cur_.kind) {
        case Lex::kEnd: return;
        case Lex::kSemi:
          advance();
          if (depth == 0) return;
          break;
        case Lex::kLBrace:
          ++depth;
          advance();
          break;
        case Lex::kRBrace:
          if (depth == 0) return;
          --depth;
          advance();
          if (depth == 0) return;
          break;
        default: advance(); break;
      }
    }
  }

  Document& doc_;
  Diagnostics& diag_;
  usize max_errors_;  // ParseOptions::max_errors, at least 1: a bad file never parses clean
  std::string_view src_;
  usize pos_ = 0;
  u32 line_ = 1;
  usize line_start_ = 0;
  Lexeme cur_;
  usize errors_ = 0;
};

}  // namespace

std::unique_ptr<Document> parse(std::string source, std::string filename, Diagnostics& diagnostics,
                                const ParseOptions& options) {
  auto doc = std::make_unique<Document>(std::move(source), std::move(filename));
  Parser parser(*doc, diagnostics, options);
  if (!parser.run()) {
    diagnostics.keep_source(doc->filename(), std::string(doc->source()));
    return nullptr;
  }
  return doc;
}

}  // namespace keel::text
