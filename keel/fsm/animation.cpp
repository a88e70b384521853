#include "keel/fsm/animation.h"

#include "keel/fsm/instance.h"

namespace keel::fsm {

namespace {
constexpr Hash kAnimDone = string_hash("anim_done");

Hash keyframe_event(std::string_view mark) {
  Hash h = string_hash("keyframe_");
  for (char c : mark) h = rotate_left(h, 7) + static_cast<u8>(c);
  return h;
}
}  // namespace

Status AnimationLibrary::add(AnimationClip clip) {
  if (clip.frame_count == 0)
    return fail(ErrorCode::kInvalidArgument, "clip '{}' has no frames", clip.name);
  const Hash h = string_hash(clip.name);
  if (by_name_.contains(h))
    return fail(ErrorCode::kAlreadyExists, "clip '{}' already exists", clip.name);
  Stored stored{std::move(clip), {}};
  for (const AnimationMark& m : stored.clip.marks) {
    if (m.frame >= stored.clip.frame_count) {
      return fail(ErrorCode::kOutOfRange, "clip '{}': mark '{}' at frame {} of {}",
                  stored.clip.name, m.name, m.frame, stored.clip.frame_count);
    }
    stored.events.emplace_back(m.frame, keyframe_event(m.name));
  }
  clips_.push_back(std::move(stored));
  by_name_.emplace(h, &clips_.back());
  return ok();
}

const AnimationLibrary::Stored* AnimationLibrary::find_stored(Hash name) const {
  const auto it = by_name_.find(name);
  return it != by_name_.end() ? it->second : nullptr;
}

const AnimationClip* AnimationLibrary::find(Hash name) const {
  const Stored* s = find_stored(name);
  return s != nullptr ? &s->clip : nullptr;
}

void AliasTable::set(std::string_view alias, std::string_view clip) {
  map_[string_hash(alias)] = string_hash(clip);
}

std::optional<Hash> AliasTable::find(Hash alias) const {
  const auto it = map_.find(alias);
  if (it == map_.end()) return std::nullopt;
  return it->second;
}

void Animator::play(FsmInstance& instance, const AnimationRequest& request) {
  const std::optional<Hash> clip_name = aliases_->find(request.alias);
  if (!clip_name) {
    instance.report_error(
        fmt::format("no clip for animation alias '{}'", instance.fsm().string(request.alias)));
    return;
  }
  const AnimationLibrary::Stored* next = clips_->find_stored(*clip_name);
  if (next == nullptr) {
    instance.report_error(fmt::format("animation alias '{}' names a clip that does not exist",
                                      instance.fsm().string(request.alias)));
    return;
  }
  const u32 count = next->clip.frame_count;
  u32 frame = request.reverse() ? count - 1 : 0;
  if (request.keep_frame() && current_ != nullptr) {
    // The same proportion of the new clip, truncated: frame 25 of 100 -> frame 12 of 50.
    frame = static_cast<u32>(u64{frame_} * count / current_->clip.frame_count);
  }
  blend_left_ = (request.blend() && current_ != nullptr)
                    ? next->clip.blend_frames.value_or(blend_frames_)
                    : 0;
  current_ = next;
  frame_ = frame;
  reverse_ = request.reverse();
  repeat_ = request.repeat();
  holding_ = false;
  ++generation_;
}

void AnimationListener::before_event(FsmInstance&, const AnimationEvent&) {}
void AnimationListener::after_event(FsmInstance&, const AnimationEvent&, EventResult) {}

namespace {
EventResult send(FsmInstance& instance, const AnimationEvent& event, AnimationListener* listener) {
  if (listener == nullptr) return instance.event(event.event);
  listener->before_event(instance, event);
  const EventResult result = instance.event(event.event);
  listener->after_event(instance, event, result);
  return result;
}
}  // namespace

void Animator::update(FsmInstance& instance, AnimationListener* listener) {
  if (current_ == nullptr) return;
  if (blend_left_ > 0) --blend_left_;
  if (holding_) return;
  const AnimationClip& clip = current_->clip;
  const u32 last = reverse_ ? 0 : clip.frame_count - 1;
  const u32 first = reverse_ ? clip.frame_count - 1 : 0;
  if (frame_ == last) {
    if (!repeat_) {  // started on its last frame (a one-frame clip, or keepframe)
      holding_ = true;
      send(instance, {kAnimDone, nullptr, &clip, frame_}, listener);
      return;
    }
    frame_ = first;
  } else {
    frame_ = reverse_ ? frame_ - 1 : frame_ + 1;
  }
  // The events of the frame reached; a handler that starts another clip ends this update.
  const u32 generation = generation_;
  for (usize i = 0; i < current_->events.size(); ++i) {
    const auto& [frame, event] = current_->events[i];
    if (frame != frame_) continue;
    send(instance, {event, &clip.marks[i], &clip, frame_}, listener);
    if (generation_ != generation) return;
  }
  if (frame_ == last) {
    send(instance, {kAnimDone, nullptr, &clip, frame_}, listener);
    if (generation_ == generation && !repeat_) holding_ = true;
  }
}

Animator::Snapshot Animator::snapshot() const {
  return {current_ != nullptr ? string_hash(current_->clip.name) : Hash{0},
          frame_,
          blend_left_,
          generation_,
          reverse_,
          repeat_,
          holding_};
}

Status Animator::restore(const Snapshot& snapshot) {
  const AnimationLibrary::Stored* clip = nullptr;
  if (snapshot.clip != 0) {
    clip = clips_->find_stored(snapshot.clip);
    if (clip == nullptr) {
      return Unexpected(Error(ErrorCode::kNotFound,
                              fmt::format("animation snapshot names a clip (hash {:#x}) the "
                                          "library does not have",
                                          snapshot.clip)));
    }
    if (snapshot.frame >= clip->clip.frame_count) {
      return Unexpected(
          Error(ErrorCode::kInvalidArgument,
                fmt::format("animation snapshot: frame {} of clip '{}' with {} "
                            "frame(s)",
                            snapshot.frame, clip->clip.name, clip->clip.frame_count)));
    }
  } else if (snapshot.frame != 0) {
    return Unexpected(
        Error(ErrorCode::kInvalidArgument, "animation snapshot: a frame but no clip"));
  }
  current_ = clip;
  frame_ = snapshot.frame;
  blend_left_ = snapshot.blend_left;
  generation_ = snapshot.generation;
  reverse_ = snapshot.reverse;
  repeat_ = snapshot.repeat;
  holding_ = snapshot.holding;
  return {};
}

}  // namespace keel::fsm
