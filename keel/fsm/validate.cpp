// Validation of a compiled FSM image (CompiledFsms::from_bytes). Every offset, count, string,
// sort order and command stream is checked, so readers of a validated image need no checks.
#include "keel/core/error.h"
#include "keel/core/hash.h"
#include "keel/fsm/compiled.h"
#include "keel/fsm/opcodes.h"

#include <bit>
#include <cmath>
#include <map>
#include <span>
#include <string>
#include <utility>

namespace keel::fsm {

namespace {

constexpr u32 kMaxBlockDepth = 64;

class Validator {
 public:
  Validator(std::span<const u32> w, std::string_view name) : w_(w), name_(name) {}

  Status run() {
    if (w_.size() < kHeaderWords) return bad(0, "file too short for the FSM header");
    if (w_[0] != kFileMagic) return bad(0, "not an FSM file (bad magic)");
    if (w_[1] != kFileVersion) {
      return fail_at(where(1), ErrorCode::kUnsupported, "FSM file version {} (this build reads {})",
                     w_[1], kFileVersion);
    }
    if (w_[2] != w_.size())
      return bad(2, "word count {} does not match the file ({})", w_[2], w_.size());
    if (w_[7] != 0) return bad(7, "reserved header word is not 0");
    const u32 count = w_[3];
    if (count == 0) return bad(3, "the file holds no FSM");
    if (!range(w_[4], count, 1)) return bad(4, "FSM table out of bounds");
    pool_ = w_[5];
    pool_size_ = w_[6];
    if (pool_size_ % 4 != 0 || !range(pool_, pool_size_ / 4, 1)) {
      return bad(5, "string pool out of bounds");
    }
    if (pool_size_ > 0 && pool_byte(pool_size_ - 1) != 0) {
      return bad(pool_ + pool_size_ / 4 - 1, "string pool does not end with a NUL");
    }
    std::map<Hash, u32> names;
    for (u32 i = 0; i < count; ++i) {
      const u32 at = w_[4] + i;
      const u32 rec = w_[at];
      if (!range(rec, kFsmRecordWords, 1)) return bad(at, "FSM record out of bounds");
      if (Status s = fsm(rec); !s) return s;
      if (!names.emplace(w_[rec], rec).second) return bad(rec, "two FSMs share a name");
    }
    return ok();
  }

 private:
  SourceLocation where(u64 word) const {
    return SourceLocation::bytes(std::string(name_), word * 4);
  }
  template <typename... Args>
  Unexpected bad(u64 word, fmt::format_string<Args...> format, Args&&... args) const {
    return fail_at(where(word), ErrorCode::kCorrupt, format, std::forward<Args>(args)...);
  }

  bool range(u64 offset, u64 count, u64 size) const {
    return offset <= w_.size() && count * size <= w_.size() - offset;
  }
  u8 pool_byte(u32 i) const { return static_cast<u8>(w_[pool_ + i / 4] >> (8 * (i % 4))); }

  // A string offset: inside the pool (which ends with NUL), and hashing to `hash` when given.
  Status string(u32 at, bool optional = false, const Hash* hash = nullptr) const {
    const u32 offset = w_[at];
    if (offset == kNoString) {
      if (optional) return ok();
      return bad(at, "missing string");
    }
    if (offset >= pool_size_) return bad(at, "string offset {} outside the pool", offset);
    if (hash != nullptr) {
      Hash h = 0;
      for (u32 i = offset; pool_byte(i) != 0; ++i) h = rotate_left(h, 7) + pool_byte(i);
      if (h != *hash) return bad(at, "string does not match its hash 0x{:08X}", *hash);
    }
    return ok();
  }

  // count sorted (hash, value) pairs or plain hashes at w_[table].
  Status sorted(u32 field, u32 table, u32 count, u32 stride) const {
    if (!range(table, count, stride)) return bad(field, "table out of bounds");
    for (u32 i = 1; i < count; ++i) {
      if (w_[table + stride * i] <= w_[table + stride * (i - 1)]) {
        return bad(table + stride * i, "table is not sorted or has a duplicate");
      }
    }
    return ok();
  }

  bool in_table(u32 table, u32 count, u32 stride, Hash h) const {
    u32 lo = 0;
    u32 hi = count;
    while (lo < hi) {
      const u32 mid = lo + (hi - lo) / 2;
      const u32 v = w_[table + stride * mid];
      if (v == h) return true;
      if (v < h) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return false;
  }

  Status fsm(u32 rec) {
    const Hash name = w_[rec + 0];
    const Hash type = w_[rec + 1];
    const Hash parent = w_[rec + 2];
    const Hash initial = w_[rec + 3];
    if (Status s = string(rec + 5, false, &name); !s) return s;
    if (Status s = string(rec + 6, false, &type); !s) return s;
    if (w_[rec + 7] == kNoString && parent != 0) return bad(rec + 2, "parent hash without a name");
    if (Status s = string(rec + 7, true, &parent); !s) return s;
    if (Status s = string(rec + 8, false, &initial); !s) return s;
    if (w_[rec + 17] != 0) return bad(rec + 17, "reserved word is not 0");

    fsm_ = rec;
    dict_ = w_[rec + 12];
    dict_count_ = w_[rec + 11];
    funcs_ = w_[rec + 14];
    func_count_ = w_[rec + 13];
    behavior_count_ = w_[rec + 15];
    if (Status s = sorted(rec + 12, dict_, dict_count_, 2); !s) return s;
    for (u32 i = 0; i < dict_count_; ++i) {
      const Hash h = w_[dict_ + 2 * i];
      if (Status s = string(dict_ + 2 * i + 1, false, &h); !s) return s;
    }
    if (Status s = sorted(rec + 14, funcs_, func_count_, 1); !s) return s;
    for (u32 i = 0; i < func_count_; ++i) {
      if (!in_table(dict_, dict_count_, 2, w_[funcs_ + i])) {
        return bad(funcs_ + i, "function hash missing from the dictionary");
      }
    }
    if (behavior_count_ > 32 || !range(w_[rec + 16], behavior_count_, 1)) {
      return bad(rec + 15, "behaviour name table out of bounds");
    }
    for (u32 i = 0; i < behavior_count_; ++i) {
      if (Status s = string(w_[rec + 16] + i); !s) return s;
    }

    const u32 states = w_[rec + 10];
    const u32 state_count = w_[rec + 9];
    if (Status s = sorted(rec + 10, states, state_count, 2); !s) return s;
    if (parent == 0 && w_[rec + 7] == kNoString && !in_table(states, state_count, 2, initial)) {
      return bad(rec + 3, "initial state is not a state of this FSM");
    }
    for (u32 i = 0; i < state_count; ++i) {
      const u32 at = states + 2 * i + 1;
      const u32 srec = w_[at];
      if (!range(srec, kStateRecordWords, 1)) return bad(at, "state record out of bounds");
      if (w_[srec] != w_[states + 2 * i]) return bad(srec, "state name does not match its table");
      if (Status s = state(srec); !s) return s;
    }
    return ok();
  }

  Status state(u32 rec) {
    const Hash name = w_[rec];
    if (Status s = string(rec + 2, false, &name); !s) return s;
    if (behavior_count_ < 32 && (w_[rec + 1] >> behavior_count_) != 0) {
      return bad(rec + 1, "behaviour bits beyond the type's {} behaviours", behavior_count_);
    }
    if (w_[rec + 3] > kStateOrphan) return bad(rec + 3, "unknown state options");
    flag_count_ = w_[rec + 4];
    if (flag_count_ > 32 || !range(w_[rec + 5], flag_count_, 1)) {
      return bad(rec + 4, "flag name table out of bounds");
    }
    for (u32 i = 0; i < flag_count_; ++i) {
      if (Status s = string(w_[rec + 5] + i); !s) return s;
    }
    const u32 events = w_[rec + 7];
    const u32 event_count = w_[rec + 6];
    if (Status s = sorted(rec + 7, events, event_count, 2); !s) return s;
    for (u32 i = 0; i < event_count; ++i) {
      const u32 at = events + 2 * i + 1;
      const u32 stream = w_[at];
      if (stream >= w_.size()) return bad(at, "handler offset out of bounds");
      // A stream shared by several handlers is checked once per (FSM, flag count).
      auto [it, fresh] = checked_.try_emplace(stream, std::pair{fsm_, flag_count_});
      if (!fresh && it->second == std::pair{fsm_, flag_count_}) continue;
      it->second = {fsm_, flag_count_};
      if (Status s = handler(stream); !s) return s;
    }
    return ok();
  }

  // A top-level handler: commands until End.
  Status handler(u32 pc) {
    for (;;) {
      if (pc >= w_.size()) return bad(pc, "handler runs past the end of the file");
      const u32 header = w_[pc];
      const u32 next = pc + 1 + header_length(header);
      if (next > w_.size()) return bad(pc, "command runs past the end of the file");
      if (Status s = command(pc, next, 0); !s) return s;
      if (header_opcode(header) == static_cast<u8>(Opcode::kEnd)) return ok();
      pc = next;
    }
  }

  // Commands exactly filling [pc, end).
  Status block(u32 pc, u32 end, u32 depth) {
    if (depth > kMaxBlockDepth) return bad(pc, "conditional blocks nested too deep");
    while (pc < end) {
      const u32 next = pc + 1 + header_length(w_[pc]);
      if (next > end) return bad(pc, "command runs past the end of its block");
      if (Status s = command(pc, next, depth); !s) return s;
      pc = next;
    }
    return ok();
  }

  bool mask_ok(u32 mask, u32 bits) const { return bits >= 32 || (mask >> bits) == 0; }

  // One command at pc; `next` = pc + 1 + length (checked to be in bounds).
  Status command(u32 pc, u32 next, u32 depth) {
    const u32 h = w_[pc];
    const u8 op = header_opcode(h);
    const u32 len = header_length(h);
    const u32 a = header_a(h);
    const u32 b = header_b(h);
    const u32 ops = pc + 1;
    auto shape = [&](bool good) -> Status {
      if (good) return ok();
      return bad(pc, "malformed {} command (header 0x{:08X})", opcode_name(op), h);
    };
    auto masks = [&](u32 bits) -> Status {
      u32 i = ops;
      if (a == 1 && !mask_ok(w_[i++], bits)) return bad(i - 1, "mask uses undeclared bits");
      if (b == 1 && !mask_ok(w_[i], bits)) return bad(i, "mask uses undeclared bits");
      return ok();
    };
    if (op >= kFirstCustomOpcode) {
      const u32 params = b & 0x7F;
      if ((b & kCustomHasBlock) == 0) return shape(len == params);
      if (Status s = shape(len >= params); !s) return s;
      return block(ops + params, next, depth + 1);
    }
    switch (static_cast<Opcode>(op)) {
      case Opcode::kEnd: return shape(len == 0 && a == 0 && b == 0);
      case Opcode::kTransition: return shape(len == 1 && a <= kTransitionRunExit && b == 0);
      case Opcode::kExecute:
        if (Status s = shape(len == 1 && a == 0 && b == 0); !s) return s;
        if (!in_table(funcs_, func_count_, 1, w_[ops])) {
          return bad(ops, "Execute calls a function missing from the function list");
        }
        return ok();
      case Opcode::kSetAnimation: return shape(len == 1 && a <= 0xF && b == 0);
      case Opcode::kSetFlag:
      case Opcode::kChangeBehavior: {
        if (Status s = shape(a <= 1 && b <= 1 && a + b >= 1 && len == a + b); !s) return s;
        return masks(op == static_cast<u8>(Opcode::kSetFlag) ? flag_count_ : behavior_count_);
      }
      case Opcode::kIfFlags: {
        if (Status s = shape(a <= 1 && b <= 1 && a + b >= 1 && len >= a + b); !s) return s;
        if (Status s = masks(flag_count_); !s) return s;
        return block(ops + a + b, next, depth + 1);
      }
      case Opcode::kError:
        if (Status s = shape(len == 1 && a == 0 && b == 0); !s) return s;
        if (!in_table(dict_, dict_count_, 2, w_[ops])) {
          return bad(ops, "Error message missing from the dictionary");
        }
        return ok();
      case Opcode::kEvent: return shape(len == 1 && a == 0 && b == 0);
      case Opcode::kCreateLink:
        if (Status s = shape(len == 4 && a <= (kLinkOneWay | kLinkAlways) && b == 0); !s) return s;
        if (!in_table(funcs_, func_count_, 1, w_[ops + 1])) {
          return bad(ops + 1, "CreateLink calls a function missing from the function list");
        }
        return ok();
      case Opcode::kAcceptLink: return shape(len == 0 && a == 0 && b == 0);
      case Opcode::kBreakLink: return shape(a >= 1 && len == a && b == 0);
      case Opcode::kIfLink:
        if (Status s = shape(a + b >= 1 && len >= a + b); !s) return s;
        return block(ops + a + b, next, depth + 1);
      case Opcode::kIfRandom: {
        if (Status s = shape(len >= 1 && a == 0 && b == 0); !s) return s;
        const float p = std::bit_cast<float>(w_[ops]);
        if (!(p >= 0.0f && p <= 1.0f)) return bad(ops, "IfRandom probability outside 0..1");
        return block(ops + 1, next, depth + 1);
      }
      case Opcode::kSendEvent: return shape(len == 2 && a == 0 && b == 0);
    }
    return bad(pc, "unknown command opcode {}", op);
  }

  std::span<const u32> w_;
  std::string_view name_;
  u32 pool_ = 0;
  u32 pool_size_ = 0;
  u32 fsm_ = 0;
  u32 dict_ = 0;
  u32 dict_count_ = 0;
  u32 funcs_ = 0;
  u32 func_count_ = 0;
  u32 behavior_count_ = 0;
  u32 flag_count_ = 0;
  std::map<u32, std::pair<u32, u32>> checked_;
};

}  // namespace

Status validate_image(std::span<const u32> words, std::string_view name) {
  return Validator(words, name).run();
}

}  // namespace keel::fsm
