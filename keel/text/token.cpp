#include "keel/text/token.h"

#include "keel/core/hash.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace keel::text {

std::string_view to_string(TokenType type) {
  switch (type) {
    case TokenType::kName: return "name";
    case TokenType::kCommand: return "command";
    case TokenType::kString: return "string";
    case TokenType::kNumber: return "number";
  }
  return "token";
}

namespace {
char lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }
}  // namespace

bool Token::is(std::string_view name) const {
  if (name.size() != text.size()) return false;
  for (usize i = 0; i < name.size(); ++i) {
    if (lower(name[i]) != lower(text[i])) return false;
  }
  return true;
}

u32 Token::param_count() const {
  u32 n = 0;
  for (const Token* p = params; p != nullptr; p = p->next) ++n;
  return n;
}

const Token* Token::param(u32 index) const {
  const Token* p = params;
  while (p != nullptr && index > 0) {
    p = p->next;
    --index;
  }
  return p;
}

s32 Token::as_int() const {
  if (std::isnan(number)) return 0;
  const double t = std::trunc(number);
  if (t >= static_cast<double>(std::numeric_limits<s32>::max())) {
    return std::numeric_limits<s32>::max();
  }
  if (t <= static_cast<double>(std::numeric_limits<s32>::min())) {
    return std::numeric_limits<s32>::min();
  }
  return static_cast<s32>(t);
}

namespace {

void append_param(std::string& out, const Token& p) {
  if (p.is_string()) {
    const char quote = p.text.find('"') == std::string_view::npos ? '"' : '\'';
    out += quote;
    out += p.text;
    out += quote;
  } else {
    out += p.text;
  }
}

void append_statement(std::string& out, const Token& cmd, int indent, bool leading) {
  if (leading) out.append(static_cast<usize>(indent) * 2, ' ');
  out += cmd.text;
  if (!cmd.is_command()) {  // a detached parameter: just its text
    out += '\n';
    return;
  }
  out += '(';
  for (const Token* p = cmd.params; p != nullptr; p = p->next) {
    append_param(out, *p);
    if (p->next != nullptr) out += ", ";
  }
  out += ')';
  if (cmd.block) {
    out += " {\n";
    for (const Token* s = cmd.conditional; s != nullptr; s = s->next) {
      append_statement(out, *s, indent + 1, true);
    }
    out.append(static_cast<usize>(indent) * 2, ' ');
    out += "}\n";
  } else if (cmd.conditional != nullptr) {
    out += ' ';
    append_statement(out, *cmd.conditional, indent, false);
  } else {
    out += ";\n";
  }
}

}  // namespace

std::string to_source(const Token* first, int indent) {
  std::string out;
  for (const Token* s = first; s != nullptr; s = s->next) append_statement(out, *s, indent, true);
  return out;
}

namespace {
void hash_into(Hasher64& h, const Token& t) {
  const u8 head[2] = {static_cast<u8>(t.type), static_cast<u8>(t.block)};
  h.update(head, sizeof head);
  const u64 size = t.text.size();
  h.update(&size, sizeof size);
  h.update(t.text.data(), t.text.size());
  const u8 params = 0xA1;
  const u8 cond = 0xC2;
  const u8 end = 0xE3;
  for (const Token* p = t.params; p != nullptr; p = p->next) {
    h.update(&params, 1);
    hash_into(h, *p);
  }
  for (const Token* c = t.conditional; c != nullptr; c = c->next) {
    h.update(&cond, 1);
    hash_into(h, *c);
    if (!t.block) break;  // an unbraced conditional is a single command
  }
  h.update(&end, 1);
}
}  // namespace

u64 hash_tree(const Token& statement) {
  Hasher64 h;
  hash_into(h, statement);
  return h.digest();
}

}  // namespace keel::text
