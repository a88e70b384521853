// A shared build cache for intermediates, in the layout of the Bazel remote-cache HTTP protocol:
// two key spaces, `ac/<sha256>` (action cache: an asset's key -> a small record naming its
// result) and `cas/<sha256>` (content-addressed store: an intermediate under the SHA-256 of its
// bytes). The transport is a CacheStore (pipeline_remote's HttpCacheStore speaks HTTP through
// libcurl; tests use an in-memory one).
//
//   auto store = HttpCacheStore::open({.url = "http://cache:8080"});        // remote/http_store.h
//   RemoteCache cache(**store, CacheMode::kReadWrite);
//   Builder builder(project, handlers, {.jobs = 4, .remote_cache = &cache});
//   ... builder.build_all(...);
//   fmt::print("{}\n", cache.summary());   // "remote cache: 12 hits, 3 misses, ..."
//
// The builder asks the cache when a handler's up_to_date() finds no valid local intermediate:
// the asset key (action_key) is the SHA-256 of everything the local database compares (handler
// identity, platform, asset name, command subtree hash, the sources in order with their content
// hashes). A hit downloads the intermediate, checks its size and SHA-256 against the action
// record and installs it: the handler's work is skipped. A miss runs the handler; in read-write
// mode its intermediate is then uploaded. An intermediate of at most `inline_limit` bytes (64 KiB
// by default) travels inside its action record, so its hit is one request; a larger one goes to
// cas/ (content first, then the action record naming it), and its hit is two.
//
// Nothing the server sends can poison a build: an action record that does not parse, content
// whose hash or size does not match, or content that is missing is a "bad entry" (reported, then
// the asset is built locally). A store that cannot be reached (refused, timed out, server errors
// after the store's retries) turns the cache off for the rest of the run with one warning: the
// build goes on locally. Thread-safe: the builder's jobs call it concurrently.
#pragma once

#include "keel/core/bytes.h"
#include "keel/core/error.h"
#include "keel/core/types.h"

#include <algorithm>
#include <atomic>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace keel::pipeline {

enum class CacheSpace { kActions, kContent };  // "ac", "cas"
std::string_view to_string(CacheSpace space);

// The key-value transport. Keys are 64 lowercase hex digits.
class CacheStore {
 public:
  virtual ~CacheStore() = default;
  // The entry's bytes, or nullopt when the store does not have it. An error when the store could
  // not answer (unreachable, timed out, refused, a server error after retries): the caller then
  // stops using the store.
  virtual Result<std::optional<ByteBuffer>> get(CacheSpace space, std::string_view key) = 0;
  virtual Status put(CacheSpace space, std::string_view key, ByteSpan bytes) = 0;
  // For messages: where the store is (a URL without credentials).
  virtual std::string where() const = 0;
};

// SHA-256 of the bytes as 64 lowercase hex digits (OpenSSL's libcrypto).
std::string sha256_hex(ByteSpan bytes);
bool is_sha256_hex(std::string_view key);

// What an intermediate is made from: the same fields the build database compares.
struct ActionInput {
  std::string_view handler_type;
  u64 handler_key = 0;  // type, registered platform, version, plug-in content
  std::string_view platform;
  std::string_view asset_name;
  u64 command_hash = 0;
  struct Source {
    std::string_view path;  // relative to the project when inside it
    u64 hash = 0;
  };
  std::vector<Source> sources;
};
std::string action_key(const ActionInput& input);

// The action record stored under ac/<key>: a few text lines, checked strictly when read, and for
// a small intermediate the intermediate itself after them ("inline"; format 2). A large one is
// named by its SHA-256 and stored under cas/<content> (format 1).
struct ActionRecord {
  std::string content;  // SHA-256 hex of the intermediate (its cas/ key when not inline)
  u64 size = 0;
  u64 build_ns = 0;       // what making it locally cost the uploader (for "time saved")
  bool inlined = false;   // the intermediate follows the text lines
  std::string_view data;  // inlined: the intermediate (`size` bytes; a view, not owned)
  // The whole record: the text lines, then `data` when inlined.
  std::string to_text() const;
  // Inlined records: `data` views into `text`. Only the form is checked here (the lines, and
  // exactly `size` bytes after them); the content's SHA-256 is the reader's check.
  static Result<ActionRecord> parse(std::string_view text);
};
// The largest intermediate a record may carry inline (readers refuse more; writers cap their
// limit to it), and the writers' default limit.
inline constexpr u64 kMaxInlineContent = u64{16} << 20;
inline constexpr u64 kDefaultInlineLimit = u64{64} << 10;

enum class CacheMode { kRead, kReadWrite };
Result<CacheMode> parse_cache_mode(std::string_view text);  // "read" | "readwrite"

struct CacheStats {
  u64 hits = 0;
  u64 misses = 0;
  u64 bad_entries = 0;  // hits that failed verification (built locally instead)
  u64 uploads = 0;
  u64 upload_failures = 0;
  u64 bytes_down = 0;
  u64 bytes_up = 0;
  double seconds_saved = 0;  // uploaders' build times of the hits minus the download times
  bool down = false;         // the store failed: not used for the rest of the run
};

class RemoteCache {
 public:
  // Intermediates of at most `inline_limit` bytes (capped to kMaxInlineContent) are uploaded
  // inside their action record; 0 sends every one through cas/.
  RemoteCache(CacheStore& store, CacheMode mode, u64 inline_limit = kDefaultInlineLimit)
      : store_(store), mode_(mode), inline_limit_(std::min(inline_limit, kMaxInlineContent)) {}

  CacheMode mode() const { return mode_; }
  bool can_write() const { return mode_ == CacheMode::kReadWrite; }

  // The verified intermediate for `key`, or nullopt (a miss, a bad entry, the store down). A
  // message for the build log (a bad entry; the first failure of the store) goes to `warning`.
  std::optional<ByteBuffer> fetch(std::string_view key, std::string& warning);
  // Uploads an intermediate made in `build_ns` (read-write mode only; a no-op otherwise or when
  // the store is down). Failures are warnings, never build errors.
  void store(std::string_view key, ByteSpan intermediate, u64 build_ns, std::string& warning);

  CacheStats stats() const;
  // "remote cache http://host:8080: 12 hits, 3 misses, 1 bad entry, 1.2 MiB down, 0 B up,
  // ~4.10 s saved"
  std::string summary() const;

 private:
  // Records a failure of the store; the first one turns the cache off and says so.
  void went_down(const Error& error, std::string& warning);

  CacheStore& store_;
  CacheMode mode_;
  u64 inline_limit_;
  std::atomic<u64> hits_{0}, misses_{0}, bad_{0}, uploads_{0}, upload_failures_{0};
  std::atomic<u64> bytes_down_{0}, bytes_up_{0};
  std::atomic<s64> saved_ns_{0};
  std::atomic<bool> down_{false};
};

}  // namespace keel::pipeline
