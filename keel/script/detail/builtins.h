// THE built-in opcodes of the script language, each defined once, here: its number (fixed
// forever: compiled scripts refer to it), its script name, operand layout, validation rule and
// what it does. Everything else is generated from this file: the interpreter loop (both its
// checked and unchecked instantiations, with debugging on and off), the validator, the
// disassembler, the compiler's encoding, the CommandSet's built-in signatures and the mnemonics.
//
// To add a built-in command: add one `template <> struct BuiltinOp<N>` below (N from 0x000D up to
// kBuiltinSlots - 1; never renumber or reuse one) with its kInfo and run(), and describe it in
// README.md. Commands that share a script name (PAUSE with a literal or a variable) are one
// struct per operand layout: the compiler picks the one whose operands match what was written.
//
// run() gets the Machine's core `m`, the instance, the command's offset `pc`, its bytes `p` and
// its `length`, and returns:
//   next_at(offset)  go on with the command at that offset (usually pc + length)
//   kStop            the instance stops for this frame (run() stored in.pc, or failed/finished it)
//   kEntered         another script was entered (in.code, in.size and in.pc changed)
// run() may assume the layout was validated (length and check_layout).
#pragma once

#include "keel/core/hash.h"
#include "keel/core/types.h"
#include "keel/script/bytecode.h"

#include <array>
#include <limits>
#include <string_view>
#include <utility>

namespace keel::script::detail {

// One 4-byte operand of a built-in command.
enum class Operand : u8 {
  kInt,  // s32 literal (a NUMBER, truncated toward zero)
  kF32,  // f32 literal (a NUMBER)
  kVar,  // hash of a variable's name (a NAME)
  kStr,  // hash of a string (a STRING: script names)
};

enum class Layout : u8 {
  kFixed,  // header + operands, exactly
  kIf,     // Table 4.6: comparator, operand types, conditional offset, two operands, a block
};

struct BuiltinInfo {
  Opcode opcode = 0;
  std::string_view command;  // the script name (case-insensitive) and the mnemonic
  std::string_view alias;    // a second script name, or empty
  std::string_view help;     // usage line for messages and tools
  Layout layout = Layout::kFixed;
  u8 operand_count = 0;
  std::array<Operand, 2> operands{};
  // The compiler warns when this operand is a literal <= 0 ("PAUSE(0) does not wait").
  bool warn_not_positive = false;

  // Bytes before the conditional commands (the whole command for kFixed).
  constexpr u16 size() const {
    return layout == Layout::kIf ? kIfConditionalOffset
                                 : static_cast<u16>(kHeaderSize + kParamSize * operand_count);
  }
};

// What run() tells the interpreter loop.
enum class Flow : u8 { kNext, kStop, kEntered };
struct Step {
  Flow flow;
  u32 pc;  // kNext: where the next command is
};
constexpr Step next_at(u32 pc) { return {Flow::kNext, pc}; }
inline constexpr Step kStop{Flow::kStop, 0};
inline constexpr Step kEntered{Flow::kEntered, 0};

// Slots of the dispatch table: opcodes 1..kBuiltinSlots-1 may be built-ins.
inline constexpr u32 kBuiltinSlots = 16;

template <u32 kOpcode>
struct BuiltinOp {
  static constexpr bool kDefined = false;
};

// Validation of the bytes after the header, beyond the length; nullptr when fine. Only layouts
// with more structure than their length (IF) define check_layout.
template <class B>
const char* check_layout(const std::byte* p, u32 length) {
  if constexpr (requires { B::check_layout(p, length); }) {
    return B::check_layout(p, length);
  } else {
    (void)p;
    (void)length;
    return nullptr;
  }
}

// --- the built-ins ----------------------------------------------------------------------------
// Opcode 0 is never assigned (a zeroed buffer is not a valid command stream of BREAKs).

// BREAK(); stops for this frame and carries on with the next command in the next one.
template <>
struct BuiltinOp<0x0001> {
  static constexpr bool kDefined = true;
  static constexpr BuiltinInfo kInfo{0x0001, "BREAK", "", "BREAK();"};
  template <class M, class I>
  static Step run(M&, I& in, u32 pc, const std::byte*, u32 length) {
    in.pc = pc + length;
    in.last_line = 0;
    return kStop;
  }
};

// PAUSE(5); PAUSEFRAMES(5); waits that many frames (<= 0: no wait; 1 is BREAK).
template <>
struct BuiltinOp<0x0002> {
  static constexpr bool kDefined = true;
  static constexpr BuiltinInfo kInfo{0x0002,         "PAUSE", "PAUSEFRAMES",   "PAUSE(frames);",
                                     Layout::kFixed, 1,       {Operand::kInt}, true};
  template <class M, class I>
  static Step run(M& m, I& in, u32 pc, const std::byte* p, u32 length) {
    return m.pause_frames(in, pc + length, read_s32(p + 4));
  }
};

// PAUSE(frames); with a variable.
template <>
struct BuiltinOp<0x0003> {
  static constexpr bool kDefined = true;
  static constexpr BuiltinInfo kInfo{0x0003,         "PAUSE", "PAUSEFRAMES",  "PAUSE(frames);",
                                     Layout::kFixed, 1,       {Operand::kVar}};
  template <class M, class I>
  static Step run(M& m, I& in, u32 pc, const std::byte* p, u32 length) {
    return m.pause_frames(in, pc + length, m.read(in, read_u32(p + 4)));
  }
};

// PAUSESECONDS(0.5); waits that much game time (f32 seconds).
template <>
struct BuiltinOp<0x0004> {
  static constexpr bool kDefined = true;
  static constexpr BuiltinInfo kInfo{
      0x0004, "PAUSESECONDS",  "",  "PAUSESECONDS(seconds);", Layout::kFixed,
      1,      {Operand::kF32}, true};
  template <class M, class I>
  static Step run(M& m, I& in, u32 pc, const std::byte* p, u32 length) {
    return m.pause_seconds(in, pc + length, static_cast<f64>(read_f32(p + 4)));
  }
};

// PAUSESECONDS(delay); with a variable: whole seconds.
template <>
struct BuiltinOp<0x0005> {
  static constexpr bool kDefined = true;
  static constexpr BuiltinInfo kInfo{
      0x0005, "PAUSESECONDS", "", "PAUSESECONDS(seconds);", Layout::kFixed, 1, {Operand::kVar}};
  template <class M, class I>
  static Step run(M& m, I& in, u32 pc, const std::byte* p, u32 length) {
    return m.pause_seconds(in, pc + length, static_cast<f64>(m.read(in, read_u32(p + 4))));
  }
};

// IF(a, comparator, b) <conditional>: [op][len][comparator][type a][type b][16][a][b][block].
template <>
struct BuiltinOp<0x0006> {
  static constexpr bool kDefined = true;
  static constexpr BuiltinInfo kInfo{0x0006, "IF", "", "IF(a, comparator, b) command-or-block",
                                     Layout::kIf};
  static const char* check_layout(const std::byte* p, u32 length) {
    const auto b = [p](u32 i) { return static_cast<u32>(p[i]); };
    if (b(4) >= kComparatorCount) return "unknown comparator";
    if (b(5) > kParamVar || b(6) > kParamVar) return "unknown operand type";
    if (b(7) < kIfConditionalOffset || b(7) % 4 != 0 || b(7) > length) {
      return "conditional offset outside 16..length";
    }
    return nullptr;
  }
  template <class M, class I>
  static Step run(M& m, I& in, u32 pc, const std::byte* p, u32 length) {
    // True: into the conditional commands, which end where the IF ends.
    return next_at(pc + (m.if_holds(in, p) ? static_cast<u32>(p[7]) : length));
  }
};

// CHANGESCRIPT("name"); switches to another script for good (the call stack is dropped).
template <>
struct BuiltinOp<0x0007> {
  static constexpr bool kDefined = true;
  static constexpr BuiltinInfo kInfo{
      0x0007, "CHANGESCRIPT", "", "CHANGESCRIPT(\"name\");", Layout::kFixed, 1, {Operand::kStr}};
  template <class M, class I>
  static Step run(M& m, I& in, u32 pc, const std::byte* p, u32 length) {
    const Hash target = read_u32(p + 4);
    if (target == in.script->name_hash) {  // the usual loop: this script again
      in.depth = 0;
      return next_at(0);
    }
    return m.enter_script(in, kInfo.opcode, target, pc, length, false) ? kEntered : kStop;
  }
};

// CALLSCRIPT("name"); runs another script to its end, then goes on after the CALLSCRIPT.
template <>
struct BuiltinOp<0x0008> {
  static constexpr bool kDefined = true;
  static constexpr BuiltinInfo kInfo{
      0x0008, "CALLSCRIPT", "", "CALLSCRIPT(\"name\");", Layout::kFixed, 1, {Operand::kStr}};
  template <class M, class I>
  static Step run(M& m, I& in, u32 pc, const std::byte* p, u32 length) {
    return m.enter_script(in, kInfo.opcode, read_u32(p + 4), pc, length, true) ? kEntered : kStop;
  }
};

// Keel's additions (variables need a way to be written from a script): like PAUSE, one opcode
// per operand type. [u16 op][u16 12][u32 HASH(variable)][s32 value or u32 HASH(source)].

// SET(variable, 5);
template <>
struct BuiltinOp<0x0009> {
  static constexpr bool kDefined = true;
  static constexpr BuiltinInfo kInfo{0x0009,
                                     "SET",
                                     "",
                                     "SET(variable, value);",
                                     Layout::kFixed,
                                     2,
                                     {Operand::kVar, Operand::kInt}};
  template <class M, class I>
  static Step run(M& m, I& in, u32 pc, const std::byte* p, u32 length) {
    m.ref(in, read_u32(p + 4)) = read_s32(p + 8);
    return next_at(pc + length);
  }
};

// SET(variable, other);
template <>
struct BuiltinOp<0x000A> {
  static constexpr bool kDefined = true;
  static constexpr BuiltinInfo kInfo{0x000A,
                                     "SET",
                                     "",
                                     "SET(variable, value);",
                                     Layout::kFixed,
                                     2,
                                     {Operand::kVar, Operand::kVar}};
  template <class M, class I>
  static Step run(M& m, I& in, u32 pc, const std::byte* p, u32 length) {
    const s32 value = m.read(in, read_u32(p + 8));
    m.ref(in, read_u32(p + 4)) = value;
    return next_at(pc + length);
  }
};

// ADD: clamps at the s32 limits instead of wrapping.
inline s32 saturating_add(s32 a, s32 b) {
  s32 sum;
  if (__builtin_add_overflow(a, b, &sum)) [[unlikely]] {
    return b < 0 ? std::numeric_limits<s32>::min() : std::numeric_limits<s32>::max();
  }
  return sum;
}

// ADD(variable, -1); saturates at the s32 limits.
template <>
struct BuiltinOp<0x000B> {
  static constexpr bool kDefined = true;
  static constexpr BuiltinInfo kInfo{0x000B,
                                     "ADD",
                                     "",
                                     "ADD(variable, value);",
                                     Layout::kFixed,
                                     2,
                                     {Operand::kVar, Operand::kInt}};
  template <class M, class I>
  static Step run(M& m, I& in, u32 pc, const std::byte* p, u32 length) {
    s32& target = m.ref(in, read_u32(p + 4));
    target = saturating_add(target, read_s32(p + 8));
    return next_at(pc + length);
  }
};

// ADD(variable, other);
template <>
struct BuiltinOp<0x000C> {
  static constexpr bool kDefined = true;
  static constexpr BuiltinInfo kInfo{0x000C,
                                     "ADD",
                                     "",
                                     "ADD(variable, value);",
                                     Layout::kFixed,
                                     2,
                                     {Operand::kVar, Operand::kVar}};
  template <class M, class I>
  static Step run(M& m, I& in, u32 pc, const std::byte* p, u32 length) {
    const s32 value = m.read(in, read_u32(p + 8));
    s32& target = m.ref(in, read_u32(p + 4));
    target = saturating_add(target, value);
    return next_at(pc + length);
  }
};

// --- generated from the above ------------------------------------------------------------------

template <u32 kOp>
constexpr BuiltinInfo info_of() {
  if constexpr (BuiltinOp<kOp>::kDefined) {
    static_assert(BuiltinOp<kOp>::kInfo.opcode == kOp, "kInfo.opcode must be the struct's number");
    return BuiltinOp<kOp>::kInfo;
  } else {
    return {};
  }
}

template <u32... kOps>
constexpr auto make_builtin_table(std::integer_sequence<u32, kOps...>) {
  return std::array<BuiltinInfo, kBuiltinSlots>{info_of<kOps>()...};
}

// kBuiltins[opcode] for opcodes below kBuiltinSlots; .opcode == 0 where none is defined.
inline constexpr std::array<BuiltinInfo, kBuiltinSlots> kBuiltins =
    make_builtin_table(std::make_integer_sequence<u32, kBuiltinSlots>{});

template <u32... kOps>
constexpr bool no_builtin_beyond_slots(std::integer_sequence<u32, kOps...>) {
  return (!BuiltinOp<kBuiltinSlots + kOps>::kDefined && ...);
}
static_assert(no_builtin_beyond_slots(std::make_integer_sequence<u32, 0x100 - kBuiltinSlots>{}),
              "a built-in opcode beyond the dispatch table: raise kBuiltinSlots");

// The entry of a built-in opcode, or nullptr.
constexpr const BuiltinInfo* builtin_info(Opcode opcode) {
  return opcode < kBuiltinSlots && kBuiltins[opcode].opcode != 0 ? &kBuiltins[opcode] : nullptr;
}

// The layout check of a built-in opcode (nullptr when fine or not a built-in).
template <u32... kOps>
const char* check_builtin_layout(Opcode opcode, const std::byte* p, u32 length,
                                 std::integer_sequence<u32, kOps...>) {
  const char* problem = nullptr;
  (void)((opcode == kOps && BuiltinOp<kOps>::kDefined
              ? (problem = check_layout<BuiltinOp<kOps>>(p, length), true)
              : false) ||
         ...);
  return problem;
}
inline const char* check_builtin_layout(Opcode opcode, const std::byte* p, u32 length) {
  return check_builtin_layout(opcode, p, length, std::make_integer_sequence<u32, kBuiltinSlots>{});
}

// Offset of the conditional commands inside a built-in (0: none).
inline u32 builtin_block(const BuiltinInfo& info, const std::byte* p) {
  return info.layout == Layout::kIf ? static_cast<u32>(p[7]) : 0;
}

}  // namespace keel::script::detail
