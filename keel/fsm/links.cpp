// FsmInstance links (Golden Rules ch. 7, "Linking FSMs"): two-way or one-way, consensual
// ("link_<name>" + AcceptLink) or not ("always"), one target or a broadcast.
#include "keel/core/assert.h"
#include "keel/fsm/instance.h"

#include <algorithm>

namespace keel::fsm {

namespace {
// hash(prefix + name) without building the string: the rotate-left hash folds byte by byte.
constexpr Hash continue_hash(Hash prefix, std::string_view rest) {
  for (char c : rest) prefix = rotate_left(prefix, 7) + static_cast<u8>(c);
  return prefix;
}
}  // namespace

FsmInstance::LinkState& FsmInstance::link_state() {
  if (links_ == nullptr) links_ = std::make_unique<LinkState>();
  return *links_;
}

bool FsmInstance::create_link(FsmInstance& target) {
  // The name and flags only exist inside the callback of a CreateLink command.
  if (links_ == nullptr || links_->pending == nullptr) return false;
  return form_link(target, *links_->pending);
}

bool FsmInstance::create_link(FsmInstance& target, std::string_view name, u8 flags) {
  if (name.empty() || (flags & ~(kLinkOneWay | kLinkAlways)) != 0) return false;
  const PendingLink link{string_hash(name), continue_hash(string_hash("link_"), name),
                         continue_hash(string_hash("unlink_"), name), flags};
  return form_link(target, link);
}

void FsmInstance::create_link_command(const u32* command) {
  const PendingLink link{command[1], command[3], command[4], static_cast<u8>(header_a(command[0]))};
  LinkState& state = link_state();
  const PendingLink* outer = state.pending;
  state.pending = &link;
  call(command[2]);
  state.pending = outer;
}

bool FsmInstance::form_link(FsmInstance& target, const PendingLink& link) {
  if (&target == this || !initialized() || !target.initialized()) return false;
  if (linked_to(&target, link.name)) return true;
  if ((link.flags & kLinkAlways) == 0) {
    // The handshake: the target must run AcceptLink() in its "link_<name>" handler.
    LinkState& other = target.link_state();
    const bool outer_accepting = other.accepting;
    const bool outer_accepted = other.accepted;
    other.accepting = true;
    other.accepted = false;
    target.event(link.link_event);
    const bool accepted = other.accepted;
    other.accepting = outer_accepting;
    other.accepted = outer_accepted;
    if (!accepted || !initialized() || !target.initialized()) {
      if (env_->observer_ != nullptr) env_->observer_->on_link(*this, target, link.name, false);
      return false;
    }
    if (linked_to(&target, link.name)) return true;  // the handshake linked back already
  }
  link_state().links.push_back(Link{link.name, link.unlink_event, &target, link.flags, true});
  target.link_state().links.push_back(Link{link.name, link.unlink_event, this, link.flags, false});
  if (env_->observer_ != nullptr) env_->observer_->on_link(*this, target, link.name, true);
  return true;
}

bool FsmInstance::has_link(Hash name) const {
  const std::span<const Link> all = links();
  return std::any_of(all.begin(), all.end(), [&](const Link& l) { return l.name == name; });
}

bool FsmInstance::linked_to(const FsmInstance* other, Hash name) const {
  const std::span<const Link> all = links();
  return std::any_of(all.begin(), all.end(),
                     [&](const Link& l) { return l.name == name && l.other == other; });
}

void FsmInstance::send(Hash link, Hash event) {
  if (links_ == nullptr) return;
  // Copy the targets first: handlers may create or break links while the event travels.
  std::vector<FsmInstance*>& scratch = env_->send_scratch_;
  const usize base = scratch.size();
  for (const Link& l : links_->links) {
    if (l.name == link && l.can_send()) scratch.push_back(l.other);
  }
  const usize end = scratch.size();
  for (usize i = base; i < end; ++i) {
    FsmInstance* target = env_->send_scratch_[i];
    if (linked_to(target, link)) target->event(event);
  }
  env_->send_scratch_.resize(base);
}

void FsmInstance::break_link(Hash name) {
  if (env_ == nullptr || links_ == nullptr) return;
  std::vector<Environment::BreakTarget>& scratch = env_->break_scratch_;
  const usize base = scratch.size();
  for (const Link& l : links_->links) {
    if (l.name != name) continue;
    // One-way links are simply broken; two-way partners hear "unlink_<name>".
    scratch.push_back({l.other, l.unlink_event, (l.flags & kLinkOneWay) == 0});
    std::erase_if(l.other->links_->links,
                  [&](const Link& back) { return back.name == name && back.other == this; });
  }
  std::erase_if(links_->links, [&](const Link& l) { return l.name == name; });
  const usize end = scratch.size();
  for (usize i = base; i < end; ++i) {
    const Environment::BreakTarget t = env_->break_scratch_[i];
    if (env_->observer_ != nullptr) env_->observer_->on_unlink(*this, *t.other, name);
    if (t.notify && t.other->initialized()) t.other->event(t.unlink_event);
  }
  env_->break_scratch_.resize(base);
}

void FsmInstance::unlink_all() {
  if (links_ == nullptr) return;
  for (const Link& l : links_->links) {
    std::erase_if(l.other->links_->links, [&](const Link& back) { return back.other == this; });
  }
  links_->links.clear();
}

}  // namespace keel::fsm
