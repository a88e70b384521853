#include "keel/core/build_stamp.h"

#include <fmt/format.h>

#include <charconv>

// Defined by the object that keel_add_build_stamp() generates. Declared weak and without a
// definition here (a definition would let the compiler fold its value): in an executable without
// a stamp the symbols stay unresolved and their addresses are null.
extern "C" {
extern const char keel_stamp_project[] __attribute__((weak));
extern const char keel_stamp_version[] __attribute__((weak));
extern const char keel_stamp_revision[] __attribute__((weak));
extern const char keel_stamp_built_utc[] __attribute__((weak));
extern const char keel_stamp_user[] __attribute__((weak));
extern const unsigned long long keel_stamp_build_number __attribute__((weak));
extern const unsigned keel_stamp_protocol __attribute__((weak));
extern const int keel_stamp_dirty __attribute__((weak));
}

namespace keel {

std::string BuildStamp::to_string() const {
  return fmt::format("{} {} rev {}{} build {} {} by {} protocol {}", project, version,
                     revision.empty() ? "unknown" : revision, dirty ? "+dirty" : "", build_number,
                     built_utc.empty() ? "unknown-time" : built_utc,
                     user.empty() ? "unknown" : user, protocol);
}

const BuildStamp& build_stamp() {
  static const BuildStamp stamp = [] {
    // Read through a volatile pointer so the weak-symbol null check cannot be optimised away.
    const void* volatile generated = &keel_stamp_build_number;
    if (generated == nullptr) {
      return BuildStamp{"unstamped", "0.0.0", "", false, "", 0, "", 0};
    }
    return BuildStamp{keel_stamp_project,    keel_stamp_version,   keel_stamp_revision,
                      keel_stamp_dirty != 0, keel_stamp_built_utc, keel_stamp_build_number,
                      keel_stamp_user,       keel_stamp_protocol};
  }();
  return stamp;
}

bool compatible(const BuildStamp& a, const BuildStamp& b) {
  return a.project == b.project && a.version == b.version && a.revision == b.revision &&
         a.dirty == b.dirty && a.built_utc == b.built_utc && a.build_number == b.build_number &&
         a.user == b.user && a.protocol == b.protocol;
}

bool protocol_compatible(const BuildStamp& a, const BuildStamp& b) {
  return a.project == b.project && a.protocol == b.protocol;
}

namespace {

// -1, 0, 1 for a < b, a == b, a > b.
template <typename T>
int order_of(const T& a, const T& b) {
  return a < b ? -1 : (b < a ? 1 : 0);
}

// Dotted numeric components first ("0.10.2" > "0.9.7"), then the rest: no suffix is newer than
// any suffix ("1.0.0" > "1.0.0-rc2"), suffixes compare as text.
int compare_versions(std::string_view a, std::string_view b) {
  for (;;) {
    u64 x = 0;
    u64 y = 0;
    const auto [pa, ea] = std::from_chars(a.data(), a.data() + a.size(), x);
    const auto [pb, eb] = std::from_chars(b.data(), b.data() + b.size(), y);
    const bool a_number = ea == std::errc{};
    const bool b_number = eb == std::errc{};
    if (!a_number || !b_number) {
      if (a_number != b_number) return a_number ? 1 : -1;  // "1.2" > "1.x"
      break;
    }
    if (x != y) return order_of(x, y);
    a.remove_prefix(static_cast<usize>(pa - a.data()));
    b.remove_prefix(static_cast<usize>(pb - b.data()));
    const bool a_dot = !a.empty() && a.front() == '.';
    const bool b_dot = !b.empty() && b.front() == '.';
    if (a_dot != b_dot) return a_dot ? 1 : -1;  // "1.2.1" > "1.2"
    if (!a_dot) break;
    a.remove_prefix(1);
    b.remove_prefix(1);
  }
  if (a.empty() != b.empty()) return a.empty() ? 1 : -1;  // the release beats its pre-releases
  return order_of(a, b);
}

}  // namespace

BuildOrder compare_builds(const BuildStamp& a, const BuildStamp& b) {
  if (a.project != b.project) return BuildOrder::kUnrelated;
  if (compatible(a, b)) return BuildOrder::kSame;
  int order = compare_versions(a.version, b.version);
  if (order == 0 && !a.built_utc.empty() && !b.built_utc.empty())
    order = order_of(a.built_utc, b.built_utc);
  if (order == 0) order = order_of(a.build_number, b.build_number);
  if (order == 0) return BuildOrder::kUnrelated;
  return order < 0 ? BuildOrder::kOlder : BuildOrder::kNewer;
}

const char* to_string(BuildOrder order) {
  switch (order) {
    case BuildOrder::kSame: return "same";
    case BuildOrder::kOlder: return "older";
    case BuildOrder::kNewer: return "newer";
    case BuildOrder::kUnrelated: return "unrelated";
  }
  return "unknown";
}

namespace {

std::string describe(const BuildStamp& s) {
  return fmt::format("{} {}, build {}, built {}", s.project, s.version, s.build_number,
                     s.built_utc.empty() ? "at an unknown time" : s.built_utc);
}

}  // namespace

std::string update_message(const BuildStamp& local, const BuildStamp& remote) {
  switch (compare_builds(local, remote)) {
    case BuildOrder::kSame: return {};
    case BuildOrder::kOlder:
      return fmt::format(
          "This game is older ({}) than the other side ({}). Update this game to the newer build "
          "to connect.",
          describe(local), describe(remote));
    case BuildOrder::kNewer:
      return fmt::format(
          "The other side runs an older build ({}) than this game ({}). The other side must "
          "update to the newer build to connect.",
          describe(remote), describe(local));
    case BuildOrder::kUnrelated: break;
  }
  if (local.project != remote.project) {
    return fmt::format("The other side runs {}, not {}: the two cannot connect.", remote.project,
                       local.project);
  }
  return fmt::format(
      "The two builds differ but neither is newer (this game: {}; other side: {}). Install the "
      "same build on both sides to connect.",
      describe(local), describe(remote));
}

}  // namespace keel
