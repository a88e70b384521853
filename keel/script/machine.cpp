#include "keel/script/machine.h"

#include "keel/core/assert.h"
#include "keel/script/bytecode.h"
#include "keel/script/instance.h"

#include <algorithm>
#include <limits>
#include <utility>

namespace keel::script {

using detail::Frame;
using detail::GameOp;
using detail::Instance;
using detail::kChunkShift;
using detail::kChunkSize;
using detail::Wait;

std::string_view to_string(InstanceState state) {
  switch (state) {
    case InstanceState::kFree: return "free";
    case InstanceState::kRunning: return "running";
    case InstanceState::kWaiting: return "waiting";
    case InstanceState::kHalted: return "halted";
    case InstanceState::kFinished: return "finished";
    case InstanceState::kFailed: return "failed";
  }
  return "?";
}

Machine::Machine(const CommandSet& commands, MachineOptions options)
    : commands_(commands), options_(options) {
  KEEL_ASSERT(options_.command_budget > 0, "a command budget of 0 would run nothing");
  KEEL_ASSERT(options_.max_call_depth <= 255, "CALLSCRIPT depth is limited to 255");
  options_.max_call_depth = std::min<u32>(options_.max_call_depth, 255);
  for (const CommandDef& def : commands_.all()) {
    if (def.builtin != Builtin::kNone) continue;
    const usize index = def.opcode - kFirstGameOpcode;
    if (game_ops_.size() <= index) game_ops_.resize(index + 1);
    GameOp& op = game_ops_[index];
    op.def = &def;
    op.fixed = fixed_size(def);
    op.kinds = has_kinds_word(def);
    op.params_at = op.kinds ? 8 : 4;
    op.conditional = def.conditional != text::Conditional::kForbidden;
    if (const auto* f = def.handler.target<detail::HandlerFunction>()) op.function = *f;
    for (usize i = 0; i < def.params.size(); ++i) {
      const u32 bit = 1u << i;
      if (def.params[i].type == ParamType::kVariable) op.variable_mask |= bit;
      if (def.params[i].type == ParamType::kValue) op.value_mask |= bit;
      if (def.params[i].type == ParamType::kFloat) op.float_mask |= bit;
    }
  }
}

Machine::~Machine() = default;

Status Machine::add_library(const Library& library) {
  for (const Script& s : library.scripts()) {
    if (find_script(s.name_hash) != nullptr) {
      return fail(ErrorCode::kAlreadyExists, "script `{}` (0x{:08X}) is already loaded", s.name,
                  s.name_hash);
    }
  }
  libraries_.push_back(&library);
  for (const Script& s : library.scripts()) {
    scripts_.push_back({s.name_hash, &s, validate_stream(s.code, &commands_).has_value()});
  }
  std::sort(scripts_.begin(), scripts_.end(),
            [](const ScriptRef& a, const ScriptRef& b) { return a.hash < b.hash; });
  return ok();
}

const Machine::ScriptRef* Machine::find_ref(Hash name) const {
  auto it = std::lower_bound(scripts_.begin(), scripts_.end(), name,
                             [](const ScriptRef& r, Hash h) { return r.hash < h; });
  return it != scripts_.end() && it->hash == name ? &*it : nullptr;
}

const Script* Machine::find_script(Hash name) const {
  const ScriptRef* ref = find_ref(name);
  return ref != nullptr ? ref->script : nullptr;
}

std::optional<std::string_view> Machine::symbol(Hash hash) const {
  for (const Library* lib : libraries_) {
    if (auto text = lib->symbol(hash)) return text;
  }
  return std::nullopt;
}

// --- instances ---------------------------------------------------------------------------------

Instance& Machine::slot(u32 index) const {
  return chunks_[index >> kChunkShift][index & (kChunkSize - 1)];
}

Instance* Machine::get(InstanceId id) const {
  if (id.index >= used_) return nullptr;
  Instance& in = slot(id.index);
  if (in.state == InstanceState::kFree || in.generation != id.generation) return nullptr;
  return &in;
}

void Machine::grow() {
  const u32 depth = std::max<u32>(options_.max_call_depth, 1);
  auto instances = std::make_unique<Instance[]>(kChunkSize);
  // Default-initialised: the pages of unused call stacks are never touched.
  std::unique_ptr<Frame[]> frames(new Frame[usize{kChunkSize} * depth]);
  for (u32 i = 0; i < kChunkSize; ++i) {
    instances[i].index = capacity_ + i;
    instances[i].stack = frames.get() + usize{i} * depth;
  }
  chunks_.push_back(std::move(instances));
  stacks_.push_back(std::move(frames));
  capacity_ += kChunkSize;
  free_.reserve(capacity_);
}

void Machine::reserve(u32 instances) {
  while (capacity_ < instances) grow();
}

Result<InstanceId> Machine::start(Hash script, void* user) {
  const ScriptRef* ref = find_ref(script);
  if (ref == nullptr) {
    if (auto name = symbol(script)) {
      return fail(ErrorCode::kNotFound, "no script named \"{}\" is loaded", *name);
    }
    return fail(ErrorCode::kNotFound, "no script with hash 0x{:08X} is loaded", script);
  }
  u32 index;
  if (!free_.empty()) {
    index = free_.back();
    free_.pop_back();
  } else {
    if (used_ == capacity_) grow();
    index = used_++;
  }
  Instance& in = slot(index);
  in.script = ref->script;
  in.code = ref->script->code.data();
  in.size = static_cast<u32>(ref->script->code.size());
  in.trusted = ref->trusted;
  in.pc = 0;
  in.state = InstanceState::kRunning;
  in.wait = Wait::kNone;
  in.variables.clear();
  in.halted = false;
  in.depth = 0;
  in.born = frame_;  // during update() frame_ is the current frame: it first runs in the next
  in.user = user;
  in.last_line = 0;
  in.error.reset();
  ++live_;
  return InstanceId{index, in.generation};
}

bool Machine::release(InstanceId id) {
  Instance* in = get(id);
  if (in == nullptr) return false;
  in->state = InstanceState::kFree;
  in->halted = false;
  ++in->generation;
  in->error.reset();
  free_.push_back(in->index);
  --live_;
  return true;
}

void Machine::clear() {
  for (u32 i = 0; i < used_; ++i) {
    Instance& in = slot(i);
    if (in.state != InstanceState::kFree) release(InstanceId{i, in.generation});
  }
}

InstanceState Machine::state(InstanceId id) const {
  const Instance* in = get(id);
  if (in == nullptr) return InstanceState::kFree;
  if (in->halted) return InstanceState::kHalted;
  return in->state;
}

const Error* Machine::error(InstanceId id) const {
  const Instance* in = get(id);
  return in != nullptr ? in->error.get() : nullptr;
}

void* Machine::user(InstanceId id) const {
  const Instance* in = get(id);
  return in != nullptr ? in->user : nullptr;
}

// --- variables ---------------------------------------------------------------------------------

std::optional<s32> Machine::find_variable(InstanceId id, Hash name) const {
  const Instance* in = get(id);
  if (in == nullptr) return std::nullopt;
  if (const s32* v = in->variables.find(name)) return *v;
  return global(name);
}

bool Machine::set_variable(InstanceId id, Hash name, s32 value) {
  Instance* in = get(id);
  if (in == nullptr) return false;
  in->variables.get_or_insert(name) = value;
  return true;
}

std::vector<std::pair<Hash, s32>> Machine::variables(InstanceId id) const {
  std::vector<std::pair<Hash, s32>> out;
  const Instance* in = get(id);
  if (in == nullptr) return out;
  in->variables.for_each([&](const Variable& v) { out.emplace_back(v.name, v.value); });
  return out;
}

void Machine::set_global(Hash name, s32 value) { globals_.set(name, value); }

std::optional<s32> Machine::global(Hash name) const {
  if (const s32* g = globals_.find(name)) return *g;
  return std::nullopt;
}

// --- running -----------------------------------------------------------------------------------

void Machine::update(f64 dt) {
  KEEL_ASSERT(!updating_, "Machine::update called from inside a command handler");
  updating_ = true;
  ++frame_;
  stats_ = {};
  if (!debug_active()) {
    run_frame_fast();  // machine_fast.cpp
  } else {
    const u32 budget = options_.command_budget;
    const u32 count = used_;
    for (u32 base = 0; base < count; base += kChunkSize) {
      Instance* chunk = chunks_[base >> kChunkShift].get();
      const u32 n = std::min(kChunkSize, count - base);
      for (u32 i = 0; i < n; ++i) {
        Instance& in = chunk[i];
        if (!detail::due(in, frame_, time_)) continue;
        const u32 ran = run_instance<Mode::kDebug>(in, budget);
        stats_.commands += ran;
        stats_.instances_run += ran > 0 ? 1 : 0;
      }
    }
  }
  total_commands_ += stats_.commands;
  time_ += dt;
  updating_ = false;
}

void Machine::finish(Instance& in) {
  in.state = InstanceState::kFinished;
  in.depth = 0;
  if (trace_) emit(TraceKind::kFinished, in);
}

void Machine::fail_instance(Instance& in, ErrorCode code, std::string message) {
  in.state = InstanceState::kFailed;
  ++stats_.failures;
  SourceLocation where;
  const std::string script_name =
      in.script != nullptr && !in.script->name.empty()
          ? in.script->name
          : fmt::format("0x{:08X}", in.script != nullptr ? in.script->name_hash : 0);
  const LineEntry* line = in.script != nullptr ? in.script->line_at(in.pc) : nullptr;
  if (line != nullptr && line->offset == in.pc && !in.script->file.empty()) {
    where = SourceLocation::text(in.script->file, line->line, line->column);
  } else {
    where = SourceLocation::bytes(fmt::format("script \"{}\"", script_name), in.pc);
  }
  in.error = std::make_unique<Error>(code, std::move(message), std::move(where));
  if (trace_) emit(TraceKind::kFailed, in, in.error->message());
}

u32 Machine::line_of(const Instance& in) const {
  if (in.script == nullptr) return 0;
  const LineEntry* e = in.script->line_at(in.pc);
  return e != nullptr ? e->line : 0;
}

void Machine::emit(TraceKind kind, const Instance& in, std::string_view message, u32 length) {
  TraceEvent e;
  e.kind = kind;
  e.instance = InstanceId{in.index, in.generation};
  e.frame = frame_;
  e.script = in.script;
  e.offset = in.pc;
  e.line = line_of(in);
  e.depth = in.depth;
  if (length != 0) e.command = std::span<const std::byte>(in.code + in.pc, length);
  e.message = message;
  if (kind == TraceKind::kCommand) step_event_ = e;
  if (trace_) trace_(e);
}

bool Machine::breakpoint_at(Instance& in) const {
  if (breakpoints_.empty() || in.script == nullptr) return false;
  const LineEntry* e = in.script->line_at(in.pc);
  if (e == nullptr) return false;
  const u32 line = e->line;
  if (line == in.last_line) return false;  // already stopped at (or running) this line
  return std::any_of(breakpoints_.begin(), breakpoints_.end(), [&](const auto& bp) {
    return bp.first == in.script->name_hash && bp.second == line;
  });
}

namespace {

// Error reports live out of line so the interpreter loop stays small.
[[gnu::cold, gnu::noinline]] std::string bad_length(Opcode op, u32 length, u32 room) {
  return fmt::format(
      "command 0x{:04X} has length {} ({} bytes left; lengths are multiples of 4, "
      ">= 4)",
      op, length, room);
}
[[gnu::cold, gnu::noinline]] std::string too_short(std::string_view what, u32 length, u32 needed) {
  return fmt::format("{} has length {}, needs {}", what, length, needed);
}
[[gnu::cold, gnu::noinline]] std::string bad_if(const u8* b) {
  return fmt::format("IF has a bad layout (comparator {}, types {} {}, conditional at {})", b[4],
                     b[5], b[6], b[7]);
}

}  // namespace

namespace detail {
std::string command_failed(const CommandDef& def) { return fmt::format("`{}` failed", def.name); }
std::string call_too_deep(u32 max_depth) {
  return fmt::format("CALLSCRIPT nested deeper than {} scripts", max_depth);
}
}  // namespace detail

u32 Machine::fail_at_pc(Instance& in, u32 pc, u32 executed, ErrorCode code, std::string message) {
  in.pc = pc;
  fail_instance(in, code, std::move(message));
  return executed;
}

void Machine::fail_missing_script(Instance& in, Opcode op, Hash target) {
  const auto name = symbol(target);
  fail_instance(
      in, ErrorCode::kNotFound,
      name ? fmt::format("{}: no script named \"{}\" is loaded", builtin_mnemonic(op), *name)
           : fmt::format("{}: no script with hash 0x{:08X} is loaded", builtin_mnemonic(op),
                         target));
}

template <Machine::Mode kMode, bool kChecked>
u32 Machine::run(Instance& in, u32 budget, bool& switched) {
  constexpr bool kDebug = kMode != Mode::kFast;
  const detail::GameOp* const ops = game_ops_.data();
  const u32 op_count = static_cast<u32>(game_ops_.size());
  const std::byte* code = in.code;
  u32 size = in.size;
  u32 pc = in.pc;
  // Scripts validated when loaded run in the kChecked = false loop without per-command checks;
  // anything else (Library::add_script bytes) in the checked loop. Entering a script of the
  // other kind leaves with `switched` set, and the caller continues in the other loop.
  u32 executed = 0;
  for (;;) {
    if (pc >= size) [[unlikely]] {  // end of the script: return from CALLSCRIPT, or finish
      if (in.depth > 0) {
        detail::return_from_call(in);
        code = in.code;
        size = in.size;
        pc = in.pc;
        if (in.trusted == kChecked) [[unlikely]] {
          switched = true;
          return executed;
        }
        continue;
      }
      in.pc = pc;
      finish(in);
      return executed;
    }
    if (executed == budget) [[unlikely]] {
      in.pc = pc;
      if constexpr (kMode != Mode::kStep) {
        ++stats_.budget_hits;
        if (trace_) emit(TraceKind::kBudget, in);
      }
      in.last_line = 0;
      return executed;
    }
    const u32 room = size - pc;
    if (kChecked && room < kHeaderSize) [[unlikely]] {
      return fail_at_pc(in, pc, executed, ErrorCode::kCorrupt,
                        too_short("the last command header", room, kHeaderSize));
    }
    const std::byte* p = code + pc;
    const u32 header = read_u32(p);
    const auto op = static_cast<Opcode>(header & 0xFFFF);
    const u32 length = header >> 16;
    if (kChecked && (length < kHeaderSize || (length & 3) != 0 || length > room)) [[unlikely]] {
      return fail_at_pc(in, pc, executed, ErrorCode::kCorrupt, bad_length(op, length, room));
    }
    if constexpr (kDebug) {
      in.pc = pc;
      if constexpr (kMode == Mode::kDebug) {
        if (breakpoint_at(in)) {
          in.halted = true;
          in.last_line = line_of(in);
          emit(TraceKind::kBreakpoint, in, {}, length);
          return executed;
        }
      }
      in.last_line = line_of(in);
      emit(TraceKind::kCommand, in, {}, length);
    }
    ++executed;
    if (op >= kFirstGameOpcode) [[likely]] {
      const u32 index = static_cast<u32>(op) - kFirstGameOpcode;
      if (index >= op_count || ops[index].def == nullptr) [[unlikely]] {
        pc += length;  // unknown: skipped (newer scripts on an older runtime)
        continue;
      }
      const detail::GameOp& g = ops[index];
      if (kChecked && length < g.fixed) [[unlikely]] {
        return fail_at_pc(in, pc, executed, ErrorCode::kCorrupt,
                          too_short(g.def->name, length, g.fixed));
      }
      const std::optional<Outcome> result = call_game(in, g, p, pc);
      if (!result) [[unlikely]]
        return executed;
      const Outcome outcome = *result;
      if (outcome == Outcome::kNext) [[likely]] {
        pc += g.conditional ? g.fixed : length;  // into the conditional, if any
      } else if (outcome == Outcome::kFalse) {
        pc += length;
      } else if (outcome == Outcome::kYield) {
        in.pc = pc + length;
        in.last_line = 0;
        return executed;
      } else if (outcome == Outcome::kRetry) {
        in.last_line = 0;
        return executed;
      } else if (outcome == Outcome::kStop) {
        finish(in);
        return executed;
      } else {
        return fail_at_pc(in, pc, executed, ErrorCode::kRefused, detail::command_failed(*g.def));
      }
      continue;
    }
    switch (op) {
      case kOpBreak:
        in.pc = pc + length;
        in.last_line = 0;
        return executed;
      case kOpPauseInt:
      case kOpPauseVar: {
        if (kChecked && length < 8) [[unlikely]] {
          return fail_at_pc(in, pc, executed, ErrorCode::kCorrupt, too_short("PAUSE", length, 8));
        }
        const s32 frames = op == kOpPauseInt
                               ? read_s32(p + 4)
                               : read_variable(in.variables, globals_, read_u32(p + 4));
        pc += length;
        if (frames <= 0) break;
        pause_frames(in, pc, frames);
        return executed;
      }
      case kOpPauseSeconds:
      case kOpPauseSecondsVar: {
        if (kChecked && length < 8) [[unlikely]] {
          return fail_at_pc(in, pc, executed, ErrorCode::kCorrupt,
                            too_short("PAUSESECONDS", length, 8));
        }
        const f64 seconds =
            op == kOpPauseSeconds
                ? static_cast<f64>(read_f32(p + 4))
                : static_cast<f64>(read_variable(in.variables, globals_, read_u32(p + 4)));
        pc += length;
        if (!(seconds > 0.0)) break;  // also NaN
        pause_seconds(in, pc, seconds);
        return executed;
      }
      case kOpIf: {
        const auto* b = reinterpret_cast<const u8*>(p);
        if constexpr (kChecked) {
          if (length < kIfConditionalOffset) {
            return fail_at_pc(in, pc, executed, ErrorCode::kCorrupt,
                              too_short("IF", length, kIfConditionalOffset));
          }
          if (b[4] >= kComparatorCount || b[5] > kParamVar || b[6] > kParamVar ||
              b[7] < kIfConditionalOffset || (b[7] & 3) != 0 || b[7] > length) {
            return fail_at_pc(in, pc, executed, ErrorCode::kCorrupt, bad_if(b));
          }
        }
        if (if_holds(in, p)) {
          pc += b[7];  // into the conditional commands; they end where the IF ends
        } else {
          pc += length;
        }
        break;
      }
      case kOpChangeScript:
      case kOpCallScript: {
        if (kChecked && length < 8) [[unlikely]] {
          return fail_at_pc(in, pc, executed, ErrorCode::kCorrupt,
                            too_short(builtin_mnemonic(op), length, 8));
        }
        if (!enter_script(in, op, read_u32(p + 4), pc, length, executed)) return executed;
        code = in.code;
        size = in.size;
        pc = 0;
        if (in.trusted == kChecked) [[unlikely]] {
          switched = true;
          return executed;
        }
        break;
      }
      case kOpSetInt:
      case kOpSetVar:
      case kOpAddInt:
      case kOpAddVar: {
        if (kChecked && length < 12) [[unlikely]] {
          return fail_at_pc(in, pc, executed, ErrorCode::kCorrupt,
                            too_short(builtin_mnemonic(op), length, 12));
        }
        const u32 raw = read_u32(p + 8);
        const s32 value = op == kOpSetInt || op == kOpAddInt
                              ? static_cast<s32>(raw)
                              : read_variable(in.variables, globals_, raw);
        s32& target = variable_ref(in.variables, globals_, read_u32(p + 4));
        target = op <= kOpSetVar ? value : detail::saturating_add(target, value);
        pc += length;
        break;
      }
      default: pc += length; break;  // unknown: skipped (newer scripts on an older runtime)
    }
  }
}

template <Machine::Mode kMode>
u32 Machine::run_instance(Instance& in, u32 budget) {
  u32 ran = 0;
  for (;;) {
    bool switched = false;
    ran += in.trusted ? run<kMode, false>(in, budget - ran, switched)
                      : run<kMode, true>(in, budget - ran, switched);
    if (!switched) return ran;
  }
}

u32 Machine::run_instance_fast(Instance& in, u32 budget) {
  return run_instance<Mode::kFast>(in, budget);
}

// --- debugging ---------------------------------------------------------------------------------

void Machine::set_trace(TraceFn trace) { trace_ = std::move(trace); }

void Machine::add_breakpoint(Hash script, u32 line) {
  if (std::find(breakpoints_.begin(), breakpoints_.end(), std::pair{script, line}) ==
      breakpoints_.end()) {
    breakpoints_.emplace_back(script, line);
  }
}

bool Machine::remove_breakpoint(Hash script, u32 line) {
  auto it = std::find(breakpoints_.begin(), breakpoints_.end(), std::pair{script, line});
  if (it == breakpoints_.end()) return false;
  breakpoints_.erase(it);
  return true;
}

void Machine::clear_breakpoints() { breakpoints_.clear(); }

bool Machine::halt(InstanceId id) {
  Instance* in = get(id);
  if (in == nullptr ||
      (in->state != InstanceState::kRunning && in->state != InstanceState::kWaiting)) {
    return false;
  }
  in->halted = true;
  return true;
}

bool Machine::resume(InstanceId id) {
  Instance* in = get(id);
  if (in == nullptr || !in->halted) return false;
  in->halted = false;
  return true;
}

Result<TraceEvent> Machine::step(InstanceId id) {
  Instance* in = get(id);
  if (in == nullptr) return fail(ErrorCode::kNotFound, "no such script instance");
  if (!in->halted) return fail(ErrorCode::kInvalidArgument, "step() needs a halted instance");
  if (in->state != InstanceState::kRunning && in->state != InstanceState::kWaiting) {
    return fail(ErrorCode::kInvalidArgument, "the instance is {}", to_string(in->state));
  }
  in->state = InstanceState::kRunning;
  in->wait = Wait::kNone;
  in->halted = false;
  step_event_ = TraceEvent{};
  const u32 ran = run_instance<Mode::kStep>(*in, 1);
  stats_.commands += ran;
  total_commands_ += ran;
  const bool alive = in->generation == id.generation && in->state != InstanceState::kFree;
  if (alive && (in->state == InstanceState::kRunning || in->state == InstanceState::kWaiting)) {
    in->halted = true;
  }
  if (ran == 0) {
    TraceEvent e;
    e.kind =
        alive && in->state == InstanceState::kFailed ? TraceKind::kFailed : TraceKind::kFinished;
    e.instance = id;
    e.frame = frame_;
    return e;
  }
  TraceEvent e = step_event_;
  e.command = {};  // the bytes may belong to a script the instance has left
  return e;
}

std::optional<Machine::Position> Machine::position(InstanceId id) const {
  const Instance* in = get(id);
  if (in == nullptr) return std::nullopt;
  return Position{in->script, in->pc, line_of(*in), in->depth};
}

}  // namespace keel::script
