#include "keel/fsm/compiler/simulator.h"

namespace keel::fsm {

Simulator::Simulator(const FsmDef& fsm, Output output, u64 seed)
    : fsm_(&fsm), output_(std::move(output)), env_(functions_, seed) {
  for (const Hash h : fsm.functions()) {
    (void)functions_.declare(fsm.string(h), [](FsmInstance&) {});  // on_execute prints the call
  }
  env_.set_observer(this);
  env_.set_error_handler([](FsmInstance&, std::string_view) {});  // on_error prints it
}

Status Simulator::start() {
  print(fmt::format("start {} ({})", fsm_->name_string, fsm_->type_string));
  if (Status s = instance_.init(nullptr, *fsm_, env_); !s) return s;
  print(fmt::format("  = {}", status()));
  return ok();
}

EventResult Simulator::event(std::string_view name) {
  print(fmt::format("> {}", name));
  top_level_ = true;
  const Hash h = string_hash(name);
  const EventResult result = h == fsm_->run_event ? instance_.run() : instance_.event(h);
  print(fmt::format("  = {}, {}", to_string(result), status()));
  return result;
}

std::string Simulator::status() const {
  const u32 bits = instance_.behavior();
  std::string names;
  for (u32 b = 0; b < 32; ++b) {
    if (((bits >> b) & 1) == 0) continue;
    if (!names.empty()) names += ' ';
    const std::string_view n = fsm_->behavior_name(b);
    names += n.empty() ? fmt::format("bit{}", b) : std::string(n);
  }
  std::string flags;
  for (u32 b = 0; b < instance_.state().flag_count; ++b) {
    if (((instance_.flags() >> b) & 1) == 0) continue;
    flags += fmt::format("{}{}", flags.empty() ? "" : " ", instance_.state().view.flag_name(b));
  }
  return fmt::format("state {}, behaviour 0x{:X} [{}]{}", instance_.state_name(), bits, names,
                     flags.empty() ? "" : fmt::format(", flags [{}]", flags));
}

void Simulator::print(std::string text) const { output_(text); }

void Simulator::on_event(FsmInstance&, Hash event, bool handled) {
  if (top_level_) {
    top_level_ = false;
    if (!handled) print("  (no handler)");
    return;
  }
  print(fmt::format("  event {}{}", fsm_->string(event), handled ? "" : " (no handler)"));
}

void Simulator::on_transition(FsmInstance&, const StateDef* from, const StateDef& to) {
  if (from == nullptr) {
    print(fmt::format("  enter {}", to.name_string));
  } else {
    print(fmt::format("  {} -> {}", from->name_string, to.name_string));
  }
}

void Simulator::on_execute(FsmInstance&, Hash function) {
  print(fmt::format("  call {}", fsm_->string(function)));
}

void Simulator::on_animation(FsmInstance&, const AnimationRequest& r) {
  std::string mods;
  auto add = [&](bool on, std::string_view name) {
    if (!on) return;
    if (!mods.empty()) mods += ' ';
    mods += name;
  };
  add(r.blend(), "blend");
  add(r.repeat(), "repeat");
  add(r.reverse(), "reverse");
  add(r.keep_frame(), "keepframe");
  print(fmt::format("  animation {} [{}]", fsm_->string(r.alias), mods));
}

void Simulator::on_error(FsmInstance&, std::string_view message) {
  print(fmt::format("  error: {}", message));
}

std::vector<std::string> Simulator::parse_events(std::string_view text) {
  std::vector<std::string> events;
  while (!text.empty()) {
    const usize end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    if (const usize hash = line.find('#'); hash != std::string_view::npos)
      line = line.substr(0, hash);
    while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
    while (!line.empty() && (line.back() == ' ' || line.back() == '\t' || line.back() == '\r')) {
      line.remove_suffix(1);
    }
    if (!line.empty()) events.emplace_back(line);
  }
  return events;
}

}  // namespace keel::fsm
