// KEEL_ASSERT(cond, fmt, args...): checks a programmer error.
//
// Active when NDEBUG is not defined (debug builds); in release builds the whole expression,
// condition and message arguments included, is compiled out and never evaluated. A failure calls
// the current handler with the condition text, file, line and formatted message; the default
// handler prints to stderr and aborts. Tests install their own handler (ScopedAssertHandler).
#pragma once

#include <fmt/format.h>

#include <string>
#include <string_view>

namespace keel {

struct AssertInfo {
  std::string_view condition;
  std::string_view file;
  int line = 0;
  std::string message;
};

// Returns normally only if the program should continue (tests); the default aborts.
using AssertHandler = void (*)(const AssertInfo&);

// Replaces the process-wide handler and returns the previous one. Thread-safe.
AssertHandler set_assert_handler(AssertHandler handler);
AssertHandler default_assert_handler();

namespace detail {
void assert_failed(std::string_view condition, std::string_view file, int line,
                   std::string message);
inline std::string assert_message() { return {}; }
template <typename... Args>
std::string assert_message(fmt::format_string<Args...> format, Args&&... args) {
  return fmt::format(format, std::forward<Args>(args)...);
}
}  // namespace detail

// Restores the previous handler on scope exit.
class ScopedAssertHandler {
 public:
  explicit ScopedAssertHandler(AssertHandler handler) : previous_(set_assert_handler(handler)) {}
  ~ScopedAssertHandler() { set_assert_handler(previous_); }
  ScopedAssertHandler(const ScopedAssertHandler&) = delete;
  ScopedAssertHandler& operator=(const ScopedAssertHandler&) = delete;

 private:
  AssertHandler previous_;
};

}  // namespace keel

#ifndef NDEBUG
#define KEEL_ASSERTS_ENABLED 1
#define KEEL_ASSERT(cond, ...)                                                    \
  do {                                                                            \
    if (!(cond)) [[unlikely]] {                                                   \
      ::keel::detail::assert_failed(#cond, __FILE__, __LINE__,                    \
                                    ::keel::detail::assert_message(__VA_ARGS__)); \
    }                                                                             \
  } while (false)
#else
#define KEEL_ASSERTS_ENABLED 0
// sizeof keeps the expression type-checked without evaluating it.
#define KEEL_ASSERT(cond, ...) \
  do {                         \
    (void)sizeof(!(cond));     \
  } while (false)
#endif
