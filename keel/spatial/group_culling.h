// Collision culling by groups (Citizen's dev blog): circles with a group id, a data-driven table
// of which groups collide, and a broad phase that rejects whole group pairs by their boxes and
// single members by the other group's box before the circle-circle narrow phase.
//
//   using namespace keel::spatial;
//   GroupTable table = citizen_group_table();        // or GroupTable::parse("allies-enemies ...")
//   GroupCuller culler(table);
//   std::vector<Contact> contacts;
//   culler.find_contacts(obstacles, contacts);       // each frame
//   resolve_contacts(obstacles, contacts);           // mirror velocities, push apart
//   culler.stats().narrow_tests;                     // counters of the last frame
//
// Each frame: (1) members are ordered by (group, left edge) — an insertion sort of last frame's
// order, so coherent motion costs O(n) — and every group gets its bounding box; (2) every
// unordered group pair the table allows, each once (a group with itself too), is skipped unless
// the two group boxes overlap; (3) the members of each group are filtered against the other
// group's box, and the survivors are narrow-tested: all pairs when both sides are small,
// otherwise a sort-and-sweep on the left edges (the sides are already in that order).
// Pairs are reported once, (a, b) with a < b as indices into the obstacle span.
#pragma once

#include "keel/core/error.h"
#include "keel/core/types.h"

#include "keel/spatial/vec2.h"

#include <array>
#include <span>
#include <string_view>
#include <vector>

namespace keel::spatial {

struct Box {
  Vec2 min;
  Vec2 max;
};
inline bool overlaps(const Box& a, const Box& b) {
  return a.min.x <= b.max.x && b.min.x <= a.max.x && a.min.y <= b.max.y && b.min.y <= a.max.y;
}

using GroupId = u8;
inline constexpr usize kMaxGroups = 32;

// Citizen's six groups.
enum CitizenGroup : GroupId {
  kAllies,
  kEnemies,
  kNeutrals,
  kAlliedFire,
  kEnemyFire,
  kNeutralFire,
};

struct Obstacle {
  Vec2 position;
  Vec2 velocity;
  f32 radius = 1;
  GroupId group = 0;
};

// Which groups collide: symmetric, one bit per pair of the kMaxGroups groups.
class GroupTable {
 public:
  void allow(GroupId a, GroupId b);
  bool allows(GroupId a, GroupId b) const {
    return a < kMaxGroups && b < kMaxGroups && ((rows_[a] >> b) & 1u) != 0;
  }
  // Whitespace-separated pairs of group names joined by '-', e.g. "allies-enemies fire-allies";
  // `names[i]` is the name of group i. Unknown names are errors (offset in the text).
  static Result<GroupTable> parse(std::string_view text, std::span<const std::string_view> names);

 private:
  std::array<u32, kMaxGroups> rows_{};
};

// The seed's table: allies-allies, allies-enemies, allies-enemy fire, enemies-enemies,
// enemies-allied fire. Neutrals and neutral fire collide with nothing; enemy fire never hits
// enemies.
GroupTable citizen_group_table();
// Names of CitizenGroup, for GroupTable::parse: "allies", "enemies", "neutrals", "allied_fire",
// "enemy_fire", "neutral_fire".
std::span<const std::string_view> citizen_group_names();

struct Contact {
  u32 a = 0;  // a < b, indices into the obstacles
  u32 b = 0;
  auto operator<=>(const Contact&) const = default;
};

// Counters of the last find_contacts (or brute_force_contacts) call.
struct CullStats {
  u64 group_pairs = 0;        // allowed group pairs with members on both sides
  u64 group_box_tests = 0;    // group box against group box
  u64 member_box_tests = 0;   // member box against the other group's box
  u64 sweep_box_tests = 0;    // member against member boxes inside a sweep
  u64 narrow_tests = 0;       // circle-circle tests
  u64 swept_group_pairs = 0;  // group pairs handled by sort-and-sweep instead of all pairs
  u64 contacts = 0;
};

struct CullOptions {
  // A group pair is swept when the product of its filtered sides' sizes reaches this many
  // (self pairs: n(n-1)/2); below it, all survivor pairs are narrow-tested as in the seed.
  u64 sweep_threshold = 256;
  // The seed's loop, for comparison: only the first group's members are tested against the
  // other group's box, survivors against every member of the other group, and nothing is swept.
  bool seed_one_sided = false;
};

bool circles_touch(const Obstacle& a, const Obstacle& b);

class GroupCuller {
 public:
  explicit GroupCuller(GroupTable table, CullOptions options = {});

  // Every pair (a < b) of touching circles whose groups the table allows, in no set order.
  // Obstacles are identified by index: keep them in the same order from frame to frame (the member
  // order of the last frame is reused); a change of count starts over. Allocates only when the
  // scene grows.
  void find_contacts(std::span<const Obstacle> obstacles, std::vector<Contact>& out);

  const CullStats& stats() const { return stats_; }
  const GroupTable& table() const { return table_; }

 private:
  struct Member {
    f32 min_x, max_x, min_y, max_y;
    u32 index;
    GroupId group;
  };
  struct Range {
    u32 begin = 0, end = 0;
    Box box;
  };

  void order_members(std::span<const Obstacle> obstacles);
  void test_group_pair(std::span<const Obstacle> obstacles, usize g, usize h,
                       std::vector<Contact>& out);
  void all_pairs(std::span<const Obstacle> obstacles, std::span<const Member> a,
                 std::span<const Member> b, bool same, std::vector<Contact>& out);
  void sweep_same(std::span<const Obstacle> obstacles, std::span<const Member> a,
                  std::vector<Contact>& out);
  void sweep_two(std::span<const Obstacle> obstacles, std::span<const Member> a,
                 std::span<const Member> b, std::vector<Contact>& out);
  void narrow(std::span<const Obstacle> obstacles, u32 i, u32 j, std::vector<Contact>& out);

  GroupTable table_;
  CullOptions options_;
  CullStats stats_;
  std::vector<u32> order_;       // obstacle indices by (group, min x), kept between frames
  std::vector<Member> members_;  // in order_
  std::array<Range, kMaxGroups> groups_{};
  std::vector<Member> side_a_, side_b_;
};

// All n(n-1)/2 pairs filtered by the table, each narrow-tested: the reference. stats, when given,
// counts the narrow tests (and contacts).
void brute_force_contacts(std::span<const Obstacle> obstacles, const GroupTable& table,
                          std::vector<Contact>& out, CullStats* stats = nullptr);

// Narrow-phase response for each contact: each circle's velocity is mirrored along the contact
// normal if it moves towards the other, and the two are pushed apart along the normal by half the
// overlap each, so touching circles separate instead of sticking.
void resolve_contacts(std::span<Obstacle> obstacles, std::span<const Contact> contacts);

// Moves every obstacle by velocity * dt and bounces it off the bounds.
void advance(std::span<Obstacle> obstacles, f32 dt, const Box& bounds);

}  // namespace keel::spatial
