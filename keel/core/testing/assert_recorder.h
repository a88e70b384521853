// Recording KEEL_ASSERT failures in tests: an AssertRecorder installs an assert handler that
// records each failure's message instead of aborting, for its lifetime; the previous handler
// (and recorder) come back when it goes. Header-only: a test needs no link for it.
//
//   keel::testing::AssertRecorder asserts;
//   table.bucket(99);
//   asserts.expect_asserted("bucket 99");   // a new assert since the last check names it
//   asserts.expect_assert_count(1, "bucket");  // one in all, the last one naming it
//
// AssertRecordingTest (below) is a test fixture holding one, as asserts_.
//
// Asserts are compiled out of release builds (KEEL_ASSERTS_ENABLED is 0 there): the expect_
// checks then pass without looking, so the same test checks the release fallback too. A failed
// check is reported at the caller's line (a GoogleTest non-fatal failure).
//
// The handler is process-wide: the recorder records asserts of every thread. Recorders nest;
// destroy them in reverse order of construction (scopes do).
#pragma once

#include "keel/core/assert.h"
#include "keel/core/types.h"

#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <source_location>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace keel::testing {

class AssertRecorder {
 public:
  AssertRecorder()
      : previous_recorder_(active_.exchange(this)),
        previous_handler_(set_assert_handler(&AssertRecorder::record)) {}
  ~AssertRecorder() {
    set_assert_handler(previous_handler_);
    active_.store(previous_recorder_);
  }
  AssertRecorder(const AssertRecorder&) = delete;
  AssertRecorder& operator=(const AssertRecorder&) = delete;

  // Asserts recorded since construction or the last clear().
  usize count() const {
    const std::lock_guard lock(mutex_);
    return messages_.size();
  }
  std::vector<std::string> messages() const {
    const std::lock_guard lock(mutex_);
    return messages_;
  }
  // The last message, or "" when none was recorded.
  std::string last() const {
    const std::lock_guard lock(mutex_);
    return messages_.empty() ? std::string() : messages_.back();
  }
  void clear() {
    const std::lock_guard lock(mutex_);
    messages_.clear();
    checked_ = 0;
  }

  // With asserts compiled in: an assert fired since the previous expect_ check (or construction,
  // or clear()) and the last one's message contains `words`. Always passes in release builds.
  void expect_asserted(std::string_view words,
                       std::source_location where = std::source_location::current()) {
    const std::lock_guard lock(mutex_);
    if (KEEL_ASSERTS_ENABLED) {
      if (messages_.size() == checked_) {
        ADD_FAILURE_AT(where.file_name(), static_cast<int>(where.line()))
            << "expected an assert naming \"" << words << "\"; none fired"
            << (messages_.empty() ? "" : " since the last check");
      } else {
        expect_last_names(words, where);
      }
    }
    checked_ = messages_.size();
  }

  // With asserts compiled in: exactly `total` asserts were recorded since construction (or
  // clear()), and, if there were any, the last one's message contains `words`. Always passes in
  // release builds.
  void expect_assert_count(usize total, std::string_view words = {},
                           std::source_location where = std::source_location::current()) {
    const std::lock_guard lock(mutex_);
    if (KEEL_ASSERTS_ENABLED) {
      if (messages_.size() != total) {
        ADD_FAILURE_AT(where.file_name(), static_cast<int>(where.line()))
            << "expected " << total << " assert(s), recorded " << messages_.size()
            << describe_messages();
      } else if (total != 0) {
        expect_last_names(words, where);
      }
    }
    checked_ = messages_.size();
  }

 private:
  static void record(const AssertInfo& info) {
    AssertRecorder* recorder = active_.load();
    if (recorder == nullptr) {  // cannot happen while one is alive; never lose the report
      default_assert_handler()(info);
      return;
    }
    const std::lock_guard lock(recorder->mutex_);
    recorder->messages_.push_back(info.message);
  }

  // Callers hold mutex_ and have checked messages_ is not empty.
  void expect_last_names(std::string_view words, const std::source_location& where) const {
    if (messages_.back().find(words) == std::string::npos) {
      ADD_FAILURE_AT(where.file_name(), static_cast<int>(where.line()))
          << "expected the last assert to name \"" << words << "\"" << describe_messages();
    }
  }
  std::string describe_messages() const {
    std::string text;
    for (const std::string& m : messages_) {
      text += "\n  recorded: ";
      text += m;
    }
    return text;
  }

  static inline std::atomic<AssertRecorder*> active_{nullptr};

  // The record comes first: it is ready before the handler that writes it is installed.
  mutable std::mutex mutex_;
  std::vector<std::string> messages_;
  usize checked_ = 0;  // messages_.size() at the last expect_ check
  AssertRecorder* previous_recorder_;
  AssertHandler previous_handler_;
};

// A GoogleTest fixture whose tests record asserts in asserts_:
//   using EntryPoints = keel::testing::AssertRecordingTest;
//   TEST_F(EntryPoints, X) { call_wrongly(); asserts_.expect_asserted("names the mistake"); }
class AssertRecordingTest : public ::testing::Test {
 protected:
  AssertRecorder asserts_;
};

}  // namespace keel::testing
