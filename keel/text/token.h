// The token tree of the shared command-file language (Golden Rules ch. 4, PARSETOKEN).
//
// Every statement of a file is a COMMAND token; statements in the same block are chained by
// `next`. A command's parameters hang off `params` (chained by `next`), and the command that runs
// conditionally on it - or the first command of its `{}` block - hangs off `conditional`.
// `IF(a) X();` and `IF(a) { X(); }` therefore give the same shape; `block` tells them apart.
//
// Tokens live in their Document's arena and point into its source buffer: no per-token
// allocation and no copies of the text.
#pragma once

#include "keel/core/error.h"
#include "keel/core/hash.h"
#include "keel/core/types.h"

#include <iterator>
#include <string>
#include <string_view>

namespace keel::text {

enum class TokenType : u8 { kName, kCommand, kString, kNumber };

std::string_view to_string(TokenType type);  // "name", "command", "string", "number"

struct Token {
  Token* next = nullptr;         // next parameter, or next statement of the same block
  Token* params = nullptr;       // first parameter (commands only)
  Token* conditional = nullptr;  // conditional command or first command of the block
  std::string_view text;         // names/commands as written; strings without their quotes
  std::string_view file;         // the Document's file name
  double number = 0.0;           // value of a NUMBER token
  u32 line = 0;                  // 1-based
  u32 column = 0;                // 1-based, in bytes
  TokenType type = TokenType::kName;
  bool block = false;  // the conditional came from a `{}` block (possibly empty)

  bool is_command() const { return type == TokenType::kCommand; }
  bool is_name() const { return type == TokenType::kName; }
  bool is_string() const { return type == TokenType::kString; }
  bool is_number() const { return type == TokenType::kNumber; }

  // Case-insensitive comparison of the text (names and commands are case-insensitive).
  bool is(std::string_view name) const;
  // The book's HASH of the text (strings without quotes), case-sensitive as written.
  Hash hash() const { return string_hash(text); }

  u32 param_count() const;
  const Token* param(u32 index) const;  // nullptr past the end

  // A NUMBER as an integer, truncated toward zero and clamped to the s32 range.
  s32 as_int() const;

  SourceLocation location() const { return SourceLocation::text(std::string(file), line, column); }
};

// Range over a chain of tokens linked by `next`: `for (const Token& t : chain(doc.first()))`.
template <typename T>
class ChainRange {
 public:
  class iterator {
   public:
    using value_type = T;
    using difference_type = std::ptrdiff_t;
    using iterator_category = std::forward_iterator_tag;
    iterator() = default;
    explicit iterator(T* t) : t_(t) {}
    T& operator*() const { return *t_; }
    T* operator->() const { return t_; }
    iterator& operator++() {
      t_ = t_->next;
      return *this;
    }
    iterator operator++(int) {
      iterator old = *this;
      t_ = t_->next;
      return old;
    }
    bool operator==(const iterator&) const = default;

   private:
    T* t_ = nullptr;
  };
  explicit ChainRange(T* first) : first_(first) {}
  iterator begin() const { return iterator(first_); }
  iterator end() const { return iterator(nullptr); }

 private:
  T* first_;
};
inline ChainRange<const Token> chain(const Token* first) { return ChainRange<const Token>(first); }
inline ChainRange<Token> chain(Token* first) { return ChainRange<Token>(first); }

// Writes the tree back as source text (one statement per line, blocks indented). Parsing the
// result gives the same tree. Strings are quoted with whichever quote they do not contain.
std::string to_source(const Token* first, int indent = 0);

// A 64-bit content hash of a statement and everything below it (types, texts, shape; not the
// locations): equal for equivalent command subtrees, e.g. across edits that only move lines.
u64 hash_tree(const Token& statement);

}  // namespace keel::text
