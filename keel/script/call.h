// What a game command's handler sees: its parameters, the running instance's variables and the
// Machine. A Call lives only for the duration of the handler; nothing here allocates (except a
// variable a script writes for the first time beyond the few stored inline).
//
//   Outcome attack(script::Call& call) {
//     auto* enemy = static_cast<Enemy*>(call.user());
//     enemy->attack(call.hash_at(0), call.value_at(1));   // ATTACK("player", damage)
//     return script::Outcome::kNext;
//   }
//
// Typed handlers (CommandSet::add(name, opcode, handler), defined at the end of this file) get
// their parameters as C++ values instead, decoded by code generated for their signature; they
// may still take a Call& first.
#pragma once

#include "keel/core/assert.h"
#include "keel/core/hash.h"
#include "keel/core/slot_map.h"
#include "keel/core/types.h"
#include "keel/script/bytecode.h"
#include "keel/script/commands.h"
#include "keel/script/variables.h"

#include <bit>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace keel::script {

class Machine;
struct InstanceTag;
using InstanceId = Handle<InstanceTag>;

// Typed handler parameters for script strings and names (stored as the hash of their text;
// Machine::symbol() or Call::text_at() give the text when a loaded library has it).
struct String {
  Hash hash = 0;
};
struct Name {
  Hash hash = 0;
};

// What the Machine knows about one game command, filled in when the Machine is made and handed
// to the command's invoker (commands.h). Handlers never need it; Call reads it.
struct CommandSite {
  Invoker invoke = nullptr;
  const void* object = nullptr;          // typed: the callable; else the CommandDef's Handler
  Outcome (*function)(Call&) = nullptr;  // the handler when it is a plain function
  Machine* machine = nullptr;
  GlobalVariables* globals = nullptr;
  const CommandDef* def = nullptr;
  u32 param_count = 0;
  u32 params_at = kHeaderSize;  // offset of parameter 0 (after the kinds word, if any)
  bool kinds = false;           // a kinds word follows the header (a kValue parameter)
  u32 variable_mask = 0;        // kVariable parameters
  u32 value_mask = 0;           // kValue parameters (the kinds word marks the variables)
  u32 float_mask = 0;           // kFloat parameters
};

class Call {
 public:
  // Built by the Machine (or a typed handler's invoker) for the command at `command`.
  Call(const CommandSite& site, detail::Instance& instance, VariableSet& variables,
       const std::byte* command, void* user)
      : site_(site),
        instance_(instance),
        variables_(variables),
        params_(command + site.params_at),
        user_(user),
        variable_mask_(site.variable_mask |
                       (site.kinds ? read_u32(command + kHeaderSize) & site.value_mask : 0)) {}

  const CommandDef& command() const { return *site_.def; }
  u32 param_count() const { return site_.param_count; }

  // Raw parameter values (index < param_count(); checked by KEEL_ASSERT).
  s32 int_at(u32 index) const { return std::bit_cast<s32>(raw_at(index)); }    // kInt
  f32 float_at(u32 index) const { return std::bit_cast<f32>(raw_at(index)); }  // kFloat
  // kString, kName, kVariable, or a kValue naming a variable.
  Hash hash_at(u32 index) const { return raw_at(index); }
  // kVariable, or a kValue that names a variable.
  bool is_variable_at(u32 index) const { return ((variable_mask_ >> index) & 1u) != 0; }
  // The value: a literal (kInt, kValue; kFloat truncated toward zero) or the variable's value
  // (kVariable and kValue naming a variable; 0 if the variable is not set).
  s32 value_at(u32 index) const {
    const u32 raw = raw_at(index);
    if (is_variable_at(index)) return get(raw);
    if (((site_.float_mask >> index) & 1u) != 0) [[unlikely]]
      return truncate(std::bit_cast<f32>(raw));
    return std::bit_cast<s32>(raw);
  }
  // The variable parameter `index` names (kVariable or a variable kValue), created (0) if it is
  // not set. The reference is valid until the next variable is created.
  s32& variable_at(u32 index) {
    KEEL_ASSERT(is_variable_at(index), "parameter {} of `{}` is not a variable", index + 1,
                site_.def->name);
    return variable_ref(variables_, *site_.globals, raw_at(index));
  }
  void set_at(u32 index, s32 value) { variable_at(index) = value; }
  // The text of a kString / kName parameter, if the loaded libraries know it.
  std::optional<std::string_view> text_at(u32 index) const;

  // Variables of the running instance (falling back to game-wide variables: see Machine).
  s32 get(Hash name) const { return read_variable(variables_, *site_.globals, name); }
  void set(Hash name, s32 value) { variable_ref(variables_, *site_.globals, name) = value; }

  Machine& machine() const { return *site_.machine; }
  InstanceId instance() const;
  void* user() const { return user_; }
  u64 frame() const;  // the Machine's frame number (1 in the first update)
  f64 time() const;   // seconds of game time at the start of this frame

  // Stops the script with an error; `return call.fail("no target named ...");`
  Outcome fail(std::string message);

 private:
  u32 raw_at(u32 index) const {
    KEEL_ASSERT(index < param_count(), "`{}` has {} parameters, asked for #{}", site_.def->name,
                param_count(), index + 1);
    if (index >= param_count()) [[unlikely]]
      return 0;  // release builds: never a read past the command
    return read_u32(params_ + usize{index} * kParamSize);
  }
  static s32 truncate(f32 f) {
    if (!(f == f)) return 0;
    if (f >= 2147483647.0f) return 2147483647;
    if (f <= -2147483648.0f) return -2147483647 - 1;
    return static_cast<s32>(f);
  }

  const CommandSite& site_;
  detail::Instance& instance_;
  VariableSet& variables_;
  const std::byte* params_;
  void* user_;
  u32 variable_mask_;
};

// --- typed handlers (CommandSet::add(name, opcode, handler, options)) ---------------------------

namespace typed {

// The script parameter type of a handler parameter type.
template <class T>
constexpr ParamType param_type() {
  using V = std::remove_cvref_t<T>;
  if constexpr (std::is_same_v<T, s32&>) {
    return ParamType::kVariable;
  } else if constexpr (std::is_same_v<V, s32>) {
    static_assert(!std::is_reference_v<T> || std::is_const_v<std::remove_reference_t<T>>,
                  "a handler parameter is s32 (a value) or s32& (a variable)");
    return ParamType::kValue;
  } else if constexpr (std::is_same_v<V, f32>) {
    return ParamType::kFloat;
  } else if constexpr (std::is_same_v<V, String>) {
    return ParamType::kString;
  } else {
    static_assert(std::is_same_v<V, Name>,
                  "typed handler parameters are s32, s32&, f32, script::String or script::Name");
    return ParamType::kName;
  }
}

// The handler's signature: its result and parameters.
template <class R, class... A>
struct SignatureOf {
  using Result = R;
  using Args = std::tuple<A...>;
};
template <class T>
struct Signature : Signature<decltype(&T::operator())> {};
template <class R, class... A>
struct Signature<R (*)(A...)> : SignatureOf<R, A...> {};
template <class R, class... A>
struct Signature<R (*)(A...) noexcept> : SignatureOf<R, A...> {};
template <class C, class R, class... A>
struct Signature<R (C::*)(A...)> : SignatureOf<R, A...> {};
template <class C, class R, class... A>
struct Signature<R (C::*)(A...) const> : SignatureOf<R, A...> {};
template <class C, class R, class... A>
struct Signature<R (C::*)(A...) noexcept> : SignatureOf<R, A...> {};
template <class C, class R, class... A>
struct Signature<R (C::*)(A...) const noexcept> : SignatureOf<R, A...> {};

template <class R>
constexpr void check_result() {
  static_assert(std::is_void_v<R> || std::is_same_v<R, bool> || std::is_same_v<R, Outcome>,
                "a typed handler returns void, bool or script::Outcome");
}
template <class F>
Outcome outcome_of(F&& run) {
  using R = decltype(run());
  if constexpr (std::is_void_v<R>) {
    run();
    return Outcome::kNext;
  } else if constexpr (std::is_same_v<R, bool>) {
    return run() ? Outcome::kNext : Outcome::kFalse;
  } else {
    return run();
  }
}

// The handler with its script parameters A... (after an optional Call&).
template <class F, bool kWithCall, class... A>
struct Typed {
  static constexpr bool kKinds = ((param_type<A>() == ParamType::kValue) || ...);
  static constexpr u32 kAt = kHeaderSize + (kKinds ? 4u : 0u);
  static constexpr u32 kVariables =
      ((param_type<A>() == ParamType::kVariable ? 1u : 0u) + ... + 0u);

  mutable F f;

  // Parameter I decoded from the command's bytes.
  template <class T, usize I>
  [[gnu::always_inline]] static decltype(auto) arg(const CommandSite& site, VariableSet& vars,
                                                   const std::byte* p) {
    const u32 raw = read_u32(p + kAt + I * kParamSize);
    constexpr ParamType kType = param_type<T>();
    if constexpr (kType == ParamType::kVariable) {
      return variable_ref(vars, *site.globals, raw);
    } else if constexpr (kType == ParamType::kValue) {
      const bool variable = ((read_u32(p + kHeaderSize) >> I) & 1u) != 0;
      return variable ? read_variable(vars, *site.globals, raw) : std::bit_cast<s32>(raw);
    } else if constexpr (kType == ParamType::kFloat) {
      return std::bit_cast<f32>(raw);
    } else if constexpr (kType == ParamType::kString) {
      return String{raw};
    } else {
      return Name{raw};
    }
  }

  // The invoker (commands.h): decodes the parameters and calls the handler. Its common path
  // finds every variable among the instance's inline ones and calls nothing else, so it needs
  // no callee-saved registers; anything else (a variable not there yet, a game-wide one, the
  // overflow vector) goes to the general path.
  static Outcome invoke(const CommandSite& site, detail::Instance& in, VariableSet& vars,
                        const std::byte* p, void* user) {
    const Typed& self = *static_cast<const Typed*>(site.object);
    return [&]<usize... I>(std::index_sequence<I...>) {
      s32* found[sizeof...(A) + 1] = {find_inline<A, I>(vars, p)...};
      if (((param_uses_variable<A, I>(p) && found[I] == nullptr) || ...)) [[unlikely]] {
        return invoke_general(site, in, vars, p, user);
      }
      if constexpr (kWithCall) {
        Call call(site, in, vars, p, user);
        return outcome_of([&] { return self.f(call, inline_arg<A, I>(found[I], p)...); });
      } else {
        (void)in;
        (void)user;
        return outcome_of([&] { return self.f(inline_arg<A, I>(found[I], p)...); });
      }
    }
    (std::index_sequence_for<A...>{});
  }

  // Whether parameter I names a variable (kVariable, or a kValue the kinds word marks).
  template <class T, usize I>
  [[gnu::always_inline]] static bool param_uses_variable(const std::byte* p) {
    constexpr ParamType kType = param_type<T>();
    if constexpr (kType == ParamType::kVariable) {
      return true;
    } else if constexpr (kType == ParamType::kValue) {
      return ((read_u32(p + kHeaderSize) >> I) & 1u) != 0;
    } else {
      (void)p;
      return false;
    }
  }
  template <class T, usize I>
  [[gnu::always_inline]] static s32* find_inline(VariableSet& vars, const std::byte* p) {
    if (!param_uses_variable<T, I>(p)) return nullptr;
    return vars.find_inline(read_u32(p + kAt + I * kParamSize));
  }
  // Parameter I, its variable (if it names one) found inline at `v`.
  template <class T, usize I>
  [[gnu::always_inline]] static decltype(auto) inline_arg(s32* v, const std::byte* p) {
    const u32 raw = read_u32(p + kAt + I * kParamSize);
    constexpr ParamType kType = param_type<T>();
    if constexpr (kType == ParamType::kVariable) {
      return *v;
    } else if constexpr (kType == ParamType::kValue) {
      return v != nullptr ? *v : std::bit_cast<s32>(raw);
    } else if constexpr (kType == ParamType::kFloat) {
      return std::bit_cast<f32>(raw);
    } else if constexpr (kType == ParamType::kString) {
      return String{raw};
    } else {
      return Name{raw};
    }
  }

  [[gnu::noinline]] static Outcome invoke_general(const CommandSite& site, detail::Instance& in,
                                                  VariableSet& vars, const std::byte* p,
                                                  void* user) {
    const Typed& self = *static_cast<const Typed*>(site.object);
    if constexpr (kVariables > 1) {
      // References to variables stay valid only until the next variable is created: create
      // every one first.
      create_variables(site, vars, p, std::index_sequence_for<A...>{});
    }
    return [&]<usize... I>(std::index_sequence<I...>) {
      if constexpr (kWithCall) {
        Call call(site, in, vars, p, user);
        return outcome_of([&] { return self.f(call, arg<A, I>(site, vars, p)...); });
      } else {
        (void)in;
        (void)user;
        return outcome_of([&] { return self.f(arg<A, I>(site, vars, p)...); });
      }
    }
    (std::index_sequence_for<A...>{});
  }
  template <usize... I>
  static void create_variables(const CommandSite& site, VariableSet& vars, const std::byte* p,
                               std::index_sequence<I...>) {
    ((param_type<A>() == ParamType::kVariable
          ? (void)variable_ref(vars, *site.globals, read_u32(p + kAt + I * kParamSize))
          : void()),
     ...);
  }

  // The same through a Call (CommandDef::handler, for callers that hold a CommandDef only).
  Outcome operator()(Call& call) const {
    return [&]<usize... I>(std::index_sequence<I...>) {
      if constexpr (kWithCall) {
        return outcome_of([&] { return f(call, from_call<A, I>(call)...); });
      } else {
        return outcome_of([&] { return f(from_call<A, I>(call)...); });
      }
    }
    (std::index_sequence_for<A...>{});
  }
  template <class T, usize I>
  static decltype(auto) from_call(Call& call) {
    constexpr ParamType kType = param_type<T>();
    if constexpr (kType == ParamType::kVariable) {
      return call.variable_at(I);
    } else if constexpr (kType == ParamType::kValue) {
      return call.value_at(I);
    } else if constexpr (kType == ParamType::kFloat) {
      return call.float_at(I);
    } else if constexpr (kType == ParamType::kString) {
      return String{call.hash_at(I)};
    } else {
      return Name{call.hash_at(I)};
    }
  }

  static const void* locate(const Handler& handler) { return handler.target<Typed>(); }
};

template <class F, class R, class... A>
struct TypedOf {
  using Type = Typed<F, false, A...>;
};
template <class F, class R, class... A>
struct TypedOf<F, R, Call&, A...> {
  using Type = Typed<F, true, A...>;
};
template <class F, class Args>
struct TypedFor;
template <class F, class... A>
struct TypedFor<F, std::tuple<A...>> {
  using Type = typename TypedOf<F, typename Signature<F>::Result, A...>::Type;
};

template <class T>
struct ParamSpecs;
template <bool kWithCall, class F, class... A>
struct ParamSpecs<Typed<F, kWithCall, A...>> {
  static std::vector<ParamSpec> get() { return {ParamSpec{param_type<A>(), {}}...}; }
};

}  // namespace typed

template <class F>
Status CommandSet::add(std::string name, Opcode opcode, F handler, CommandOptions options) {
  using Callable = std::decay_t<F>;
  using Sig = typed::Signature<Callable>;
  typed::check_result<typename Sig::Result>();
  using T = typename typed::TypedFor<Callable, typename Sig::Args>::Type;
  CommandDef def;
  def.name = std::move(name);
  def.opcode = opcode;
  def.params = typed::ParamSpecs<T>::get();
  if (options.defaults.size() > def.params.size()) {
    return fail(ErrorCode::kInvalidArgument, "command `{}` has more defaults than parameters",
                def.name);
  }
  const usize first = def.params.size() - options.defaults.size();
  for (usize i = 0; i < options.defaults.size(); ++i) {
    def.params[first + i].default_value = options.defaults[i];
  }
  def.conditional = options.conditional;
  def.help = std::move(options.help);
  def.handler = T{std::move(handler)};
  def.invoker = &T::invoke;
  def.locate = &T::locate;
  return add(std::move(def));
}

}  // namespace keel::script
