// Script VM throughput: 10,000 concurrent instances of one small looping script, one frame per
// iteration, against the same logic as 10,000 Lua 5.4 coroutines resumed once per frame.
//
//   SCRIPT("loop") {                                  -- Lua, per coroutine:
//     ADD(counter, 1);                                --   counter = counter + 1
//     IF(counter, GREATEREQUAL, 100) SET(counter, 0); --   if counter >= 100 then counter = 0 end
//     ADD(total, counter);                            --   total = total + counter
//     PAUSE(1);                                       --   coroutine.yield()
//     CHANGESCRIPT("loop");                           -- (the while-true loop)
//   }
//
// That is 5 commands per instance per frame (6 on every 100th), on named per-instance variables;
// the Lua side keeps its counters in locals, which is the fastest Lua can do. The same Lua code
// runs on Lua 5.4 (linked) and on LuaJIT 2.1 (opened at run time: see LuaJit below). SET and ADD
// are built-in opcodes here. BM_ScriptFrameGameCommands runs the same logic with GSET/GADD, game
// commands registered with typed handlers (CommandSet::add(name, opcode, lambda): the path of
// every game-specific command); BM_ScriptFrameCallCommands with CSET/CADD, handler functions
// that read their parameters from a script::Call. BM_ScriptFrameWaiting has every instance paused
// (the cost of sleeping scripts); BM_CompileGuard compiles a 100-script file.
#include "bench_support.h"
#include "keel/script/basic_commands.h"
#include "keel/script/compiler/compiler.h"
#include "keel/script/machine.h"
#include "keel/text/document.h"

extern "C" {
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
}

#include <fmt/format.h>

#include <dlfcn.h>

#include <cstdlib>
#include <string>
#include <type_traits>
#include <vector>

namespace {

namespace script = keel::script;
using keel::u32;
using keel::u64;

constexpr u32 kInstances = 10'000;

const char* kLoop = R"(
SCRIPT("loop") {
  ADD(counter, 1);
  IF(counter, GREATEREQUAL, 100) SET(counter, 0);
  ADD(total, counter);
  PAUSE(1);
  CHANGESCRIPT("loop");
}
SCRIPT("sleep") { PAUSE(1000000000); }
SCRIPT("game") {
  GADD(counter, 1);
  IF(counter, GREATEREQUAL, 100) GSET(counter, 0);
  GADD(total, counter);
  PAUSE(1);
  CHANGESCRIPT("game");
}
SCRIPT("call") {
  CADD(counter, 1);
  IF(counter, GREATEREQUAL, 100) CSET(counter, 0);
  CADD(total, counter);
  PAUSE(1);
  CHANGESCRIPT("call");
})";

script::Library compile_or_die(const std::string& source, const script::CommandSet& commands) {
  keel::text::Diagnostics diag;
  auto doc = keel::text::parse(source, "bench.script", diag);
  std::optional<script::Library> lib;
  if (doc) lib = script::compile(doc->first(), commands, diag, {.source = doc.get()});
  if (!lib) {
    fmt::print(stderr, "{}", diag.render());
    std::abort();
  }
  return std::move(*lib);
}

script::CommandSet bench_commands() {
  script::CommandSet commands = script::default_commands();
  (void)script::add_basic_commands(commands, nullptr);
  // Typed handlers: the parameters are decoded by code generated for the signature.
  (void)commands.add("GSET", 0x0200,
                     [](keel::s32& variable, keel::s32 value) { variable = value; });
  (void)commands.add("GADD", 0x0201,
                     [](keel::s32& variable, keel::s32 amount) { variable += amount; });
  // The same commands with handlers that read their parameters from a Call.
  const std::vector<script::ParamSpec> params{{script::ParamType::kVariable},
                                              {script::ParamType::kValue}};
  (void)commands.add(
      {.name = "CSET", .opcode = 0x0202, .params = params, .handler = +[](script::Call& call) {
         call.set_at(0, call.value_at(1));
         return script::Outcome::kNext;
       }});
  (void)commands.add(
      {.name = "CADD", .opcode = 0x0203, .params = params, .handler = +[](script::Call& call) {
         const keel::s32 amount = call.value_at(1);
         call.variable_at(0) += amount;
         return script::Outcome::kNext;
       }});
  return commands;
}

void run_frames(benchmark::State& state, const char* name) {
  const script::CommandSet commands = bench_commands();
  const script::Library library = compile_or_die(kLoop, commands);
  script::Machine machine(commands);
  (void)machine.add_library(library);
  machine.reserve(kInstances);
  for (u32 i = 0; i < kInstances; ++i) (void)machine.start(name);
  for (int i = 0; i < 3; ++i) machine.update(1.0 / 60.0);  // variables exist from here on
  u64 commands_run = 0;
  for (auto _ : state) {
    machine.update(1.0 / 60.0);
    commands_run += machine.last_frame().commands;
  }
  state.counters["commands/s"] =
      benchmark::Counter(static_cast<double>(commands_run), benchmark::Counter::kIsRate);
  state.counters["ns/command"] = benchmark::Counter(
      static_cast<double>(commands_run), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * kInstances));
}

void BM_ScriptFrame(benchmark::State& state) { run_frames(state, "loop"); }
BENCHMARK(BM_ScriptFrame)->Unit(benchmark::kMicrosecond);

void BM_ScriptFrameGameCommands(benchmark::State& state) { run_frames(state, "game"); }
BENCHMARK(BM_ScriptFrameGameCommands)->Unit(benchmark::kMicrosecond);

void BM_ScriptFrameCallCommands(benchmark::State& state) { run_frames(state, "call"); }
BENCHMARK(BM_ScriptFrameCallCommands)->Unit(benchmark::kMicrosecond);

void BM_ScriptFrameWaiting(benchmark::State& state) { run_frames(state, "sleep"); }
BENCHMARK(BM_ScriptFrameWaiting)->Unit(benchmark::kMicrosecond);

const char* kLuaLoop = R"(
return function()
  local counter, total = 0, 0
  while true do
    counter = counter + 1
    if counter >= 100 then counter = 0 end
    total = total + counter
    coroutine.yield()
  end
end)";

void BM_LuaCoroutineFrame(benchmark::State& state) {
  lua_State* L = luaL_newstate();
  luaL_openlibs(L);
  if (luaL_dostring(L, kLuaLoop) != LUA_OK) std::abort();  // leaves the function on the stack
  lua_newtable(L);                                         // index 2: keeps the coroutines alive
  std::vector<lua_State*> threads;
  threads.reserve(kInstances);
  for (u32 i = 0; i < kInstances; ++i) {
    lua_State* co = lua_newthread(L);
    lua_pushvalue(L, 1);
    lua_xmove(L, co, 1);
    lua_rawseti(L, 2, static_cast<lua_Integer>(i) + 1);  // pops the thread
    threads.push_back(co);
  }
  int results = 0;
  const auto frame = [&] {
    for (lua_State* co : threads) {
      if (lua_resume(co, L, 0, &results) != LUA_YIELD) std::abort();
      lua_pop(co, results);
    }
  };
  for (int i = 0; i < 3; ++i) frame();
  for (auto _ : state) frame();
  // The same logic as BM_ScriptFrame: 5 commands per coroutine per frame, 6 every 100th.
  const double commands = static_cast<double>(state.iterations()) * kInstances * 5.01;
  state.counters["commands/s"] = benchmark::Counter(commands, benchmark::Counter::kIsRate);
  state.counters["ns/command"] =
      benchmark::Counter(commands, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * kInstances));
  lua_close(L);
}
BENCHMARK(BM_LuaCoroutineFrame)->Unit(benchmark::kMicrosecond);

// LuaJIT 2.1 (its C API is Lua 5.1's). Lua 5.4 above owns the lua_* names in this process, and
// LuaJIT calls its own API through the PLT, so it is opened with dlopen(RTLD_DEEPBIND) and used
// through the few entry points the benchmark needs (declared here: lua.h of both versions cannot
// share a translation unit).
struct LuaJit {
  struct State;
  using CFunction = int (*)(State*);
  State* (*newstate)() = nullptr;
  void (*openlibs)(State*) = nullptr;
  int (*loadstring)(State*, const char*) = nullptr;
  int (*pcall)(State*, int, int, int) = nullptr;
  void (*createtable)(State*, int, int) = nullptr;
  State* (*newthread)(State*) = nullptr;
  void (*pushvalue)(State*, int) = nullptr;
  void (*xmove)(State*, State*, int) = nullptr;
  void (*rawseti)(State*, int, int) = nullptr;
  int (*resume)(State*, int) = nullptr;
  void (*settop)(State*, int) = nullptr;
  void (*close)(State*) = nullptr;
  static constexpr int kYield = 1;     // LUA_YIELD
  static constexpr int kMultRet = -1;  // LUA_MULTRET

  // Null when the library is missing or cannot be opened this way (RTLD_DEEPBIND and the
  // sanitizers' runtimes do not mix).
  static const LuaJit* get() {
    static const LuaJit* const instance = []() -> const LuaJit* {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
      return nullptr;
#else
      void* lib = dlopen(KEEL_LUAJIT_LIBRARY, RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
      if (lib == nullptr) return nullptr;
      static LuaJit api;
      bool complete = true;
      const auto bind = [&](auto& fn, const char* name) {
        fn = reinterpret_cast<std::remove_reference_t<decltype(fn)> >(dlsym(lib, name));
        complete = complete && fn != nullptr;
      };
      bind(api.newstate, "luaL_newstate");
      bind(api.openlibs, "luaL_openlibs");
      bind(api.loadstring, "luaL_loadstring");
      bind(api.pcall, "lua_pcall");
      bind(api.createtable, "lua_createtable");
      bind(api.newthread, "lua_newthread");
      bind(api.pushvalue, "lua_pushvalue");
      bind(api.xmove, "lua_xmove");
      bind(api.rawseti, "lua_rawseti");
      bind(api.resume, "lua_resume");
      bind(api.settop, "lua_settop");
      bind(api.close, "lua_close");
      return complete ? &api : nullptr;
#endif
    }();
    return instance;
  }
};

// The same Lua code and driving loop as BM_LuaCoroutineFrame, on LuaJIT.
void BM_LuaJitCoroutineFrame(benchmark::State& state) {
  const LuaJit* jit = LuaJit::get();
  if (jit == nullptr) {
    state.SkipWithError("LuaJIT (" KEEL_LUAJIT_LIBRARY ") is not available in this build");
    return;
  }
  LuaJit::State* L = jit->newstate();
  jit->openlibs(L);
  // luaL_dostring: leaves the function on the stack.
  if (jit->loadstring(L, kLuaLoop) != 0 || jit->pcall(L, 0, LuaJit::kMultRet, 0) != 0) {
    std::abort();
  }
  jit->createtable(L, 0, 0);  // index 2: keeps the coroutines alive
  std::vector<LuaJit::State*> threads;
  threads.reserve(kInstances);
  for (u32 i = 0; i < kInstances; ++i) {
    LuaJit::State* co = jit->newthread(L);
    jit->pushvalue(L, 1);
    jit->xmove(L, co, 1);
    jit->rawseti(L, 2, static_cast<int>(i) + 1);  // pops the thread
    threads.push_back(co);
  }
  const auto frame = [&] {
    for (LuaJit::State* co : threads) {
      if (jit->resume(co, 0) != LuaJit::kYield) std::abort();
      jit->settop(co, 0);  // drops the yielded values (none), as lua_pop does above
    }
  };
  for (int i = 0; i < 3; ++i) frame();
  for (auto _ : state) frame();
  const double commands = static_cast<double>(state.iterations()) * kInstances * 5.01;
  state.counters["commands/s"] = benchmark::Counter(commands, benchmark::Counter::kIsRate);
  state.counters["ns/command"] =
      benchmark::Counter(commands, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * kInstances));
  jit->close(L);
}
BENCHMARK(BM_LuaJitCoroutineFrame)->Unit(benchmark::kMicrosecond);

void BM_CompileGuard(benchmark::State& state) {
  const script::CommandSet commands = bench_commands();
  std::string source;
  for (int i = 0; i < 100; ++i) {
    source += fmt::format(
        "SCRIPT(\"s{0}\") {{\n  ADD(lap, 1);\n  PRINT(\"Walking to the gate.\");\n  PAUSE(2);\n"
        "  CALLSCRIPT(\"s{1}\");\n  IF(health, LESSTHAN, 50) {{ CHANGESCRIPT(\"s{1}\"); }}\n"
        "  IF(lap, lessthan, 3) CHANGESCRIPT(\"s{0}\");\n  PAUSESECONDS(0.5);\n}}\n",
        i, (i + 1) % 100);
  }
  for (auto _ : state) {
    keel::text::Diagnostics diag;
    auto doc = keel::text::parse(source, "bench.script", diag);
    auto lib = script::compile(doc->first(), commands, diag, {.source = doc.get()});
    benchmark::DoNotOptimize(lib);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * source.size()));
}
BENCHMARK(BM_CompileGuard)->Unit(benchmark::kMicrosecond);

}  // namespace

KEEL_BENCH_RATIO("script VM frame vs Lua 5.4 coroutines (10k instances, same logic)",
                 "BM_ScriptFrame", "BM_LuaCoroutineFrame");
KEEL_BENCH_RATIO("script VM frame, SET/ADD as game commands, vs Lua 5.4 coroutines",
                 "BM_ScriptFrameGameCommands", "BM_LuaCoroutineFrame");
KEEL_BENCH_RATIO("script VM frame vs LuaJIT 2.1 coroutines (10k instances, same logic)",
                 "BM_ScriptFrame", "BM_LuaJitCoroutineFrame");
KEEL_BENCH_RATIO("script VM frame, SET/ADD as game commands, vs LuaJIT 2.1 coroutines",
                 "BM_ScriptFrameGameCommands", "BM_LuaJitCoroutineFrame");
KEEL_BENCH_RATIO("script VM frame, SET/ADD as Call& game commands, vs LuaJIT 2.1 coroutines",
                 "BM_ScriptFrameCallCommands", "BM_LuaJitCoroutineFrame");
KEEL_BENCH_MAIN()
