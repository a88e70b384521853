// The build stamp (Enginuity part V): who built this executable, from what, when.
//
// An executable gets a stamp with the CMake function `keel_add_build_stamp(target ...)`, which
// generates and compiles the stamp while the target links (so it changes on every relink and
// never forces other recompiles). `build_stamp()` returns it; an executable without one gets
// an "unstamped" stamp with build number 0.
//
// Networked games compare stamps on connect: `compatible()` accepts only the identical build;
// `protocol_compatible()` accepts any build of the same project with the same protocol number,
// for games that version their wire format explicitly.
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

}  // namespace keel
