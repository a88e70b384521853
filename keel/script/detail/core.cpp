#include "keel/script/detail/core.h"

#include "keel/core/assert.h"

#include <fmt/format.h>

#include <algorithm>

namespace keel::script::detail {

namespace {

// The invokers of handlers that take a Call: a plain function, or any other callable.
Outcome invoke_function(const CommandSite& site, Instance& in, VariableSet& vars,
                        const std::byte* p, void* user) {
  Call call(site, in, vars, p, user);
  return site.function(call);
}
Outcome invoke_handler(const CommandSite& site, Instance& in, VariableSet& vars, const std::byte* p,
                       void* user) {
  Call call(site, in, vars, p, user);
  return (*static_cast<const Handler*>(site.object))(call);
}
// The invoker of opcodes between game commands that no command has: skipped (kFalse = on with
// the next command), which spares the loop a test for holes.
Outcome invoke_nothing(const CommandSite&, Instance&, VariableSet&, const std::byte*, void*) {
  return Outcome::kFalse;
}

}  // namespace

Core::Core(Machine& machine, const CommandSet& command_set, MachineOptions machine_options)
    : commands(command_set), options(machine_options), salt(keel::detail::next_slot_map_salt()) {
  options.max_call_depth = std::min<u32>(options.max_call_depth, 255);
  for (const CommandDef& def : commands.all()) {
    if (def.builtin != script::Builtin::kNone) continue;
    const usize index = def.opcode - kFirstGameOpcode;
    if (game_ops.size() <= index) game_ops.resize(index + 1);
    GameOp& op = game_ops[index];
    CommandSite& site = op.site;
    site.machine = &machine;
    site.globals = &globals;
    site.def = &def;
    site.param_count = static_cast<u32>(def.params.size());
    site.kinds = has_kinds_word(def);
    site.params_at = site.kinds ? kHeaderSize + 4 : kHeaderSize;
    for (usize i = 0; i < def.params.size(); ++i) {
      const u32 bit = 1u << i;
      if (def.params[i].type == ParamType::kVariable) site.variable_mask |= bit;
      if (def.params[i].type == ParamType::kValue) site.value_mask |= bit;
      if (def.params[i].type == ParamType::kFloat) site.float_mask |= bit;
    }
    // (A typed def whose handler was replaced afterwards has no callable of its type: the
    // generic path calls whatever the handler is.)
    if (const void* typed =
            def.invoker != nullptr && def.locate != nullptr ? def.locate(def.handler) : nullptr;
        typed != nullptr) {
      site.invoke = def.invoker;
      site.object = typed;
    } else if (const auto* f = def.handler.target<Outcome (*)(Call&)>(); f != nullptr) {
      site.invoke = &invoke_function;
      site.function = *f;
    } else {
      site.invoke = &invoke_handler;
      site.object = &def.handler;
    }
    op.fixed = fixed_size(def);
    op.conditional = def.conditional != Conditional::kForbidden;
  }
  for (GameOp& op : game_ops) {
    if (op.site.def == nullptr) op.site.invoke = &invoke_nothing;
  }
}

Instance* Core::get(InstanceId id) const {
  if (id.index >= used) return nullptr;
  Instance& in = slot(id.index);
  if (in.state == InstanceState::kFree || in.generation != id.generation || id.is_null()) {
    return nullptr;
  }
  return &in;
}

void Core::grow() {
  const u32 depth = std::max<u32>(options.max_call_depth, 1);
  auto instances = std::make_unique<Instance[]>(kChunkSize);
  // Default-initialised: the pages of unused call stacks are never touched.
  std::unique_ptr<Frame[]> frames(new Frame[usize{kChunkSize} * depth]);
  for (u32 i = 0; i < kChunkSize; ++i) {
    instances[i].index = capacity + i;
    instances[i].generation = salt;  // counter 0: free
    instances[i].stack = frames.get() + usize{i} * depth;
  }
  chunks.push_back(std::move(instances));
  stacks.push_back(std::move(frames));
  capacity += kChunkSize;
  free.reserve(capacity);
  released.reserve(capacity);
}

const ScriptRef* Core::find_ref(Hash name) const {
  auto it = std::lower_bound(scripts.begin(), scripts.end(), name,
                             [](const ScriptRef& r, Hash h) { return r.hash < h; });
  return it != scripts.end() && it->hash == name ? &*it : nullptr;
}

std::optional<std::string_view> Core::symbol(Hash hash) const {
  for (const Library* lib : libraries) {
    if (auto text = lib->symbol(hash)) return text;
  }
  return std::nullopt;
}

bool Core::enter_script(Instance& in, Opcode op, Hash target, u32 pc, u32 length, bool call) {
  const Script* s = in.script;
  bool trusted = in.trusted;
  if (target != s->name_hash) {
    const ScriptRef* ref = find_ref(target);
    if (ref == nullptr) [[unlikely]] {
      const auto name = symbol(target);
      const std::string_view mnemonic = builtin_mnemonic(op);
      fail_at(in, pc, ErrorCode::kNotFound,
              name ? fmt::format("{}: no script named \"{}\" is loaded", mnemonic, *name)
                   : fmt::format("{}: no script with hash 0x{:08X} is loaded", mnemonic, target));
      return false;
    }
    s = ref->script;
    trusted = ref->trusted;
  }
  if (call) {
    if (in.depth >= options.max_call_depth) [[unlikely]] {
      fail_at(in, pc, ErrorCode::kOverflow,
              fmt::format("CALLSCRIPT nested deeper than {} scripts", options.max_call_depth));
      return false;
    }
    in.stack[in.depth++] = Frame{in.script, pc + length, in.trusted};
  } else {
    in.depth = 0;
  }
  in.script = s;
  in.trusted = trusted;
  in.code = s->code.data();
  in.size = static_cast<u32>(s->code.size());
  in.pc = 0;
  return true;
}

void Core::finish(Instance& in) {
  in.state = InstanceState::kFinished;
  in.depth = 0;
  if (trace) emit(TraceKind::kFinished, in);
}

void Core::fail_instance(Instance& in, ErrorCode code, std::string message) {
  in.state = InstanceState::kFailed;
  ++stats.failures;
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
  if (trace) emit(TraceKind::kFailed, in, in.error->message());
}

void Core::fail_at(Instance& in, u32 pc, ErrorCode code, std::string message) {
  in.pc = pc;
  fail_instance(in, code, std::move(message));
}

void Core::release_slot(Instance& in) {
  in.state = InstanceState::kFree;
  in.halted = false;
  in.generation += kGenerationStep;  // even counter: every handle to it is dead
  in.error.reset();
  // During update() the slot stays free until the frame ends, so a handler that released its
  // own instance (or another) never sees the slot taken by an instance it starts.
  (updating ? released : free).push_back(in.index);
  --live;
}

u32 Core::line_of(const Instance& in) const {
  if (in.script == nullptr) return 0;
  const LineEntry* e = in.script->line_at(in.pc);
  return e != nullptr ? e->line : 0;
}

void Core::emit(TraceKind kind, const Instance& in, std::string_view message, u32 length) {
  TraceEvent e;
  e.kind = kind;
  e.instance = InstanceId{in.index, in.generation};
  e.frame = frame;
  e.script = in.script;
  e.offset = in.pc;
  e.line = line_of(in);
  e.depth = in.depth;
  if (length != 0) e.command = std::span<const std::byte>(in.code + in.pc, length);
  e.message = message;
  if (kind == TraceKind::kCommand) step_event = e;
  if (trace) trace(e);
}

bool Core::breakpoint_at(Instance& in) const {
  if (breakpoints.empty() || in.script == nullptr) return false;
  const LineEntry* e = in.script->line_at(in.pc);
  if (e == nullptr) return false;
  const u32 line = e->line;
  if (line == in.last_line) return false;  // already stopped at (or running) this line
  return std::any_of(breakpoints.begin(), breakpoints.end(), [&](const auto& bp) {
    return bp.first == in.script->name_hash && bp.second == line;
  });
}

std::string command_failed(const CommandDef& def) { return fmt::format("`{}` failed", def.name); }

std::string bad_length(Opcode op, u32 length, u32 room) {
  return fmt::format(
      "command 0x{:04X} has length {} ({} bytes left; lengths are multiples of 4, >= 4)", op,
      length, room);
}

std::string too_short(std::string_view what, u32 length, u32 needed) {
  return fmt::format("{} has length {}, needs {}", what, length, needed);
}

std::string bad_layout(std::string_view what, const char* problem) {
  return fmt::format("{} has a bad layout: {}", what, problem);
}

}  // namespace keel::script::detail
