// The compiled script format (Golden Rules ch. 4, Tables 4.2-4.6). THE NUMBERS IN THIS FILE ARE
// FIXED FOREVER: compiled scripts on disk refer to them. Add new opcodes at the end of their
// range; never renumber, reorder or reuse one. The static_asserts below fail the build if a
// value moves.
//
// Byte order: every multi-byte field is LITTLE-ENDIAN on every platform (read_u16/read_u32 below
// convert on big-endian hosts). A command is
//
//   offset 0  u16 opcode
//   offset 2  u16 length   bytes of the whole command: header, parameters and any conditional
//                          commands; a multiple of 4, at least 4 (= offset of the next command)
//   offset 4  parameters   4 bytes each: s32 for integers, IEEE f32 for seconds, and the
//                          keel::string_hash of the text for names (variables) and strings
//
// IF (Table 4.6):
//   0 u16 kOpIf   2 u16 length   4 u8 comparator   5 u8 type of operand a   6 u8 type of operand b
//   7 u8 offset of the first conditional command (always 16)   8 a   12 b   16 conditional commands
//
// Game commands (opcode >= kFirstGameOpcode):
//   0 u16 opcode  2 u16 length  [4 u32 kinds: bit i set = parameter i is a variable; present only
//   when the command's signature has a kValue parameter]  then the parameters, then (for commands
//   that take a conditional) the conditional commands up to `length`.
#pragma once

#include "keel/core/types.h"

#include <bit>
#include <cstring>
#include <span>
#include <string_view>

namespace keel::script {

using Opcode = u16;

// Built-in opcodes (BREAK 1, PAUSE 2/3, PAUSESECONDS 4/5, IF 6, CHANGESCRIPT 7, CALLSCRIPT 8,
// SET 9/10, ADD 11/12: README.md) are defined, each once, in detail/builtins.h.
// Opcodes up to 0x00FF are reserved for built-ins; games number their own commands from here up
// (and, like the built-ins, never renumber them).
inline constexpr Opcode kFirstGameOpcode = 0x0100;

static_assert(kFirstGameOpcode == 0x100, "game opcodes start at 0x100 forever");

// IF comparators (byte 4 of an IF). Small values, not hashes, so the VM can switch on them.
enum class Comparator : u8 {
  kEqual = 0,
  kNotEqual = 1,
  kLess = 2,
  kLessEqual = 3,
  kGreater = 4,
  kGreaterEqual = 5,
};
inline constexpr u8 kComparatorCount = 6;
static_assert(static_cast<u8>(Comparator::kEqual) == 0 &&
                  static_cast<u8>(Comparator::kNotEqual) == 1 &&
                  static_cast<u8>(Comparator::kLess) == 2 &&
                  static_cast<u8>(Comparator::kLessEqual) == 3 &&
                  static_cast<u8>(Comparator::kGreater) == 4 &&
                  static_cast<u8>(Comparator::kGreaterEqual) == 5,
              "comparator numbers are part of the file format: never change them");

// IF operand types (bytes 5 and 6 of an IF).
inline constexpr u8 kParamInt = 0;  // a literal s32
inline constexpr u8 kParamVar = 1;  // the hash of a variable's name
static_assert(kParamInt == 0 && kParamVar == 1, "operand types are part of the file format");

// Fixed sizes.
inline constexpr u16 kHeaderSize = 4;
inline constexpr u16 kParamSize = 4;
inline constexpr u16 kIfConditionalOffset = 16;   // byte 7 of every IF this compiler writes
inline constexpr u16 kMaxCommandLength = 0xFFFC;  // largest multiple of 4 that fits the u16

// Mnemonic of a built-in opcode ("BREAK", "PAUSE", ...); empty for anything else.
std::string_view builtin_mnemonic(Opcode opcode);
// "==", "!=", "<", "<=", ">", ">="; "?" for an unknown value.
std::string_view comparator_symbol(u8 comparator);
// The canonical script spelling: "EQUALS", "NOTEQUAL", "LESSTHAN", ...
std::string_view comparator_name(u8 comparator);
// Looks a comparator up by any accepted spelling (case-insensitive); false if unknown.
bool parse_comparator(std::string_view name, Comparator& out);
// Every accepted spelling, for error messages.
std::string_view comparator_spellings();

// Branch-free: `a` below, equal to or above `b` picks one of three bits of the comparator's
// truth table. `comparator` must be a valid Comparator (< kComparatorCount).
inline bool compare(Comparator comparator, s32 a, s32 b) {
  //                          GE=110   GT=100   LE=011   LT=001   NE=101   EQ=010
  constexpr u32 kTruth = (6u << 15) | (4u << 12) | (3u << 9) | (1u << 6) | (5u << 3) | 2u;
  const u32 outcome = static_cast<u32>(a >= b) + static_cast<u32>(a > b);  // 0 <, 1 ==, 2 >
  return ((kTruth >> (3u * static_cast<u32>(comparator) + outcome)) & 1u) != 0;
}

// --- little-endian access -------------------------------------------------------------------

inline u16 read_u16(const std::byte* p) {
  u16 v;
  std::memcpy(&v, p, sizeof v);
  if constexpr (std::endian::native == std::endian::big) v = std::byteswap(v);
  return v;
}
inline u32 read_u32(const std::byte* p) {
  u32 v;
  std::memcpy(&v, p, sizeof v);
  if constexpr (std::endian::native == std::endian::big) v = std::byteswap(v);
  return v;
}
inline s32 read_s32(const std::byte* p) { return std::bit_cast<s32>(read_u32(p)); }
inline f32 read_f32(const std::byte* p) { return std::bit_cast<f32>(read_u32(p)); }

inline void write_u16(std::byte* p, u16 v) {
  if constexpr (std::endian::native == std::endian::big) v = std::byteswap(v);
  std::memcpy(p, &v, sizeof v);
}
inline void write_u32(std::byte* p, u32 v) {
  if constexpr (std::endian::native == std::endian::big) v = std::byteswap(v);
  std::memcpy(p, &v, sizeof v);
}

}  // namespace keel::script
