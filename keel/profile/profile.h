// Profiling macros and the per-thread profiler.
//
//   void update() {
//     KEEL_PROFILE_FUNCTION();              // a scoped sample named after the function
//     { KEEL_PROFILE("collide"); ... }      // a scoped sample for a block
//     KEEL_PROFILE_BEGIN("physics"); ...; KEEL_PROFILE_END("physics");  // the book's pair
//     KEEL_PROFILE_CALL(n = count(), "count");  // a call; still made when profiling is off
//     KEEL_PROFILE_VALUE("vertices", n);   // a value on the open sample (min/max/avg)
//   }
//
// The macros compile to nothing unless KEEL_ENABLE_PROFILING is defined to a non-zero value (the
// build defines it to 1 for every module while the CMake option KEEL_PROFILING is ON). Unlike the
// book's `#ifndef ENABLE_PROFILING`, the test is the right way round. When compiled out,
// KEEL_PROFILE_CALL still evaluates its expression; KEEL_PROFILE_VALUE does not evaluate its value.
//
// Names must be string literals (or other constants with static storage): each macro use owns a
// `static constexpr Site`, so after the first visit a sample costs two tick reads and a few
// pointer compares, with no string compare, hash look-up or allocation.
//
// Each thread has its own profiler (the design's allowed exception to "no globals"), created on
// first use with the CPU tick source and a trace buffer registered for Chrome-trace export. The
// frame boundaries act on the calling thread's profiler; the kernel's frame hooks call them.
#pragma once

#include "keel/core/error.h"
#include "keel/profile/profiler.h"
#include "keel/profile/trace_buffer.h"

#include <filesystem>
#include <string>
#include <string_view>

namespace keel::profile {

namespace detail {
extern constinit thread_local Profiler* t_profiler;
Profiler& make_thread_profiler();
}  // namespace detail

// The calling thread's profiler (created on first use).
inline Profiler& this_thread() {
  Profiler* p = detail::t_profiler;
  return p != nullptr ? *p : detail::make_thread_profiler();
}

inline void begin_frame() { this_thread().begin_frame(); }
inline void end_frame() { this_thread().end_frame(); }

// Names the calling thread in the Chrome trace.
void set_thread_name(std::string_view name);

// Chrome trace of the last `frames` frames (0: everything still in the buffers) of every thread
// that profiled, merged; see chrome_trace.h.
std::string chrome_trace_json(u32 frames = 0);
Status write_chrome_trace(const std::filesystem::path& path, u32 frames = 0);

// Forgets the buffers of threads that have exited.
void discard_exited_threads();

// A scoped sample on the calling thread's profiler.
class Scope {
 public:
  explicit Scope(const Site& site) : profiler_(&this_thread()), site_(&site) {
    profiler_->enter(site);
  }
  ~Scope() { profiler_->leave(*site_); }
  Scope(const Scope&) = delete;
  Scope& operator=(const Scope&) = delete;

 private:
  Profiler* profiler_;
  const Site* site_;
};

}  // namespace keel::profile

#define KEEL_PROFILE_CONCAT_(a, b) a##b
#define KEEL_PROFILE_CONCAT(a, b) KEEL_PROFILE_CONCAT_(a, b)

#if defined(KEEL_ENABLE_PROFILING) && KEEL_ENABLE_PROFILING

#define KEEL_PROFILE(name)                                                                  \
  static constexpr ::keel::profile::Site KEEL_PROFILE_CONCAT(keel_profile_site_, __LINE__){ \
      name, __FILE__, __LINE__};                                                            \
  const ::keel::profile::Scope KEEL_PROFILE_CONCAT(keel_profile_scope_, __LINE__) {         \
    KEEL_PROFILE_CONCAT(keel_profile_site_, __LINE__)                                       \
  }

#define KEEL_PROFILE_FUNCTION() KEEL_PROFILE(__func__)

#define KEEL_PROFILE_BEGIN(name)                                                         \
  do {                                                                                   \
    static constexpr ::keel::profile::Site keel_profile_site_{name, __FILE__, __LINE__}; \
    ::keel::profile::this_thread().enter(keel_profile_site_);                            \
  } while (false)

#define KEEL_PROFILE_END(name) ::keel::profile::this_thread().leave_named(name)

// An expression: yields the value of `expr` (so both `r = KEEL_PROFILE_CALL(f(), "f")` and the
// book's `KEEL_PROFILE_CALL(r = f(), "f")` work).
#define KEEL_PROFILE_CALL(expr, name) \
  ([&]() -> decltype(auto) {          \
    KEEL_PROFILE(name);               \
    return (expr);                    \
  }())

#define KEEL_PROFILE_VALUE(name, number)                                        \
  do {                                                                          \
    static constexpr ::keel::profile::ValueSite keel_profile_value_site_{name}; \
    ::keel::profile::this_thread().record_value(keel_profile_value_site_,       \
                                                static_cast<double>(number));   \
  } while (false)

#define KEEL_PROFILE_FRAME_BEGIN() ::keel::profile::begin_frame()
#define KEEL_PROFILE_FRAME_END() ::keel::profile::end_frame()

#else  // profiling compiled out

#define KEEL_PROFILE(name)
#define KEEL_PROFILE_FUNCTION()
#define KEEL_PROFILE_BEGIN(name) static_cast<void>(0)
#define KEEL_PROFILE_END(name) static_cast<void>(0)
#define KEEL_PROFILE_CALL(expr, name) (expr)
#define KEEL_PROFILE_VALUE(name, number) static_cast<void>(sizeof(number))
#define KEEL_PROFILE_FRAME_BEGIN() static_cast<void>(0)
#define KEEL_PROFILE_FRAME_END() static_cast<void>(0)

#endif
