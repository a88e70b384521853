// The compiled command stream of an FSM event handler (Golden Rules ch. 7, Tables 7.1-7.3).
// THE NUMBERS IN THIS FILE ARE FIXED: compiled FSM files refer to them. Add at the end, never
// renumber or reuse.
//
// A handler is a stream of 32-bit little-endian words, read 4 bytes at a time on 4-byte
// alignment. Every command starts with a header word:
//
//   bits  0-7   opcode
//   bits  8-15  length: operand words after the header (for conditionals: operands + block)
//   bits 16-23  "a": usually the number of words recording things turned on, or modifier bits
//   bits 24-31  "b": usually the number of words recording things turned off
//
// Conditional commands (IfFlags, IfLink, IfRandom) count their dependent block in `length`, so a
// false condition skips exactly 1 + length words. Every handler ends with End.
#pragma once

#include "keel/core/types.h"

#include <optional>
#include <string_view>

namespace keel::fsm {

enum class Opcode : u8 {
  kEnd = 0,             // 0 / 0; no operands
  kTransition = 1,      // a bit0 = run "state_exit"; hash(state)
  kExecute = 2,         // hash(function)
  kSetAnimation = 3,    // a = effective AnimFlag bits; hash(alias)
  kSetFlag = 4,         // a = 1 if a set mask follows, b = 1 if a clear mask follows
  kIfFlags = 5,         // like SetFlag, then the block
  kError = 6,           // hash(message); the text is in the FSM's dictionary
  kEvent = 7,           // hash(event)
  kChangeBehavior = 8,  // a/b as SetFlag: on mask, off mask
  kCreateLink = 9,      // a = LinkFlag bits; hash(link), hash(function), hash("link_<name>"),
                        // hash("unlink_<name>")
  kAcceptLink = 10,     // no operands
  kBreakLink = 11,      // a = count; hash(link) x count
  kIfLink = 12,         // a = present count, b = absent count; hashes, then the block
  kIfRandom = 13,       // IEEE-754 float probability, then the block
  kSendEvent = 14,      // hash(link), hash(event)
};
inline constexpr u32 kBuiltinCommandCount = 15;

// Opcodes from here up are commands a FSM type adds (TypeRegistry). Their header: a = modifier
// bits, b bits 0-6 = number of parameter words, b bit 7 = a block follows the parameters.
inline constexpr u8 kFirstCustomOpcode = 32;
inline constexpr u8 kCustomHasBlock = 0x80;

static_assert(static_cast<u8>(Opcode::kSendEvent) == 14);

// SetAnimation modifier bits (byte 2 holds the EFFECTIVE flags, defaults included).
inline constexpr u8 kAnimBlend = 0x1;      // "blending", default on
inline constexpr u8 kAnimRepeat = 0x2;     // "repeat", default on
inline constexpr u8 kAnimReverse = 0x4;    // "reverse", default off
inline constexpr u8 kAnimKeepFrame = 0x8;  // "keepframe", default off
inline constexpr u8 kAnimDefault = kAnimBlend | kAnimRepeat;

// CreateLink modifier bits.
inline constexpr u8 kLinkOneWay = 0x1;  // "oneway": only the creator may send
inline constexpr u8 kLinkAlways = 0x2;  // "always": non-consensual, no handshake

// Transition modifier bits.
inline constexpr u8 kTransitionRunExit = 0x1;  // "state_exit", default on

// Longest operand run of one command (the length byte).
inline constexpr u32 kMaxCommandLength = 255;

constexpr u32 make_header(Opcode op, u32 length, u32 a = 0, u32 b = 0) {
  return static_cast<u32>(op) | (length << 8) | (a << 16) | (b << 24);
}
constexpr u32 make_header(u8 op, u32 length, u32 a = 0, u32 b = 0) {
  return static_cast<u32>(op) | (length << 8) | (a << 16) | (b << 24);
}
constexpr u8 header_opcode(u32 word) { return static_cast<u8>(word & 0xFF); }
constexpr u32 header_length(u32 word) { return (word >> 8) & 0xFF; }
constexpr u32 header_a(u32 word) { return (word >> 16) & 0xFF; }
constexpr u32 header_b(u32 word) { return word >> 24; }

// Whether the command at `header` has a conditional block, and how many operand words come
// before the block (the block runs to 1 + header_length).
constexpr bool has_block(u32 header) {
  const u8 op = header_opcode(header);
  if (op >= kFirstCustomOpcode) return (header_b(header) & kCustomHasBlock) != 0;
  return op == static_cast<u8>(Opcode::kIfFlags) || op == static_cast<u8>(Opcode::kIfLink) ||
         op == static_cast<u8>(Opcode::kIfRandom);
}
constexpr u32 block_operands(u32 header) {
  const u8 op = header_opcode(header);
  if (op >= kFirstCustomOpcode) return header_b(header) & 0x7F;
  if (op == static_cast<u8>(Opcode::kIfRandom)) return 1;
  return header_a(header) + header_b(header);
}

// The built-in command called `name` (case-insensitive).
std::optional<Opcode> builtin_opcode(std::string_view name);

// "SetFlag", "IfLink", ...; "custom" for opcodes >= kFirstCustomOpcode, "?" otherwise.
std::string_view opcode_name(u8 opcode);

}  // namespace keel::fsm
