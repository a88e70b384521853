#include "keel/script/machine.h"

#include "keel/core/assert.h"
#include "keel/script/detail/core.h"

#include <algorithm>
#include <utility>

namespace keel::script {

using detail::Instance;
using detail::Mode;
using detail::ScriptRef;
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

Machine::Machine(const CommandSet& commands, MachineOptions options) {
  KEEL_ASSERT(options.command_budget > 0,
              "MachineOptions::command_budget is 0: no instance could ever run a command");
  KEEL_ASSERT(options.max_call_depth <= 255,
              "MachineOptions::max_call_depth is {}: CALLSCRIPT depth is limited to 255",
              options.max_call_depth);
  options.command_budget = std::max<u32>(options.command_budget, 1);  // release builds
  core_ = std::make_unique<detail::Core>(*this, commands, options);
}

Machine::~Machine() = default;

Status Machine::add_library(const Library& library) {
  detail::Core& c = *core_;
  for (const Script& s : library.scripts()) {
    if (find_script(s.name_hash) != nullptr) {
      return fail(ErrorCode::kAlreadyExists, "script `{}` (0x{:08X}) is already loaded", s.name,
                  s.name_hash);
    }
  }
  c.libraries.push_back(&library);
  for (const Script& s : library.scripts()) {
    const bool trusted =
        !c.options.check_every_command && validate_stream(s.code, &c.commands).has_value();
    c.scripts.push_back({s.name_hash, &s, trusted});
  }
  std::sort(c.scripts.begin(), c.scripts.end(),
            [](const ScriptRef& a, const ScriptRef& b) { return a.hash < b.hash; });
  return ok();
}

const Script* Machine::find_script(Hash name) const {
  const ScriptRef* ref = core_->find_ref(name);
  return ref != nullptr ? ref->script : nullptr;
}

std::optional<std::string_view> Machine::symbol(Hash hash) const { return core_->symbol(hash); }

// --- instances ---------------------------------------------------------------------------------

void Machine::reserve(u32 instances) {
  while (core_->capacity < instances) core_->grow();
}

Result<InstanceId> Machine::start(Hash script, void* user) {
  detail::Core& c = *core_;
  const ScriptRef* ref = c.find_ref(script);
  if (ref == nullptr) {
    if (auto name = symbol(script)) {
      return fail(ErrorCode::kNotFound, "no script named \"{}\" is loaded", *name);
    }
    return fail(ErrorCode::kNotFound, "no script with hash 0x{:08X} is loaded", script);
  }
  u32 index;
  if (!c.free.empty()) {
    index = c.free.back();
    c.free.pop_back();
  } else {
    if (c.used == c.capacity) c.grow();
    index = c.used++;
  }
  Instance& in = c.slot(index);
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
  in.born = c.frame;  // during update() frame is the current frame: it first runs in the next
  in.user = user;
  in.last_line = 0;
  in.error.reset();
  in.generation += detail::kGenerationStep;  // odd counter: live
  ++c.live;
  return InstanceId{index, in.generation};
}

bool Machine::release(InstanceId id) {
  Instance* in = core_->get(id);
  if (in == nullptr) return false;
  core_->release_slot(*in);
  return true;
}

void Machine::clear() {
  for (u32 i = 0; i < core_->used; ++i) {
    Instance& in = core_->slot(i);
    if (in.state != InstanceState::kFree) core_->release_slot(in);
  }
}

u32 Machine::instance_count() const { return core_->live; }

InstanceState Machine::state(InstanceId id) const {
  const Instance* in = core_->get(id);
  if (in == nullptr) return InstanceState::kFree;
  if (in->halted) return InstanceState::kHalted;
  return in->state;
}

const Error* Machine::error(InstanceId id) const {
  const Instance* in = core_->get(id);
  return in != nullptr ? in->error.get() : nullptr;
}

void* Machine::user(InstanceId id) const {
  const Instance* in = core_->get(id);
  return in != nullptr ? in->user : nullptr;
}

// --- variables ---------------------------------------------------------------------------------

std::optional<s32> Machine::find_variable(InstanceId id, Hash name) const {
  const Instance* in = core_->get(id);
  if (in == nullptr) return std::nullopt;
  if (const s32* v = in->variables.find(name)) return *v;
  return global(name);
}

bool Machine::set_variable(InstanceId id, Hash name, s32 value) {
  Instance* in = core_->get(id);
  if (in == nullptr) return false;
  in->variables.get_or_insert(name) = value;
  return true;
}

std::vector<std::pair<Hash, s32>> Machine::variables(InstanceId id) const {
  std::vector<std::pair<Hash, s32>> out;
  const Instance* in = core_->get(id);
  if (in == nullptr) return out;
  in->variables.for_each([&](const Variable& v) { out.emplace_back(v.name, v.value); });
  return out;
}

void Machine::set_global(Hash name, s32 value) { core_->globals.set(name, value); }

std::optional<s32> Machine::global(Hash name) const {
  if (const s32* g = core_->globals.find(name)) return *g;
  return std::nullopt;
}

// --- running -----------------------------------------------------------------------------------

void Machine::update(f64 dt) {
  detail::Core& c = *core_;
  KEEL_ASSERT(!c.updating, "Machine::update called from inside a command handler");
  if (c.updating) return;  // release builds: the frame in progress goes on
  c.updating = true;
  ++c.frame;
  c.stats = {};
  c.run_frame(*this);
  c.total_commands += c.stats.commands;
  c.time += dt;
  c.updating = false;
  c.free.insert(c.free.end(), c.released.begin(), c.released.end());
  c.released.clear();
}

u64 Machine::frame() const { return core_->frame; }
f64 Machine::time() const { return core_->time; }
const FrameStats& Machine::last_frame() const { return core_->stats; }
u64 Machine::total_commands() const { return core_->total_commands; }
const MachineOptions& Machine::options() const { return core_->options; }

// --- debugging ---------------------------------------------------------------------------------

void Machine::set_trace(TraceFn trace) { core_->trace = std::move(trace); }

void Machine::add_breakpoint(Hash script, u32 line) {
  auto& bps = core_->breakpoints;
  if (std::find(bps.begin(), bps.end(), std::pair{script, line}) == bps.end()) {
    bps.emplace_back(script, line);
  }
}

bool Machine::remove_breakpoint(Hash script, u32 line) {
  auto& bps = core_->breakpoints;
  auto it = std::find(bps.begin(), bps.end(), std::pair{script, line});
  if (it == bps.end()) return false;
  bps.erase(it);
  return true;
}

void Machine::clear_breakpoints() { core_->breakpoints.clear(); }

bool Machine::halt(InstanceId id) {
  Instance* in = core_->get(id);
  if (in == nullptr ||
      (in->state != InstanceState::kRunning && in->state != InstanceState::kWaiting)) {
    return false;
  }
  in->halted = true;
  return true;
}

bool Machine::resume(InstanceId id) {
  Instance* in = core_->get(id);
  if (in == nullptr || !in->halted) return false;
  in->halted = false;
  return true;
}

Result<TraceEvent> Machine::step(InstanceId id) {
  detail::Core& c = *core_;
  Instance* in = c.get(id);
  if (in == nullptr) return fail(ErrorCode::kNotFound, "step(): no such script instance");
  if (c.updating) {
    return fail(ErrorCode::kInvalidArgument, "step() called from inside a command handler");
  }
  if (!in->halted) return fail(ErrorCode::kInvalidArgument, "step() needs a halted instance");
  if (in->state != InstanceState::kRunning && in->state != InstanceState::kWaiting) {
    return fail(ErrorCode::kInvalidArgument, "the instance is {}", to_string(in->state));
  }
  in->state = InstanceState::kRunning;
  in->wait = Wait::kNone;
  in->halted = false;
  c.step_event = TraceEvent{};
  c.updating = true;  // handlers run: the same rules as in update()
  const u32 ran = c.run_single<Mode::kStep>(*this, *in, 1);
  c.updating = false;
  c.free.insert(c.free.end(), c.released.begin(), c.released.end());
  c.released.clear();
  c.stats.commands += ran;
  c.total_commands += ran;
  const bool alive = in->generation == id.generation && in->state != InstanceState::kFree;
  if (alive && (in->state == InstanceState::kRunning || in->state == InstanceState::kWaiting)) {
    in->halted = true;
  }
  if (ran == 0) {
    TraceEvent e;
    e.kind =
        alive && in->state == InstanceState::kFailed ? TraceKind::kFailed : TraceKind::kFinished;
    e.instance = id;
    e.frame = c.frame;
    return e;
  }
  TraceEvent e = c.step_event;
  e.command = {};  // the bytes may belong to a script the instance has left
  return e;
}

std::optional<Machine::Position> Machine::position(InstanceId id) const {
  const Instance* in = core_->get(id);
  if (in == nullptr) return std::nullopt;
  return Position{in->script, in->pc, core_->line_of(*in), in->depth};
}

}  // namespace keel::script
