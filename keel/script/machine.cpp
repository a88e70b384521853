#include "keel/script/machine.h"

#include "keel/core/assert.h"
#include "keel/script/bytecode.h"
#include "keel/script/instance.h"

#include <algorithm>
#include <utility>

namespace keel::script {

using detail::Frame;
using detail::GameOp;
using detail::Instance;
using detail::Var;
using detail::Wait;

namespace {
constexpr u32 kChunkShift = 10;
constexpr u32 kChunkSize = 1u << kChunkShift;
constexpr f64 kTimeEpsilon = 1e-9;  // PAUSESECONDS(0.5) at 1/60 s resumes after 30 frames
}  // namespace

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
  for (const CommandDef& def : commands_.all()) {
    if (def.builtin != Builtin::kNone) continue;
    const usize index = def.opcode - kFirstGameOpcode;
    if (game_ops_.size() <= index) game_ops_.resize(index + 1);
    GameOp& op = game_ops_[index];
    op.def = &def;
    op.fixed = fixed_size(def);
    op.kinds = has_kinds_word(def);
    op.params_at = op.kinds ? 8 : 4;
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
  for (const Script& s : library.scripts()) scripts_.push_back({s.name_hash, &s});
  std::sort(scripts_.begin(), scripts_.end(),
            [](const ScriptRef& a, const ScriptRef& b) { return a.hash < b.hash; });
  return ok();
}

const Script* Machine::find_script(Hash name) const {
  auto it = std::lower_bound(scripts_.begin(), scripts_.end(), name,
                             [](const ScriptRef& r, Hash h) { return r.hash < h; });
  return it != scripts_.end() && it->hash == name ? it->script : nullptr;
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
  const Script* s = find_script(script);
  if (s == nullptr) {
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
  in.script = s;
  in.code = s->code.data();
  in.size = static_cast<u32>(s->code.size());
  in.pc = 0;
  in.state = InstanceState::kRunning;
  in.wait = Wait::kNone;
  in.var_count = 0;
  in.halted = false;
  in.depth = 0;
  in.born = frame_;  // during update() frame_ is the current frame: it first runs in the next
  in.user = user;
  in.last_line = 0;
  in.more_vars.clear();
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

s32* Machine::find_var(Instance& in, Hash name) const {
  for (u32 i = 0; i < in.var_count; ++i) {
    if (in.vars[i].name == name) return &in.vars[i].value;
  }
  for (Var& v : in.more_vars) {
    if (v.name == name) return &v.value;
  }
  return nullptr;
}

s32 Machine::read_var(const Instance& in, Hash name) const {
  if (const s32* v = find_var(const_cast<Instance&>(in), name)) return *v;
  if (auto g = global(name)) return *g;
  return 0;
}

void Machine::write_var(Instance& in, Hash name, s32 value) {
  if (s32* v = find_var(in, name)) {
    *v = value;
    return;
  }
  auto it = std::lower_bound(globals_.begin(), globals_.end(), name,
                             [](const auto& e, Hash h) { return e.first < h; });
  if (it != globals_.end() && it->first == name) {
    it->second = value;
    return;
  }
  if (in.var_count < detail::kInlineVars) {
    in.vars[in.var_count++] = Var{name, value};
  } else {
    in.more_vars.push_back(Var{name, value});
  }
}

std::optional<s32> Machine::find_variable(InstanceId id, Hash name) const {
  Instance* in = get(id);
  if (in == nullptr) return std::nullopt;
  if (const s32* v = find_var(*in, name)) return *v;
  return global(name);
}

bool Machine::set_variable(InstanceId id, Hash name, s32 value) {
  Instance* in = get(id);
  if (in == nullptr) return false;
  if (s32* v = find_var(*in, name)) {
    *v = value;
  } else if (in->var_count < detail::kInlineVars) {
    in->vars[in->var_count++] = Var{name, value};
  } else {
    in->more_vars.push_back(Var{name, value});
  }
  return true;
}

std::vector<std::pair<Hash, s32>> Machine::variables(InstanceId id) const {
  std::vector<std::pair<Hash, s32>> out;
  const Instance* in = get(id);
  if (in == nullptr) return out;
  for (u32 i = 0; i < in->var_count; ++i) out.emplace_back(in->vars[i].name, in->vars[i].value);
  for (const Var& v : in->more_vars) out.emplace_back(v.name, v.value);
  return out;
}

void Machine::set_global(Hash name, s32 value) {
  auto it = std::lower_bound(globals_.begin(), globals_.end(), name,
                             [](const auto& e, Hash h) { return e.first < h; });
  if (it != globals_.end() && it->first == name) {
    it->second = value;
  } else {
    globals_.insert(it, {name, value});
  }
}

std::optional<s32> Machine::global(Hash name) const {
  auto it = std::lower_bound(globals_.begin(), globals_.end(), name,
                             [](const auto& e, Hash h) { return e.first < h; });
  if (it != globals_.end() && it->first == name) return it->second;
  return std::nullopt;
}

// --- running -----------------------------------------------------------------------------------

void Machine::update(f64 dt) {
  KEEL_ASSERT(!updating_, "Machine::update called from inside a command handler");
  updating_ = true;
  ++frame_;
  stats_ = {};
  const bool debug = debug_active();
  const u32 budget = options_.command_budget;
  const u32 count = used_;
  for (u32 base = 0; base < count; base += kChunkSize) {
    Instance* chunk = chunks_[base >> kChunkShift].get();
    const u32 n = std::min(kChunkSize, count - base);
    for (u32 i = 0; i < n; ++i) {
      Instance& in = chunk[i];
      if (in.state == InstanceState::kWaiting) {
        if (in.wait == Wait::kFrames ? frame_ < in.resume_frame
                                     : time_ + kTimeEpsilon < in.resume_time) {
          continue;
        }
        in.state = InstanceState::kRunning;
        in.wait = Wait::kNone;
      } else if (in.state != InstanceState::kRunning) {
        continue;
      }
      if (in.halted || in.born == frame_) continue;
      const u32 ran = debug ? run<Mode::kDebug>(in, budget) : run<Mode::kFast>(in, budget);
      stats_.commands += ran;
      stats_.instances_run += ran > 0 ? 1 : 0;
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

template <Machine::Mode kMode>
u32 Machine::run(Instance& in, u32 budget) {
  constexpr bool kDebug = kMode != Mode::kFast;
  u32 executed = 0;
  for (;;) {
    if (in.pc >= in.size) {  // end of the script: return from CALLSCRIPT, or finish
      if (in.depth > 0) {
        const Frame& back = in.stack[--in.depth];
        in.script = back.script;
        in.code = back.script->code.data();
        in.size = static_cast<u32>(back.script->code.size());
        in.pc = back.pc;
        continue;
      }
      finish(in);
      return executed;
    }
    if (executed == budget) {
      if constexpr (kMode != Mode::kStep) {
        ++stats_.budget_hits;
        if (trace_) emit(TraceKind::kBudget, in);
      }
      in.last_line = 0;
      return executed;
    }
    const std::byte* p = in.code + in.pc;
    const u32 room = in.size - in.pc;
    if (room < kHeaderSize) {
      fail_instance(in, ErrorCode::kCorrupt,
                    fmt::format("command header cut off ({} bytes left)", room));
      return executed;
    }
    const u32 header = read_u32(p);
    const Opcode op = static_cast<Opcode>(header & 0xFFFF);
    const u32 length = header >> 16;
    if (length < kHeaderSize || (length & 3) != 0 || length > room) [[unlikely]] {
      fail_instance(
          in, ErrorCode::kCorrupt,
          fmt::format("command 0x{:04X} has length {} ({} bytes left; lengths are multiples of 4, "
                      ">= 4)",
                      op, length, room));
      return executed;
    }
    if constexpr (kDebug) {
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
    switch (op) {
      case kOpBreak:
        in.pc += length;
        in.last_line = 0;
        return executed;
      case kOpPauseInt:
      case kOpPauseVar: {
        if (length < 8) [[unlikely]] {
          fail_instance(in, ErrorCode::kCorrupt,
                        fmt::format("PAUSE has length {}, needs 8", length));
          return executed;
        }
        const s32 frames = op == kOpPauseInt ? read_s32(p + 4) : read_var(in, read_u32(p + 4));
        in.pc += length;
        if (frames <= 0) break;
        in.last_line = 0;
        if (frames > 1) {
          in.state = InstanceState::kWaiting;
          in.wait = Wait::kFrames;
          in.resume_frame = frame_ + static_cast<u64>(frames);
        }
        return executed;
      }
      case kOpPauseSeconds:
      case kOpPauseSecondsVar: {
        if (length < 8) [[unlikely]] {
          fail_instance(in, ErrorCode::kCorrupt,
                        fmt::format("PAUSESECONDS has length {}, needs 8", length));
          return executed;
        }
        const f64 seconds = op == kOpPauseSeconds ? static_cast<f64>(read_f32(p + 4))
                                                  : static_cast<f64>(read_var(in, read_u32(p + 4)));
        in.pc += length;
        if (!(seconds > 0.0)) break;  // also NaN
        in.state = InstanceState::kWaiting;
        in.wait = Wait::kSeconds;
        in.resume_time = time_ + seconds;
        in.last_line = 0;
        return executed;
      }
      case kOpIf: {
        if (length < kIfConditionalOffset) [[unlikely]] {
          fail_instance(in, ErrorCode::kCorrupt, fmt::format("IF has length {}, needs 16", length));
          return executed;
        }
        const auto* b = reinterpret_cast<const u8*>(p);
        const u32 conditional = b[7];
        if (b[4] >= kComparatorCount || b[5] > kParamVar || b[6] > kParamVar ||
            conditional < kIfConditionalOffset || (conditional & 3) != 0 || conditional > length)
            [[unlikely]] {
          fail_instance(
              in, ErrorCode::kCorrupt,
              fmt::format("IF has a bad layout (comparator {}, types {} {}, conditional at {})",
                          b[4], b[5], b[6], conditional));
          return executed;
        }
        const u32 raw_a = read_u32(p + 8);
        const u32 raw_b = read_u32(p + 12);
        const s32 a = b[5] == kParamVar ? read_var(in, raw_a) : static_cast<s32>(raw_a);
        const s32 c = b[6] == kParamVar ? read_var(in, raw_b) : static_cast<s32>(raw_b);
        in.pc += compare(static_cast<Comparator>(b[4]), a, c) ? conditional : length;
        break;
      }
      case kOpChangeScript:
      case kOpCallScript: {
        if (length < 8) [[unlikely]] {
          fail_instance(in, ErrorCode::kCorrupt,
                        fmt::format("{} has length {}, needs 8", builtin_mnemonic(op), length));
          return executed;
        }
        const Hash target = read_u32(p + 4);
        const Script* s = find_script(target);
        if (s == nullptr) [[unlikely]] {
          const auto name = symbol(target);
          fail_instance(in, ErrorCode::kNotFound,
                        name ? fmt::format("{}: no script named \"{}\" is loaded",
                                           builtin_mnemonic(op), *name)
                             : fmt::format("{}: no script with hash 0x{:08X} is loaded",
                                           builtin_mnemonic(op), target));
          return executed;
        }
        if (op == kOpCallScript) {
          if (in.depth >= options_.max_call_depth) [[unlikely]] {
            fail_instance(
                in, ErrorCode::kOverflow,
                fmt::format("CALLSCRIPT nested deeper than {} scripts", options_.max_call_depth));
            return executed;
          }
          in.stack[in.depth++] = Frame{in.script, in.pc + length};
        } else {
          in.depth = 0;
        }
        in.script = s;
        in.code = s->code.data();
        in.size = static_cast<u32>(s->code.size());
        in.pc = 0;
        break;
      }
      default: {
        const u32 index = static_cast<u32>(op) - kFirstGameOpcode;
        if (op < kFirstGameOpcode || index >= game_ops_.size() || game_ops_[index].def == nullptr) {
          in.pc += length;  // unknown: skipped (newer scripts on an older runtime)
          break;
        }
        const GameOp& g = game_ops_[index];
        if (length < g.fixed) [[unlikely]] {
          fail_instance(in, ErrorCode::kCorrupt,
                        fmt::format("`{}` has length {}, needs {}", g.def->name, length, g.fixed));
          return executed;
        }
        const u32 generation = in.generation;
        Call call(*this, in, *g.def, p + g.params_at, g.kinds ? read_u32(p + 4) : 0);
        const Outcome outcome = g.def->handler(call);
        if (in.generation != generation || in.state != InstanceState::kRunning || in.halted) {
          return executed;  // the handler released, failed or halted this instance
        }
        switch (outcome) {
          case Outcome::kNext: in.pc += g.fixed; break;  // into the conditional, if any
          case Outcome::kFalse: in.pc += length; break;
          case Outcome::kYield:
            in.pc += length;
            in.last_line = 0;
            return executed;
          case Outcome::kRetry: in.last_line = 0; return executed;
          case Outcome::kStop: finish(in); return executed;
          case Outcome::kFail:
            fail_instance(in, ErrorCode::kRefused, fmt::format("`{}` failed", g.def->name));
            return executed;
        }
        break;
      }
    }
  }
}

template u32 Machine::run<Machine::Mode::kFast>(Instance&, u32);
template u32 Machine::run<Machine::Mode::kDebug>(Instance&, u32);
template u32 Machine::run<Machine::Mode::kStep>(Instance&, u32);

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
  const u32 ran = run<Mode::kStep>(*in, 1);
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
