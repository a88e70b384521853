// The fighters' bodies for drawing: a side-view stick figure posed by joint angles. Each FSM
// animation alias ("Stance", "Attack", "Throw", "Die", ...) is a short list of key poses over the
// clip's progress; a pose between keys is eased with keel::tween (in-out sine). Presentation only:
// the simulation never reads a pose.
//
//   Pose p = pose_at("Attack", 8.0f / 24.0f);     // the jab at its strike frame: arm straight
//   Skeleton s = skeleton(p, {640, 560}, +1, 2.4f); // joints in screen pixels, facing right
//
// Angles are radians from straight down, positive toward the facing direction, so an arm at
// pi/2 points straight ahead. Lower segments (forearm, shin) are relative to their upper one.
#pragma once

#include "keel/core/types.h"
#include "keel/spatial/vec2.h"

#include <string_view>

namespace rumble {

using keel::f32;

struct Pose {
  f32 hip_dy = 0;          // hip height change, figure units (+ up)
  f32 lean = 0;            // torso from upright, + forward
  f32 fall = 0;            // the whole body about the feet, + forward (falls on its face)
  f32 front_arm = 0.9f;    // upper arm
  f32 front_elbow = 1.6f;  // forearm relative to the upper arm
  f32 back_arm = 0.5f;
  f32 back_elbow = 1.9f;
  f32 front_leg = 0.25f;   // thigh
  f32 front_knee = -0.2f;  // shin relative to the thigh
  f32 back_leg = -0.3f;
  f32 back_knee = -0.1f;
};

// The pose of `alias` at progress `t` (0 at the clip's first frame, 1 at its last; clamped). An
// unknown alias is the guard stance.
Pose pose_at(std::string_view alias, f32 t);
// Legs swinging by the distance walked (any units; one stride every 6): added to a pose.
Pose with_walk(Pose pose, f32 distance);
// Linear blend of every angle (tests and blends between clips).
Pose mix(const Pose& a, const Pose& b, f32 w);

// Figure units (scaled by skeleton()).
inline constexpr f32 kThigh = 19, kShin = 19, kTorso = 34, kNeck = 4, kHeadRadius = 9;
inline constexpr f32 kUpperArm = 16, kForearm = 15;

struct Skeleton {
  keel::spatial::Vec2 hip, neck, head;
  keel::spatial::Vec2 front_elbow, front_hand, back_elbow, back_hand;
  keel::spatial::Vec2 front_knee, front_foot, back_knee, back_foot;
};
// The joints of `pose` in screen pixels (y down) for a figure standing on `ground` (the point
// between its feet), facing +1 (right) or -1, `scale` pixels per figure unit.
Skeleton skeleton(const Pose& pose, keel::spatial::Vec2 ground, int facing, f32 scale);

}  // namespace rumble
