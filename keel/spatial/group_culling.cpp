#include "keel/spatial/group_culling.h"

#include "keel/core/assert.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <numeric>

namespace keel::spatial {

void GroupTable::allow(GroupId a, GroupId b) {
  KEEL_ASSERT(a < kMaxGroups && b < kMaxGroups, "GroupTable::allow: group {} or {} is >= {}", a, b,
              kMaxGroups);
  if (a >= kMaxGroups || b >= kMaxGroups) return;
  rows_[a] |= 1u << b;
  rows_[b] |= 1u << a;
}

namespace {

SourceLocation location_in(std::string_view text, usize offset) {
  u32 line = 1;
  u32 column = 1;
  for (usize i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return SourceLocation::text("", line, column);
}

}  // namespace

Result<GroupTable> GroupTable::parse(std::string_view text,
                                     std::span<const std::string_view> names) {
  if (names.size() > kMaxGroups) {
    return fail(ErrorCode::kOutOfRange, "{} group names; at most {} groups", names.size(),
                kMaxGroups);
  }
  const auto id_of = [&](std::string_view name) -> int {
    const auto it = std::ranges::find(names, name);
    return it == names.end() ? -1 : static_cast<int>(it - names.begin());
  };
  GroupTable table;
  usize at = 0;
  while (at < text.size()) {
    if (std::isspace(static_cast<unsigned char>(text[at])) != 0) {
      ++at;
      continue;
    }
    usize end = at;
    while (end < text.size() && std::isspace(static_cast<unsigned char>(text[end])) == 0) ++end;
    const std::string_view token = text.substr(at, end - at);
    const usize dash = token.find('-');
    if (dash == std::string_view::npos) {
      return fail_at(location_in(text, at), ErrorCode::kParse,
                     "expected a group pair 'a-b', found '{}'", token);
    }
    const int a = id_of(token.substr(0, dash));
    const int b = id_of(token.substr(dash + 1));
    if (a < 0 || b < 0) {
      const usize bad = a < 0 ? at : at + dash + 1;
      return fail_at(location_in(text, bad), ErrorCode::kNotFound, "unknown group '{}'",
                     a < 0 ? token.substr(0, dash) : token.substr(dash + 1));
    }
    table.allow(static_cast<GroupId>(a), static_cast<GroupId>(b));
    at = end;
  }
  return table;
}

GroupTable citizen_group_table() {
  GroupTable t;
  t.allow(kAllies, kAllies);
  t.allow(kAllies, kEnemies);
  t.allow(kAllies, kEnemyFire);
  t.allow(kEnemies, kEnemies);
  t.allow(kEnemies, kAlliedFire);
  return t;
}

std::span<const std::string_view> citizen_group_names() {
  static constexpr std::array<std::string_view, 6> kNames = {
      "allies", "enemies", "neutrals", "allied_fire", "enemy_fire", "neutral_fire"};
  return kNames;
}

bool circles_touch(const Obstacle& a, const Obstacle& b) {
  const f32 dx = b.position.x - a.position.x;
  const f32 dy = b.position.y - a.position.y;
  const f32 r = a.radius + b.radius;
  return dx * dx + dy * dy < r * r;
}

GroupCuller::GroupCuller(GroupTable table, CullOptions options)
    : table_(table), options_(options) {}

void GroupCuller::order_members(std::span<const Obstacle> obstacles) {
  const usize n = obstacles.size();
  if (order_.size() != n) {
    order_.resize(n);
    std::iota(order_.begin(), order_.end(), u32{0});
  }
  members_.resize(n);
  for (usize i = 0; i < n; ++i) {
    const Obstacle& o = obstacles[order_[i]];
    members_[i] = Member{.min_x = o.position.x - o.radius,
                         .max_x = o.position.x + o.radius,
                         .min_y = o.position.y - o.radius,
                         .max_y = o.position.y + o.radius,
                         .index = order_[i],
                         .group = o.group};
  }
  const auto before = [](const Member& a, const Member& b) {
    return a.group != b.group ? a.group < b.group : a.min_x < b.min_x;
  };
  // Insertion sort of last frame's order: linear when little moved; a full sort when too much did.
  const usize budget = 8 * n + 64;
  usize moves = 0;
  for (usize i = 1; i < n && moves <= budget; ++i) {
    const Member m = members_[i];
    usize j = i;
    for (; j > 0 && before(m, members_[j - 1]); --j) members_[j] = members_[j - 1];
    members_[j] = m;
    moves += i - j;
  }
  if (moves > budget) std::sort(members_.begin(), members_.end(), before);
  for (usize i = 0; i < n; ++i) order_[i] = members_[i].index;

  groups_.fill(Range{});
  for (usize i = 0; i < n;) {
    const GroupId g = members_[i].group;
    usize end = i;
    Box box{{members_[i].min_x, members_[i].min_y}, {members_[i].max_x, members_[i].max_y}};
    for (; end < n && members_[end].group == g; ++end) {
      box.min.x = std::min(box.min.x, members_[end].min_x);
      box.max.x = std::max(box.max.x, members_[end].max_x);
      box.min.y = std::min(box.min.y, members_[end].min_y);
      box.max.y = std::max(box.max.y, members_[end].max_y);
    }
    KEEL_ASSERT(g < kMaxGroups,
                "GroupCuller: obstacle group {} is >= {} (it collides with nothing)", g,
                kMaxGroups);
    if (g < kMaxGroups) groups_[g] = Range{static_cast<u32>(i), static_cast<u32>(end), box};
    i = end;
  }
}

void GroupCuller::find_contacts(std::span<const Obstacle> obstacles, std::vector<Contact>& out) {
  out.clear();
  stats_ = {};
  order_members(obstacles);
  for (usize g = 0; g < kMaxGroups; ++g) {
    if (groups_[g].begin == groups_[g].end) continue;
    for (usize h = g; h < kMaxGroups; ++h) {
      if (groups_[h].begin == groups_[h].end) continue;
      if (table_.allows(static_cast<GroupId>(g), static_cast<GroupId>(h))) {
        test_group_pair(obstacles, g, h, out);
      }
    }
  }
  stats_.contacts = out.size();
}

void GroupCuller::test_group_pair(std::span<const Obstacle> obstacles, usize g, usize h,
                                  std::vector<Contact>& out) {
  ++stats_.group_pairs;
  ++stats_.group_box_tests;
  const Range& rg = groups_[g];
  const Range& rh = groups_[h];
  if (!overlaps(rg.box, rh.box)) return;
  const std::span<const Member> all(members_);
  if (g == h) {  // every member is inside its own group's box: nothing to filter
    const std::span<const Member> side = all.subspan(rg.begin, rg.end - rg.begin);
    const u64 n = side.size();
    if (n * (n - 1) / 2 >= options_.sweep_threshold && !options_.seed_one_sided) {
      ++stats_.swept_group_pairs;
      sweep_same(obstacles, side, out);
    } else {
      all_pairs(obstacles, side, side, true, out);
    }
    return;
  }
  // Each side's members against the other group's box; both stay in left-edge order.
  const auto filter = [&](const Range& from, const Box& against, std::vector<Member>& kept) {
    kept.clear();
    for (u32 i = from.begin; i < from.end; ++i) {
      const Member& m = members_[i];
      if (m.min_x <= against.max.x && against.min.x <= m.max_x && m.min_y <= against.max.y &&
          against.min.y <= m.max_y) {
        kept.push_back(m);
      }
    }
    stats_.member_box_tests += from.end - from.begin;
  };
  filter(rg, rh.box, side_a_);
  if (side_a_.empty()) return;
  if (options_.seed_one_sided) {
    all_pairs(obstacles, side_a_, all.subspan(rh.begin, rh.end - rh.begin), false, out);
    return;
  }
  filter(rh, rg.box, side_b_);
  if (side_b_.empty()) return;
  if (u64{side_a_.size()} * side_b_.size() >= options_.sweep_threshold) {
    ++stats_.swept_group_pairs;
    sweep_two(obstacles, side_a_, side_b_, out);
  } else {
    all_pairs(obstacles, side_a_, side_b_, false, out);
  }
}

void GroupCuller::narrow(std::span<const Obstacle> obstacles, u32 i, u32 j,
                         std::vector<Contact>& out) {
  ++stats_.narrow_tests;
  if (circles_touch(obstacles[i], obstacles[j])) {
    out.push_back(i < j ? Contact{i, j} : Contact{j, i});
  }
}

void GroupCuller::all_pairs(std::span<const Obstacle> obstacles, std::span<const Member> a,
                            std::span<const Member> b, bool same, std::vector<Contact>& out) {
  for (usize i = 0; i < a.size(); ++i) {
    for (usize j = same ? i + 1 : 0; j < b.size(); ++j)
      narrow(obstacles, a[i].index, b[j].index, out);
  }
}

namespace {
bool y_overlap(const auto& a, const auto& b) { return a.min_y <= b.max_y && b.min_y <= a.max_y; }
}  // namespace

void GroupCuller::sweep_same(std::span<const Obstacle> obstacles, std::span<const Member> a,
                             std::vector<Contact>& out) {
  for (usize i = 0; i < a.size(); ++i) {
    const Member& m = a[i];
    for (usize j = i + 1; j < a.size() && a[j].min_x <= m.max_x; ++j) {
      ++stats_.sweep_box_tests;
      if (y_overlap(m, a[j])) narrow(obstacles, m.index, a[j].index, out);
    }
  }
}

void GroupCuller::sweep_two(std::span<const Obstacle> obstacles, std::span<const Member> a,
                            std::span<const Member> b, std::vector<Contact>& out) {
  // Merge by left edge: whichever side starts next is tested against the other side's members
  // that start before it ends (and not before it starts: those found it already).
  usize i = 0;
  usize j = 0;
  while (i < a.size() && j < b.size()) {
    if (a[i].min_x <= b[j].min_x) {
      const Member& m = a[i++];
      for (usize k = j; k < b.size() && b[k].min_x <= m.max_x; ++k) {
        ++stats_.sweep_box_tests;
        if (y_overlap(m, b[k])) narrow(obstacles, m.index, b[k].index, out);
      }
    } else {
      const Member& m = b[j++];
      for (usize k = i; k < a.size() && a[k].min_x <= m.max_x; ++k) {
        ++stats_.sweep_box_tests;
        if (y_overlap(m, a[k])) narrow(obstacles, a[k].index, m.index, out);
      }
    }
  }
}

void brute_force_contacts(std::span<const Obstacle> obstacles, const GroupTable& table,
                          std::vector<Contact>& out, CullStats* stats) {
  out.clear();
  u64 tests = 0;
  for (u32 i = 0; i < obstacles.size(); ++i) {
    for (u32 j = i + 1; j < obstacles.size(); ++j) {
      if (!table.allows(obstacles[i].group, obstacles[j].group)) continue;
      ++tests;
      if (circles_touch(obstacles[i], obstacles[j])) out.push_back({i, j});
    }
  }
  if (stats != nullptr) {
    *stats = {};
    stats->narrow_tests = tests;
    stats->contacts = out.size();
  }
}

void resolve_contacts(std::span<Obstacle> obstacles, std::span<const Contact> contacts) {
  for (const Contact& c : contacts) {
    KEEL_ASSERT(c.a < obstacles.size() && c.b < obstacles.size(),
                "resolve_contacts: contact ({}, {}) is outside the {} obstacles", c.a, c.b,
                obstacles.size());
    if (c.a >= obstacles.size() || c.b >= obstacles.size() || c.a == c.b) continue;
    Obstacle& a = obstacles[c.a];
    Obstacle& b = obstacles[c.b];
    const f32 dx = b.position.x - a.position.x;
    const f32 dy = b.position.y - a.position.y;
    const f32 dist = std::sqrt(dx * dx + dy * dy);
    const Vec2 n = dist > 1e-6f ? Vec2{dx / dist, dy / dist} : Vec2{1, 0};
    // Mirror each velocity along the normal when it points into the other circle.
    const f32 va = a.velocity.x * n.x + a.velocity.y * n.y;
    if (va > 0) a.velocity = {a.velocity.x - 2 * va * n.x, a.velocity.y - 2 * va * n.y};
    const f32 vb = b.velocity.x * n.x + b.velocity.y * n.y;
    if (vb < 0) b.velocity = {b.velocity.x - 2 * vb * n.x, b.velocity.y - 2 * vb * n.y};
    // Project apart: half the overlap each, plus a hair so they no longer touch.
    const f32 overlap = a.radius + b.radius - dist;
    if (overlap <= 0) continue;
    const f32 push = 0.5f * overlap + 1e-4f * (a.radius + b.radius);
    a.position = {a.position.x - push * n.x, a.position.y - push * n.y};
    b.position = {b.position.x + push * n.x, b.position.y + push * n.y};
  }
}

void advance(std::span<Obstacle> obstacles, f32 dt, const Box& bounds) {
  for (Obstacle& o : obstacles) {
    o.position.x += o.velocity.x * dt;
    o.position.y += o.velocity.y * dt;
    if (o.position.x - o.radius < bounds.min.x) {
      o.position.x = bounds.min.x + o.radius;
      o.velocity.x = std::abs(o.velocity.x);
    } else if (o.position.x + o.radius > bounds.max.x) {
      o.position.x = bounds.max.x - o.radius;
      o.velocity.x = -std::abs(o.velocity.x);
    }
    if (o.position.y - o.radius < bounds.min.y) {
      o.position.y = bounds.min.y + o.radius;
      o.velocity.y = std::abs(o.velocity.y);
    } else if (o.position.y + o.radius > bounds.max.y) {
      o.position.y = bounds.max.y - o.radius;
      o.velocity.y = -std::abs(o.velocity.y);
    }
  }
}

}  // namespace keel::spatial
