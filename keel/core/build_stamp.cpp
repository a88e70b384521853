#include "keel/core/build_stamp.h"

#include <fmt/format.h>

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

}  // namespace keel
