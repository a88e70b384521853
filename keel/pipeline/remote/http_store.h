// The remote cache's HTTP transport (keel::pipeline_remote): the Bazel remote-cache HTTP
// protocol's two paths, `GET/PUT <url>/ac/<sha256>` and `<url>/cas/<sha256>`, through libcurl.
// Servers that speak it: bazel-remote, and nginx with WebDAV PUT (the tests use nginx).
//
//   Result<std::unique_ptr<HttpCacheStore>> store = HttpCacheStore::open(
//       {.url = "http://cache.studio:8080/keel", .token = std::getenv("KEEL_CACHE_TOKEN")});
//
// 200 is a hit, 404 a miss; PUT accepts 200, 201 and 204. Credentials never come from the URL
// (a URL with user:password@ is refused, so they stay off command lines): a bearer token
// (`Authorization: Bearer ...`) and/or a netrc file (curl's netrc matching by host). A store that
// cannot be connected to answers with an error at once (connect timeout, default 1 s); server
// errors (5xx, 429) and broken transfers are retried with exponential back-off first. Responses
// larger than `max_response` are refused. Thread-safe: each request takes an easy handle from a
// small pool, so connections are kept alive and reused.
#pragma once

#include "keel/core/error.h"
#include "keel/core/types.h"
#include "keel/pipeline/remote_cache.h"

#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace keel::pipeline {

struct HttpStoreOptions {
  std::string url;         // http:// or https://, no credentials; a trailing '/' is dropped
  std::string token;       // bearer token (empty: none)
  std::string netrc_file;  // netrc to read credentials from (empty: none)
  u32 connect_timeout_ms = 1000;
  u32 timeout_ms = 60000;  // a whole request
  u32 retries = 2;         // after the first attempt, for server errors and broken transfers
  u32 backoff_ms = 50;     // before the first retry; doubles for each next one
  u64 max_response = u64{2} << 30;
};

class HttpCacheStore final : public CacheStore {
 public:
  // kInvalidArgument for a URL that is not http(s)://host... or carries credentials.
  static Result<std::unique_ptr<HttpCacheStore>> open(HttpStoreOptions options);
  ~HttpCacheStore() override;
  HttpCacheStore(const HttpCacheStore&) = delete;
  HttpCacheStore& operator=(const HttpCacheStore&) = delete;

  Result<std::optional<ByteBuffer>> get(CacheSpace space, std::string_view key) override;
  Status put(CacheSpace space, std::string_view key, ByteSpan bytes) override;
  std::string where() const override { return options_.url; }

 private:
  explicit HttpCacheStore(HttpStoreOptions options);
  struct Request;
  // One request with retries; the response's status code and body.
  Status perform(Request& request);
  void* take_handle();
  void give_back(void* handle);

  HttpStoreOptions options_;
  std::string auth_header_;
  std::mutex pool_mutex_;
  std::vector<void*> pool_;  // CURL* easy handles not in use
};

}  // namespace keel::pipeline
