#include "poses.h"

#include "keel/tween/easing.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <span>

namespace rumble {
namespace {

using keel::spatial::Vec2;
constexpr f32 kPi = std::numbers::pi_v<f32>;

struct Key {
  f32 t;
  Pose pose;
};

constexpr Pose kGuard{};

// A pose written as the guard with some joints changed.
struct Change {
  f32 hip_dy = 0, lean = 0, fall = 0;
  f32 front_arm = kGuard.front_arm, front_elbow = kGuard.front_elbow;
  f32 back_arm = kGuard.back_arm, back_elbow = kGuard.back_elbow;
  f32 front_leg = kGuard.front_leg, front_knee = kGuard.front_knee;
  f32 back_leg = kGuard.back_leg, back_knee = kGuard.back_knee;
};
constexpr Pose pose(const Change& c) {
  return {c.hip_dy,     c.lean,      c.fall,       c.front_arm, c.front_elbow, c.back_arm,
          c.back_elbow, c.front_leg, c.front_knee, c.back_leg,  c.back_knee};
}

// The key poses of each alias, at clip progress t; strike keys sit on the clips' strike frames
// (roster.txt: the jab strikes on frame 8 of 24, the cross 7 of 22, the uppercut 12 of 30, the
// throws about 16 of 36).
constexpr std::array kStance{
    Key{0, kGuard},
    Key{0.5f, pose({.front_knee = -0.45f, .back_knee = -0.3f})},
    Key{1, kGuard},
};
constexpr std::array kJab{
    Key{0, kGuard},
    Key{0.33f, pose({.lean = 0.15f, .front_arm = kPi / 2, .front_elbow = 0, .back_arm = 0.7f})},
    Key{0.6f, pose({.lean = 0.05f, .front_arm = 1.2f, .front_elbow = 0.9f})},
    Key{1, kGuard},
};
constexpr std::array kCross{
    Key{0, kGuard},
    Key{0.32f, pose({.lean = 0.3f,
                     .front_arm = 0.6f,
                     .front_elbow = 2.0f,
                     .back_arm = kPi / 2,
                     .back_elbow = 0,
                     .back_leg = -0.5f})},
    Key{1, kGuard},
};
constexpr std::array kUppercut{
    Key{0, kGuard},
    Key{0.25f, pose({.lean = 0.25f,
                     .front_arm = 0.3f,
                     .front_elbow = 2.3f,
                     .front_knee = -0.7f,
                     .back_knee = -0.6f})},
    Key{0.4f, pose({.hip_dy = 6, .lean = -0.05f, .front_arm = 2.7f, .front_elbow = 0.4f})},
    Key{1, kGuard},
};
constexpr std::array kThrow{
    Key{0, kGuard},
    Key{0.25f, pose({.lean = 0.35f,
                     .front_arm = 1.5f,
                     .front_elbow = 0.3f,
                     .back_arm = 1.4f,
                     .back_elbow = 0.4f})},
    Key{0.45f, pose({.lean = -0.45f,
                     .front_arm = 2.9f,
                     .front_elbow = 0.5f,
                     .back_arm = 2.8f,
                     .back_elbow = 0.6f,
                     .front_knee = -0.5f})},
    Key{1, kGuard},
};
constexpr std::array kThrown{
    Key{0, kGuard},
    Key{0.15f, pose({.fall = -0.3f, .front_arm = 2.5f, .back_arm = 2.7f})},
    Key{0.5f, pose({.fall = -1.5f, .front_arm = 2.9f, .back_arm = 3.0f, .front_leg = 0.6f})},
    Key{0.75f, pose({.fall = -1.45f, .front_arm = 2.0f, .back_arm = 2.2f, .front_leg = 0.4f})},
    Key{1, kGuard},
};
constexpr std::array kDamaged{
    Key{0, kGuard},
    Key{0.3f, pose({.lean = -0.4f,
                    .front_arm = 0.3f,
                    .front_elbow = 0.5f,
                    .back_arm = -0.3f,
                    .back_elbow = 0.4f,
                    .front_knee = -0.4f})},
    Key{1, kGuard},
};
constexpr std::array kDie{
    Key{0, kGuard},
    Key{0.3f, pose({.lean = -0.3f,
                    .front_arm = 1.8f,
                    .front_elbow = 0.3f,
                    .back_arm = 2.2f,
                    .back_elbow = 0.2f,
                    .front_knee = -0.7f,
                    .back_knee = -0.7f})},
    Key{1, pose({.fall = -kPi / 2,
                 .front_arm = 2.8f,
                 .front_elbow = 0.2f,
                 .back_arm = 3.0f,
                 .back_elbow = 0.2f,
                 .front_leg = 0.1f,
                 .front_knee = 0,
                 .back_leg = -0.1f,
                 .back_knee = 0})},
};

std::span<const Key> keys_of(std::string_view alias) {
  if (alias == "Attack") return kJab;
  if (alias == "Attack2") return kCross;
  if (alias == "Attack3") return kUppercut;
  if (alias == "Throw") return kThrow;
  if (alias == "Thrown") return kThrown;
  if (alias == "Damaged") return kDamaged;
  if (alias == "Die") return kDie;
  return kStance;
}

Vec2 rotate_about_feet(Vec2 p, f32 fall, int facing) {
  const f32 c = std::cos(fall);
  const f32 s = std::sin(fall);
  const f32 f = static_cast<f32>(facing);
  return {p.x * c - f * p.y * s, f * p.x * s + p.y * c};
}

}  // namespace

Pose mix(const Pose& a, const Pose& b, f32 w) {
  const auto m = [w](f32 x, f32 y) { return x + (y - x) * w; };
  return {m(a.hip_dy, b.hip_dy),
          m(a.lean, b.lean),
          m(a.fall, b.fall),
          m(a.front_arm, b.front_arm),
          m(a.front_elbow, b.front_elbow),
          m(a.back_arm, b.back_arm),
          m(a.back_elbow, b.back_elbow),
          m(a.front_leg, b.front_leg),
          m(a.front_knee, b.front_knee),
          m(a.back_leg, b.back_leg),
          m(a.back_knee, b.back_knee)};
}

Pose pose_at(std::string_view alias, f32 t) {
  const std::span<const Key> keys = keys_of(alias);
  t = std::isfinite(t) ? std::clamp(t, 0.0f, 1.0f) : 0.0f;
  for (std::size_t i = 1; i < keys.size(); ++i) {
    if (t <= keys[i].t) {
      const f32 span = keys[i].t - keys[i - 1].t;
      const f32 local = span > 0 ? (t - keys[i - 1].t) / span : 1.0f;
      return mix(keys[i - 1].pose, keys[i].pose,
                 keel::tween::ease(keel::tween::Ease::kInOutSine, local));
    }
  }
  return keys.back().pose;
}

Pose with_walk(Pose pose, f32 distance) {
  if (!std::isfinite(distance)) return pose;
  const f32 phase = distance / 6.0f * 2 * kPi;
  const f32 swing = 0.35f * std::sin(phase);
  pose.front_leg += swing;
  pose.back_leg -= swing;
  pose.front_knee -= 0.3f * std::max(0.0f, std::cos(phase));
  pose.back_knee -= 0.3f * std::max(0.0f, -std::cos(phase));
  return pose;
}

Skeleton skeleton(const Pose& p, Vec2 ground, int facing, f32 scale) {
  const f32 f = facing < 0 ? -1.0f : 1.0f;
  // Figure units, y down, the hip at the origin first.
  const auto dir = [f](f32 angle) { return Vec2{f * std::sin(angle), std::cos(angle)}; };
  Skeleton s;
  s.hip = {0, 0};
  s.front_knee = s.hip + dir(p.front_leg) * kThigh;
  s.front_foot = s.front_knee + dir(p.front_leg + p.front_knee) * kShin;
  s.back_knee = s.hip + dir(p.back_leg) * kThigh;
  s.back_foot = s.back_knee + dir(p.back_leg + p.back_knee) * kShin;
  const Vec2 up{f * std::sin(p.lean), -std::cos(p.lean)};
  s.neck = s.hip + up * kTorso;
  s.head = s.neck + up * (kNeck + kHeadRadius);
  const Vec2 shoulder = s.hip + up * (kTorso - 3);
  s.front_elbow = shoulder + dir(p.front_arm + p.lean) * kUpperArm;
  s.front_hand = s.front_elbow + dir(p.front_arm + p.lean + p.front_elbow) * kForearm;
  s.back_elbow = shoulder + dir(p.back_arm + p.lean) * kUpperArm;
  s.back_hand = s.back_elbow + dir(p.back_arm + p.lean + p.back_elbow) * kForearm;
  // Feet on the ground (the lower foot at y = 0), a jump lifts the whole body, then the fall
  // turns it about the point between the feet.
  const f32 lift = std::max(s.front_foot.y, s.back_foot.y) + std::max(0.0f, p.hip_dy);
  const f32 centre = (s.front_foot.x + s.back_foot.x) * 0.5f;
  Vec2* joints[] = {&s.hip,        &s.neck,       &s.head,      &s.front_elbow,
                    &s.front_hand, &s.back_elbow, &s.back_hand, &s.front_knee,
                    &s.front_foot, &s.back_knee,  &s.back_foot};
  for (Vec2* j : joints) *j = rotate_about_feet({j->x - centre, j->y - lift}, p.fall, facing);
  // A fallen body lies on the floor, not in it: nothing (the head's disc included) below y = 0.
  f32 lowest = s.head.y + kHeadRadius;
  for (const Vec2* j : joints) lowest = std::max(lowest, j->y);
  for (Vec2* j : joints) *j = ground + Vec2{j->x, j->y - std::max(0.0f, lowest)} * scale;
  return s;
}

}  // namespace rumble
