#include "roster.h"

#include "keel/core/utility.h"

#include "keel/text/document.h"
#include "keel/text/signature.h"

#include <algorithm>

namespace rumble {

namespace text = keel::text;

s32 Roster::damage_of(const keel::fsm::AnimationClip& clip) const {
  const auto it = damage.find(keel::string_hash(clip.name));
  return it != damage.end() ? it->second : 0;
}

const FighterSpec* Roster::find_fighter(std::string_view name) const {
  for (const FighterSpec& f : fighters) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

namespace {

bool positive(const text::Token& t, text::Diagnostics& diag, s32 min) {
  const s32 v = t.as_int();
  if (v < min || t.number != static_cast<double>(v)) {
    diag.error(t, "expected a whole number of at least {}, got {}", min, t.text);
    return false;
  }
  return true;
}

void read_clip(const text::Token& cmd, Roster& roster, text::Diagnostics& diag) {
  if (!text::check_command(cmd, diag, {text::kString, text::kNumber},
                           {.conditional = text::Conditional::kAllowed})) {
    return;
  }
  if (!positive(*cmd.param(1), diag, 1)) return;
  if (roster.find_clip(cmd.param(0)->text) != nullptr) {
    diag.error(*cmd.param(0), "clip '{}' is defined twice", cmd.param(0)->text);
    return;
  }
  keel::fsm::AnimationClip clip{.name = std::string(cmd.param(0)->text),
                                .frame_count = static_cast<u32>(cmd.param(1)->as_int()),
                                .blend_frames = kDefaultClipBlend};
  s32 damage = 0;
  for (const text::Token& sub : text::chain(cmd.conditional)) {
    if (sub.is("Damage") || sub.is("Blend")) {
      if (!text::check_command(sub, diag, {text::kNumber})) continue;
      if (!positive(*sub.param(0), diag, 0)) continue;
      if (sub.is("Damage")) {
        damage = sub.param(0)->as_int();
      } else {
        clip.blend_frames = static_cast<u32>(sub.param(0)->as_int());
      }
    } else if (sub.is("Key")) {
      if (!text::check_command(sub, diag, {text::kNumber, text::kString})) continue;
      if (!positive(*sub.param(0), diag, 0)) continue;
      const u32 frame = static_cast<u32>(sub.param(0)->as_int());
      if (frame >= clip.frame_count) {
        diag.error(*sub.param(0), "key frame {} is past the end of '{}' ({} frames)", frame,
                   clip.name, clip.frame_count);
        continue;
      }
      clip.marks.push_back({frame, std::string(sub.param(1)->text)});
    } else {
      diag.error(sub, "unknown clip command `{}` (expected Damage, Blend or Key)", sub.text);
    }
  }
  keel::stable_sort(clip.marks,
                    [](const keel::fsm::AnimationMark& a, const keel::fsm::AnimationMark& b) {
                      return a.frame < b.frame;
                    });
  roster.damage[keel::string_hash(clip.name)] = damage;
  // The checks above are the library's own (frames, marks in range, a new name): it accepts.
  const keel::Status added = roster.clips.add(std::move(clip));
  if (!added) diag.error(cmd, "{}", added.error().message());
}

struct PendingAnimation {
  usize fighter;
  const text::Token* clip;
};

void read_fighter(const text::Token& cmd, Roster& roster, text::Diagnostics& diag,
                  std::vector<PendingAnimation>& pending) {
  if (!text::check_command(cmd, diag, {text::kString, text::kString},
                           {.conditional = text::Conditional::kAllowed})) {
    return;
  }
  if (roster.find_fighter(cmd.param(0)->text) != nullptr) {
    diag.error(*cmd.param(0), "fighter '{}' is defined twice", cmd.param(0)->text);
    return;
  }
  FighterSpec f;
  f.name = std::string(cmd.param(0)->text);
  f.fsm = std::string(cmd.param(1)->text);
  for (const text::Token& sub : text::chain(cmd.conditional)) {
    if (sub.is("Animation")) {
      if (!text::check_command(sub, diag, {text::kString, text::kString})) continue;
      f.animation_names.emplace_back(sub.param(0)->text, sub.param(1)->text);
      pending.push_back({roster.fighters.size(), sub.param(1)});
      continue;
    }
    s32* field = sub.is("Health")     ? &f.health
                 : sub.is("Position") ? &f.position
                 : sub.is("Reach")    ? &f.reach
                 : sub.is("Speed")    ? &f.speed
                                      : nullptr;
    if (field == nullptr) {
      diag.error(sub,
                 "unknown fighter command `{}` (expected Health, Position, Reach, Speed or "
                 "Animation)",
                 sub.text);
      continue;
    }
    if (!text::check_command(sub, diag, {text::kNumber})) continue;
    const bool can_be_negative = field == &f.position;
    if (!can_be_negative && !positive(*sub.param(0), diag, 1)) continue;
    *field = sub.param(0)->as_int();
  }
  roster.fighters.push_back(std::move(f));
}

}  // namespace

bool read_roster(const text::Token* first, Roster& roster, text::Diagnostics& diag) {
  const usize errors_before = diag.error_count();
  std::vector<PendingAnimation> pending;
  for (const text::Token& cmd : text::chain(first)) {
    if (cmd.is("Clip")) {
      read_clip(cmd, roster, diag);
    } else if (cmd.is("Fighter")) {
      read_fighter(cmd, roster, diag, pending);
    } else {
      diag.error(cmd, "unknown roster command `{}` (expected Clip or Fighter)", cmd.text);
    }
  }
  // Clips may be defined after the fighters that use them.
  for (const PendingAnimation& p : pending) {
    if (roster.find_clip(p.clip->text) == nullptr) {
      diag.error(*p.clip, "fighter '{}' uses clip '{}', which is not defined",
                 roster.fighters[p.fighter].name, p.clip->text);
    }
  }
  for (FighterSpec& f : roster.fighters) {
    for (const auto& [alias, clip_name] : f.animation_names) f.aliases.set(alias, clip_name);
  }
  return diag.error_count() == errors_before;
}

keel::Result<Roster> load_roster(const std::filesystem::path& path) {
  text::Diagnostics diag;
  std::unique_ptr<text::Document> doc = text::parse_file(path, diag);
  Roster roster;
  if (doc == nullptr || !read_roster(doc->first(), roster, diag)) {
    return keel::fail(keel::ErrorCode::kParse, "{}", doc ? diag.render(*doc) : diag.render());
  }
  return roster;
}

}  // namespace rumble
