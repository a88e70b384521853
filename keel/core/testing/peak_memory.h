// Peak-memory measurement for tests that prove memory does not grow with input size (pack
// readers, no-op builds). Header-only; Linux: /proc/self/status and /proc/self/clear_refs.
//
//   std::optional<u64> grew = keel::testing::peak_growth([&] { return verify(big_pack); });
//   if (!grew) GTEST_SKIP() << "the kernel cannot reset the peak RSS here";
//   EXPECT_LT(*grew, 16 * keel::testing::kMiB);
#pragma once

#include "keel/core/types.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <functional>
#include <optional>
#include <string>

namespace keel::testing {

inline constexpr u64 kMiB = u64{1} << 20;

// A size field of /proc/self/status ("VmRSS:", "VmHWM:") in bytes; 0 when unknown.
inline u64 status_bytes(const char* field) {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.starts_with(field)) return std::stoull(line.substr(std::string(field).size())) * 1024;
  }
  return 0;
}

// How far the peak RSS rose above the RSS at the start while `work` ran in a forked child;
// nullopt where the kernel cannot reset the peak. `work` returning false fails the test.
inline std::optional<u64> peak_growth(const std::function<bool()>& work) {
  constexpr u64 kUnknown = ~u64{0};
  constexpr u64 kWorkFailed = ~u64{0} - 1;
  int fds[2];
  if (::pipe(fds) != 0) return std::nullopt;
  const pid_t child = ::fork();
  if (child == 0) {
    ::close(fds[0]);
    u64 result = kUnknown;
    std::FILE* f = std::fopen("/proc/self/clear_refs", "w");
    const bool reset = f != nullptr && std::fputs("5", f) >= 0 && std::fclose(f) == 0;
    if (reset) {
      const u64 before = status_bytes("VmRSS:");
      if (work()) {
        const u64 peak = status_bytes("VmHWM:");
        result = peak > before ? peak - before : 0;
      } else {
        result = kWorkFailed;
      }
    }
    [[maybe_unused]] auto n = ::write(fds[1], &result, sizeof result);
    ::_exit(0);
  }
  ::close(fds[1]);
  u64 result = kUnknown;
  const bool got = ::read(fds[0], &result, sizeof result) == sizeof result;
  ::close(fds[0]);
  int status = 0;
  ::waitpid(child, &status, 0);
  EXPECT_NE(result, kWorkFailed) << "the measured operation failed in the child";
  if (!got || result >= kWorkFailed) return std::nullopt;
  return result;
}

}  // namespace keel::testing
