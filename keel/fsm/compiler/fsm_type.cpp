#include "keel/fsm/compiler/fsm_type.h"

#include "keel/core/assert.h"
#include "keel/fsm/detail/modifier.h"
#include "keel/text/document.h"

namespace keel::fsm {

FsmType::FsmType(std::string name) : name_(std::move(name)) {}

Status FsmType::add_behavior(std::string_view name) {
  if (name.empty() || parse_modifier(name).name.size() != name.size()) {
    return fail(ErrorCode::kInvalidArgument, "behaviour name '{}' is empty or starts with ~ ! -",
                name);
  }
  if (behavior_bit(name)) {
    return fail(ErrorCode::kAlreadyExists, "type '{}' already has behaviour '{}'", name_, name);
  }
  if (behaviors_.size() >= kMaxBehaviors) {
    return fail(ErrorCode::kOverflow, "type '{}' cannot have more than {} behaviours", name_,
                kMaxBehaviors);
  }
  behaviors_.emplace_back(name);
  return ok();
}

Status FsmType::add_behaviors(std::initializer_list<std::string_view> names) {
  for (std::string_view n : names) {
    if (Status s = add_behavior(n); !s) return s;
  }
  return ok();
}

std::optional<u32> FsmType::behavior_bit(std::string_view name) const {
  for (usize i = 0; i < behaviors_.size(); ++i) {
    if (iequals(behaviors_[i], name)) return 1u << i;
  }
  return std::nullopt;
}

void FsmType::disable(Opcode op) {
  KEEL_ASSERT(op != Opcode::kEnd, "FsmType::disable: End cannot be disabled");
  if (op == Opcode::kEnd) return;
  disabled_ |= 1u << static_cast<u32>(op);
}
void FsmType::enable(Opcode op) { disabled_ &= ~(1u << static_cast<u32>(op)); }
bool FsmType::enabled(Opcode op) const { return (disabled_ & (1u << static_cast<u32>(op))) == 0; }

Result<u8> FsmType::add_command(CommandSpec spec) {
  if (spec.name.empty()) return fail(ErrorCode::kInvalidArgument, "a command needs a name");
  if (builtin_opcode(spec.name)) {
    return fail(ErrorCode::kAlreadyExists, "'{}' is a built-in FSM command", spec.name);
  }
  if (find_command(spec.name) != nullptr) {
    return fail(ErrorCode::kAlreadyExists, "type '{}' already has command '{}'", name_, spec.name);
  }
  for (text::ParamKinds k : spec.params) {
    if (k != text::kString && k != text::kNumber) {
      return fail(ErrorCode::kInvalidArgument,
                  "command '{}': each parameter must be a string or a number", spec.name);
    }
  }
  if (spec.params.size() > 127) {
    return fail(ErrorCode::kOverflow, "command '{}' has more than 127 parameters", spec.name);
  }
  if (spec.modifiers.size() > 8) {
    return fail(ErrorCode::kOverflow, "command '{}' has more than 8 modifiers", spec.name);
  }
  const usize opcode = kFirstCustomOpcode + commands_.size();
  if (opcode > 255) return fail(ErrorCode::kOverflow, "type '{}' has too many commands", name_);
  spec.opcode = static_cast<u8>(opcode);
  commands_.push_back(std::move(spec));
  return commands_.back().opcode;
}

const CommandSpec* FsmType::find_command(std::string_view name) const {
  for (const CommandSpec& c : commands_) {
    if (iequals(c.name, name)) return &c;
  }
  return nullptr;
}

TypeRegistry::TypeRegistry(const TypeRegistry& other) : unknown_(other.unknown_) {
  for (const auto& t : other.types_) types_.push_back(std::make_unique<FsmType>(*t));
}

TypeRegistry& TypeRegistry::operator=(const TypeRegistry& other) {
  if (this != &other) {
    TypeRegistry copy(other);
    *this = std::move(copy);
  }
  return *this;
}

FsmType& TypeRegistry::add(std::string name) {
  if (FsmType* existing = find(name)) {
    KEEL_ASSERT(false, "TypeRegistry::add: FSM type '{}' registered twice", name);
    return *existing;  // release builds: the one registered first
  }
  types_.push_back(std::make_unique<FsmType>(std::move(name)));
  return *types_.back();
}

const FsmType* TypeRegistry::find(std::string_view name) const {
  for (const auto& t : types_) {
    if (t->name() == name) return t.get();
  }
  return nullptr;
}

FsmType* TypeRegistry::find(std::string_view name) {
  for (const auto& t : types_) {
    if (t->name() == name) return t.get();
  }
  return nullptr;
}

namespace {

bool strings_only(const text::Token& cmd, text::Diagnostics& diag, u32 min) {
  return text::check_command(cmd, diag, {text::kString}, {.min_params = min, .variadic = true});
}

void add_type_command(FsmType& type, const text::Token& cmd, text::Diagnostics& diag) {
  if (!text::check_command(
          cmd, diag, {text::kString, text::kString},
          {.min_params = 1, .variadic = true, .conditional = text::Conditional::kAllowed})) {
    return;
  }
  CommandSpec spec;
  spec.name = std::string(cmd.params->text);
  for (const text::Token* p = cmd.params->next; p != nullptr; p = p->next) {
    if (iequals(p->text, "string")) {
      spec.params.push_back(text::kString);
    } else if (iequals(p->text, "number")) {
      spec.params.push_back(text::kNumber);
    } else {
      diag.error(*p, "parameter kind '{}' is not \"string\" or \"number\"", p->text);
      return;
    }
  }
  for (const text::Token& item : text::chain(cmd.conditional)) {
    if (item.is("Modifiers")) {
      if (!strings_only(item, diag, 1)) continue;
      for (const text::Token* p = item.params; p != nullptr; p = p->next) {
        spec.modifiers.emplace_back(p->text);
      }
    } else if (item.is("Block")) {
      if (text::check_command(item, diag, {})) spec.has_block = true;
    } else {
      diag.error(item, "unknown command `{}` in a Command block (Modifiers, Block)", item.text);
    }
  }
  if (Result<u8> op = type.add_command(std::move(spec)); !op) {
    diag.error(cmd, "{}", op.error().message());
  }
}

}  // namespace

bool TypeRegistry::add_from_text(const text::Token* first, text::Diagnostics& diagnostics) {
  const usize errors_before = diagnostics.error_count();
  for (const text::Token& stmt : text::chain(first)) {
    if (!stmt.is("Type")) {
      diagnostics.error(stmt, "expected `Type(\"name\") {{ ... }}`, got `{}`", stmt.text);
      continue;
    }
    if (!text::check_command(stmt, diagnostics, {text::kString},
                             {.conditional = text::Conditional::kRequired})) {
      continue;
    }
    const std::string_view name = stmt.params->text;
    if (find(name) != nullptr) {
      diagnostics.error(stmt, "type '{}' is described twice", name);
      continue;
    }
    FsmType& type = add(std::string(name));
    for (const text::Token& item : text::chain(stmt.conditional)) {
      if (item.is("Behaviors") || item.is("Behaviours")) {
        if (!strings_only(item, diagnostics, 1)) continue;
        for (const text::Token* p = item.params; p != nullptr; p = p->next) {
          if (Status s = type.add_behavior(p->text); !s) diagnostics.error(*p, s.error().message());
        }
      } else if (item.is("RunEvent")) {
        if (text::check_command(item, diagnostics, {text::kString})) {
          type.set_run_event(std::string(item.params->text));
        }
      } else if (item.is("Disable")) {
        if (!strings_only(item, diagnostics, 1)) continue;
        for (const text::Token* p = item.params; p != nullptr; p = p->next) {
          const std::optional<Opcode> op = builtin_opcode(p->text);
          if (!op || *op == Opcode::kEnd) {
            diagnostics.error(*p, "'{}' is not a built-in command that can be disabled", p->text);
          } else {
            type.disable(*op);
          }
        }
      } else if (item.is("Command")) {
        add_type_command(type, item, diagnostics);
      } else {
        diagnostics.error(item,
                          "unknown command `{}` in a Type block (Behaviors, RunEvent, Disable, "
                          "Command)",
                          item.text);
      }
    }
  }
  return diagnostics.error_count() == errors_before;
}

bool TypeRegistry::load_file(const std::filesystem::path& path, text::Diagnostics& diagnostics) {
  std::unique_ptr<text::Document> doc = text::parse_file(path, diagnostics);
  if (!doc) return false;
  return add_from_text(doc->first(), diagnostics);
}

}  // namespace keel::fsm
