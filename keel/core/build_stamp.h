// The build stamp (Enginuity part V): who built this executable, from what, when.
//
// An executable gets a stamp with the CMake function `keel_add_build_stamp(target ...)`, which
// generates and compiles the stamp while the target links (so it changes on every relink and
// never forces other recompiles). `build_stamp()` returns it; an executable without one gets
// an "unstamped" stamp with build number 0.
//
// Networked games compare stamps on connect: `compatible()` accepts only the identical build;
// `protocol_compatible()` accepts any build of the same project with the same protocol number,
// for games that version their wire format explicitly. When a connect is refused,
// `compare_builds()` says which side is older and `update_message()` tells the user which side to
// update (the seed's "tell the older side to update").
#pragma once

#include "keel/core/types.h"

#include <string>
#include <string_view>

namespace keel {

struct BuildStamp {
  std::string_view project;
  std::string_view version;
  std::string_view revision;   // version-control revision; empty when unknown
  bool dirty = false;          // the work tree had uncommitted changes
  std::string_view built_utc;  // ISO 8601, e.g. 2026-11-22T03:14:00Z
  u64 build_number = 0;        // counts links of this target in this build tree
  std::string_view user;       // who built it
  u32 protocol = 0;            // wire-protocol number for protocol_compatible()

  // "keel-demo 0.1.0 rev 1a2b3c4d5e6f+dirty build 42 2026-11-22T03:14:00Z by ana protocol 1"
  std::string to_string() const;
};

const BuildStamp& build_stamp();

// True only for the identical build (every field equal).
bool compatible(const BuildStamp& a, const BuildStamp& b);
// True for builds of the same project that speak the same protocol.
bool protocol_compatible(const BuildStamp& a, const BuildStamp& b);

// How build `a` relates to build `b` of the same project: by version (dotted numbers compared
// numerically; a pre-release suffix such as "-rc1" is older than the plain version), then by
// build time (ISO 8601), then by build number. kUnrelated: other projects, or builds that differ
// but cannot be ordered (same version, time and number; or unknown times and numbers).
enum class BuildOrder : u8 { kSame, kOlder, kNewer, kUnrelated };
BuildOrder compare_builds(const BuildStamp& a, const BuildStamp& b);
const char* to_string(BuildOrder order);

// A sentence for the user of the `local` build after `remote` refused to connect (or was
// refused): which side is older and must be updated, naming both versions and build times.
// Empty when the two are compatible().
std::string update_message(const BuildStamp& local, const BuildStamp& remote);

}  // namespace keel
