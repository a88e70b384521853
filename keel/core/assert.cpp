#include "keel/core/assert.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>

namespace keel {
namespace {

void abort_handler(const AssertInfo& info) {
  std::fprintf(stderr, "%.*s:%d: assertion failed: %.*s%s%s\n", static_cast<int>(info.file.size()),
               info.file.data(), info.line, static_cast<int>(info.condition.size()),
               info.condition.data(), info.message.empty() ? "" : ": ", info.message.c_str());
  std::fflush(stderr);
  std::abort();
}

std::atomic<AssertHandler> g_handler{&abort_handler};

}  // namespace

AssertHandler set_assert_handler(AssertHandler handler) {
  return g_handler.exchange(handler != nullptr ? handler : &abort_handler);
}

AssertHandler default_assert_handler() { return &abort_handler; }

namespace detail {
void assert_failed(std::string_view condition, std::string_view file, int line,
                   std::string message) {
  g_handler.load()(AssertInfo{condition, file, line, std::move(message)});
}
}  // namespace detail

}  // namespace keel
