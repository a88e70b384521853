#include "keel/platform/input.h"

#include "keel/core/assert.h"

#include <SDL2/SDL.h>

#include <algorithm>
#include <cctype>

namespace keel::platform {
namespace {

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

const std::vector<std::string> kNoBindings;
const tween::Signal kNeverSignal;

}  // namespace

Result<InputEvent> parse_binding(std::string_view binding) {
  const usize colon = binding.find(':');
  if (colon == std::string_view::npos) {
    return fail(ErrorCode::kParse, "binding `{}`: expected key:NAME, mouse:NAME or pad:NAME",
                binding);
  }
  const std::string_view device = binding.substr(0, colon);
  const std::string name(binding.substr(colon + 1));
  if (iequals(device, "key")) {
    const SDL_Scancode code = SDL_GetScancodeFromName(name.c_str());
    if (code == SDL_SCANCODE_UNKNOWN)
      return fail(ErrorCode::kNotFound, "binding `{}`: no key `{}`", binding, name);
    return InputEvent{Device::kKey, static_cast<u32>(code), true};
  }
  if (iequals(device, "mouse")) {
    if (iequals(name, "left")) return InputEvent{Device::kMouse, SDL_BUTTON_LEFT, true};
    if (iequals(name, "middle")) return InputEvent{Device::kMouse, SDL_BUTTON_MIDDLE, true};
    if (iequals(name, "right")) return InputEvent{Device::kMouse, SDL_BUTTON_RIGHT, true};
    return fail(ErrorCode::kNotFound, "binding `{}`: mouse buttons are left, middle, right",
                binding);
  }
  if (iequals(device, "pad")) {
    std::string lower = name;
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const SDL_GameControllerButton button = SDL_GameControllerGetButtonFromString(lower.c_str());
    if (button == SDL_CONTROLLER_BUTTON_INVALID) {
      return fail(ErrorCode::kNotFound, "binding `{}`: no controller button `{}`", binding, name);
    }
    return InputEvent{Device::kPad, static_cast<u32>(button), true};
  }
  return fail(ErrorCode::kParse, "binding `{}`: unknown device `{}` (key, mouse, pad)", binding,
              device);
}

SdlInputSource::SdlInputSource() { controllers_ = SDL_InitSubSystem(SDL_INIT_GAMECONTROLLER) == 0; }

SdlInputSource::~SdlInputSource() {
  if (controllers_) SDL_QuitSubSystem(SDL_INIT_GAMECONTROLLER);
}

void SdlInputSource::poll(std::vector<InputEvent>& out) {
  SDL_Event e;
  while (SDL_PollEvent(&e) != 0) {
    switch (e.type) {
      case SDL_QUIT: quit_ = true; break;
      case SDL_KEYDOWN:
      case SDL_KEYUP:
        if (e.key.repeat == 0) {
          out.push_back(
              {Device::kKey, static_cast<u32>(e.key.keysym.scancode), e.type == SDL_KEYDOWN});
        }
        break;
      case SDL_MOUSEBUTTONDOWN:
      case SDL_MOUSEBUTTONUP:
        out.push_back({Device::kMouse, e.button.button, e.type == SDL_MOUSEBUTTONDOWN});
        break;
      case SDL_MOUSEMOTION:
        mouse_ = {static_cast<f32>(e.motion.x), static_cast<f32>(e.motion.y)};
        break;
      case SDL_CONTROLLERDEVICEADDED: SDL_GameControllerOpen(e.cdevice.which); break;
      case SDL_CONTROLLERBUTTONDOWN:
      case SDL_CONTROLLERBUTTONUP:
        out.push_back({Device::kPad, e.cbutton.button, e.type == SDL_CONTROLLERBUTTONDOWN});
        break;
      default: break;
    }
  }
}

void ScriptedInput::poll(std::vector<InputEvent>& out) {
  for (const Scheduled& s : script_) {
    if (s.frame == frame_) out.push_back(s.event);
  }
  ++frame_;
}

void Input::add_action(std::string name, std::vector<std::string> default_bindings) {
  const bool exists = find(name) != nullptr;
  KEEL_ASSERT(!exists, "input action `{}` declared twice", name);
  if (exists) return;
  actions_.push_back({});
  actions_.back().name = std::move(name);
  actions_.back().bindings = std::move(default_bindings);
}

Status Input::add_settings(settings::Settings& settings) {
  std::string clashes;
  for (Action& a : actions_) {
    const std::string name = "bind_" + a.name;
    if (settings.contains(name)) {
      clashes += (clashes.empty() ? "" : ", ") + name;
      continue;
    }
    settings.add(name, a.bindings, "bindings of the action " + a.name);
  }
  if (!clashes.empty())
    return fail(ErrorCode::kAlreadyExists, "settings already exist: {}", clashes);
  return {};
}

Status Input::apply_bindings() {
  std::string errors;
  for (Action& a : actions_) {
    a.parsed.clear();
    for (const std::string& b : a.bindings) {
      Result<InputEvent> e = parse_binding(b);
      if (e) {
        a.parsed.push_back(*e);
      } else {
        errors += (errors.empty() ? "" : "; ") + a.name + ": " + e.error().message();
      }
    }
  }
  if (!errors.empty()) return fail(ErrorCode::kParse, "{}", errors);
  return {};
}

void Input::update(std::span<const InputEvent> events) {
  for (Action& a : actions_) a.pressed = a.released = false;
  for (const InputEvent& e : events) {
    const InputEvent key{e.device, e.code, true};
    const auto held = std::find(held_.begin(), held_.end(), key);
    if (e.down == (held != held_.end())) continue;  // repeated down or stray up
    if (e.down) {
      held_.push_back(key);
    } else {
      held_.erase(held);
    }
    for (Action& a : actions_) {
      if (std::find(a.parsed.begin(), a.parsed.end(), key) == a.parsed.end()) continue;
      if (e.down) {
        if (a.held++ == 0) {
          a.pressed = true;
          a.signal->raise();
        }
      } else if (a.held > 0 && --a.held == 0) {
        a.released = true;
      }
    }
  }
}

const Input::Action* Input::find(std::string_view name) const {
  for (const Action& a : actions_) {
    if (a.name == name) return &a;
  }
  return nullptr;
}

bool Input::down(std::string_view action) const {
  const Action* a = find(action);
  return a != nullptr && a->held > 0;
}
bool Input::pressed(std::string_view action) const {
  const Action* a = find(action);
  return a != nullptr && a->pressed;
}
bool Input::released(std::string_view action) const {
  const Action* a = find(action);
  return a != nullptr && a->released;
}

const tween::Signal& Input::pressed_signal(std::string_view action) const {
  const Action* a = find(action);
  KEEL_ASSERT(a != nullptr, "pressed_signal: no input action `{}`", action);
  return a != nullptr ? *a->signal : kNeverSignal;
}

const std::vector<std::string>& Input::bindings(std::string_view action) const {
  const Action* a = find(action);
  return a != nullptr ? a->bindings : kNoBindings;
}

InputTask::InputTask(Input& input, InputSource& source)
    : Task("input", kPriority), input_(&input), source_(&source) {}

void InputTask::update(const kernel::Frame& /*frame*/) {
  events_.clear();
  source_->poll(events_);
  input_->update(events_);
}

}  // namespace keel::platform
