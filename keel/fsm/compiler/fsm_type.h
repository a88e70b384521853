// FSM types (Golden Rules ch. 7, "FSM types"): the second parameter of FSM("name", "type")
// selects how behaviour names map to bits and which handler commands are valid. The game
// registers its types; a type may remove built-in commands and add commands of its own.
//
//   fsm::TypeRegistry types;
//   fsm::FsmType& character = types.add("Character");
//   character.add_behaviors({"animate", "physics", "controls", "dead"});   // bits 0x1 0x2 0x4 0x8
//   character.disable(fsm::Opcode::kIfRandom);
//   u8 op = character.add_command({.name = "PlaySound", .params = {text::kString}});
//
// Registries for tools (keel-fsm) accept unknown types: UnknownTypes::kAutoAssign gives a type
// nobody registered its behaviour bits in order of first appearance during one compile.
#pragma once

#include "keel/core/error.h"
#include "keel/core/hash.h"
#include "keel/core/types.h"
#include "keel/fsm/opcodes.h"
#include "keel/text/diagnostics.h"
#include "keel/text/signature.h"
#include "keel/text/token.h"

#include <filesystem>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace keel::fsm {

inline constexpr u32 kMaxBehaviors = 32;
inline constexpr std::string_view kDefaultRunEvent = "state_run";

// A command a type adds to the handler language. Each parameter is a string (compiled to its
// hash) or a number (compiled to an IEEE float); modifiers (at most 8, all default off, turned
// off again with a ~ ! - prefix) may follow the parameters and become the bits of header byte 2.
struct CommandSpec {
  std::string name{};
  std::vector<text::ParamKinds> params{};  // each text::kString or text::kNumber
  std::vector<std::string> modifiers{};
  bool has_block = false;  // like IfFlags: the game's handler decides whether the block runs
  u8 opcode = 0;           // assigned by FsmType::add_command
};

class FsmType {
 public:
  explicit FsmType(std::string name);

  const std::string& name() const { return name_; }
  Hash hash() const { return string_hash(name_); }

  // Behaviour names get bits in the order they are added (case-insensitive names).
  Status add_behavior(std::string_view name);
  Status add_behaviors(std::initializer_list<std::string_view> names);
  std::optional<u32> behavior_bit(std::string_view name) const;  // the mask, e.g. 0x4
  const std::vector<std::string>& behaviors() const { return behaviors_; }

  // The per-frame event FsmInstance::run() sends ("state_run" unless changed).
  void set_run_event(std::string name) { run_event_ = std::move(name); }
  const std::string& run_event() const { return run_event_; }

  // Built-in commands are all enabled until disabled.
  void disable(Opcode op);
  void enable(Opcode op);
  bool enabled(Opcode op) const;

  // Adds a game command; returns its opcode (kFirstCustomOpcode, +1, ...). Fails when the name is
  // a built-in or already added, a parameter kind is not string/number, or there are more than
  // 8 modifiers or 127 parameters.
  Result<u8> add_command(CommandSpec spec);
  const CommandSpec* find_command(std::string_view name) const;  // case-insensitive
  const std::vector<CommandSpec>& commands() const { return commands_; }

  // True for types the compiler made up (UnknownTypes::kAutoAssign).
  bool automatic() const { return automatic_; }
  void set_automatic(bool automatic) { automatic_ = automatic; }

 private:
  std::string name_;
  std::vector<std::string> behaviors_;
  std::string run_event_{kDefaultRunEvent};
  u32 disabled_ = 0;  // bit per built-in opcode
  std::vector<CommandSpec> commands_;
  bool automatic_ = false;
};

enum class UnknownTypes : u8 {
  kError,       // FSM("x", "NoSuchType") is a compile error (the game's registry)
  kAutoAssign,  // a made-up type: behaviour bits in order of first appearance (tools)
};

class TypeRegistry {
 public:
  explicit TypeRegistry(UnknownTypes unknown = UnknownTypes::kError) : unknown_(unknown) {}
  TypeRegistry(const TypeRegistry& other);
  TypeRegistry& operator=(const TypeRegistry& other);
  TypeRegistry(TypeRegistry&&) noexcept = default;
  TypeRegistry& operator=(TypeRegistry&&) noexcept = default;
  ~TypeRegistry() = default;

  // Adds a type (names are case-sensitive, like every name a designer hashes). Asserts that the
  // name is new; use find() first when unsure.
  FsmType& add(std::string name);
  const FsmType* find(std::string_view name) const;
  FsmType* find(std::string_view name);
  usize size() const { return types_.size(); }

  UnknownTypes unknown_types() const { return unknown_; }
  void set_unknown_types(UnknownTypes unknown) { unknown_ = unknown; }

  // A type description file (keel-fsm --types), in the command-file language:
  //   Type("Character")
  //   {
  //       Behaviors("animate", "physics", "controls", "dead");
  //       RunEvent("state_run");                 // optional
  //       Disable("IfRandom");                   // optional, any number of built-ins
  //       Command("PlaySound", "string") { Modifiers("loud"); }   // a game command
  //       Command("IfHealth", "number") { Block(); }              // one that takes a block
  //   }
  // Errors go to `diagnostics`; returns false if there were any.
  bool add_from_text(const text::Token* first, text::Diagnostics& diagnostics);
  bool load_file(const std::filesystem::path& path, text::Diagnostics& diagnostics);

 private:
  std::vector<std::unique_ptr<FsmType>> types_;
  UnknownTypes unknown_;
};

}  // namespace keel::fsm
