#include "keel/pipeline/remote/http_store.h"

#include <curl/curl.h>
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <mutex>
#include <thread>

namespace keel::pipeline {

namespace {

void global_init() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

// Checks that `url` is http(s)://host[:port][/path] without credentials, query or fragment.
Status check_url(const std::string& url) {
  CURLU* u = curl_url();
  if (u == nullptr) return fail(ErrorCode::kOutOfMemory, "cannot parse the cache URL");
  Status result = ok();
  if (curl_url_set(u, CURLUPART_URL, url.c_str(), 0) != CURLUE_OK) {
    result = fail(ErrorCode::kInvalidArgument, "cache URL `{}` does not parse", url);
  } else {
    auto has = [u](CURLUPart part) {
      char* value = nullptr;
      const bool present = curl_url_get(u, part, &value, 0) == CURLUE_OK && value != nullptr;
      curl_free(value);
      return present;
    };
    char* scheme = nullptr;
    curl_url_get(u, CURLUPART_SCHEME, &scheme, 0);
    const bool http = scheme != nullptr &&
                      (std::strcmp(scheme, "http") == 0 || std::strcmp(scheme, "https") == 0);
    curl_free(scheme);
    if (!http) {
      result = fail(ErrorCode::kInvalidArgument, "cache URL `{}`: only http:// and https://", url);
    } else if (has(CURLUPART_USER) || has(CURLUPART_PASSWORD)) {
      result = fail(ErrorCode::kInvalidArgument,
                    "cache URL with credentials refused (they would show in process lists): use "
                    "KEEL_CACHE_TOKEN or a netrc file");
    } else if (has(CURLUPART_QUERY) || has(CURLUPART_FRAGMENT)) {
      result = fail(ErrorCode::kInvalidArgument, "cache URL `{}` with a query or fragment", url);
    }
  }
  curl_url_cleanup(u);
  return result;
}

bool cannot_connect(CURLcode code) {
  return code == CURLE_COULDNT_CONNECT || code == CURLE_COULDNT_RESOLVE_HOST ||
         code == CURLE_COULDNT_RESOLVE_PROXY || code == CURLE_OPERATION_TIMEDOUT ||
         code == CURLE_SSL_CONNECT_ERROR || code == CURLE_PEER_FAILED_VERIFICATION;
}

}  // namespace

struct HttpCacheStore::Request {
  std::string url;
  ByteSpan upload;  // PUT body (empty data pointer: a GET)
  bool is_put = false;
  // Filled by perform:
  usize sent = 0;
  ByteBuffer body;
  bool too_big = false;
  long status = 0;
  u64 limit = 0;

  static size_t write(char* data, size_t size, size_t count, void* self) {
    auto* r = static_cast<Request*>(self);
    const usize n = size * count;
    if (r->body.size() + n > r->limit) {
      r->too_big = true;
      return 0;  // aborts the transfer
    }
    const auto* bytes = reinterpret_cast<const std::byte*>(data);
    r->body.insert(r->body.end(), bytes, bytes + n);
    return n;
  }
  static size_t read(char* buffer, size_t size, size_t count, void* self) {
    auto* r = static_cast<Request*>(self);
    const usize n = std::min(size * count, r->upload.size() - r->sent);
    if (n != 0) std::memcpy(buffer, r->upload.data() + r->sent, n);
    r->sent += n;
    return n;
  }
};

HttpCacheStore::HttpCacheStore(HttpStoreOptions options) : options_(std::move(options)) {
  while (options_.url.ends_with('/')) options_.url.pop_back();
  if (!options_.token.empty()) auth_header_ = "Authorization: Bearer " + options_.token;
}

Result<std::unique_ptr<HttpCacheStore>> HttpCacheStore::open(HttpStoreOptions options) {
  global_init();
  if (Status s = check_url(options.url); !s) return Unexpected(s.error());
  return std::unique_ptr<HttpCacheStore>(new HttpCacheStore(std::move(options)));
}

HttpCacheStore::~HttpCacheStore() {
  for (void* h : pool_) curl_easy_cleanup(static_cast<CURL*>(h));
}

void* HttpCacheStore::take_handle() {
  {
    std::lock_guard lock(pool_mutex_);
    if (!pool_.empty()) {
      void* h = pool_.back();
      pool_.pop_back();
      return h;
    }
  }
  return curl_easy_init();
}

void HttpCacheStore::give_back(void* handle) {
  std::lock_guard lock(pool_mutex_);
  pool_.push_back(handle);
}

Status HttpCacheStore::perform(Request& r) {
  CURL* curl = static_cast<CURL*>(take_handle());
  if (curl == nullptr) return fail(ErrorCode::kOutOfMemory, "cannot create a libcurl handle");
  curl_slist* headers = nullptr;
  headers = curl_slist_append(headers, "Expect:");  // no 100-continue round trip before a PUT
  if (!auth_header_.empty()) headers = curl_slist_append(headers, auth_header_.c_str());
  Status result = ok();
  for (u32 attempt = 0;; ++attempt) {
    if (attempt != 0) {
      std::this_thread::sleep_for(
          std::chrono::milliseconds(u64{options_.backoff_ms} << (attempt - 1)));
    }
    r.sent = 0;
    r.body.clear();
    r.too_big = false;
    r.status = 0;
    r.limit = options_.max_response;
    curl_easy_reset(curl);  // keeps the connection cache
    curl_easy_setopt(curl, CURLOPT_URL, r.url.c_str());
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS,
                     static_cast<long>(options_.connect_timeout_ms));
    curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, static_cast<long>(options_.timeout_ms));
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, &Request::write);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &r);
    curl_easy_setopt(curl, CURLOPT_MAXFILESIZE_LARGE, static_cast<curl_off_t>(r.limit));
    if (!options_.netrc_file.empty()) {
      curl_easy_setopt(curl, CURLOPT_NETRC, static_cast<long>(CURL_NETRC_OPTIONAL));
      curl_easy_setopt(curl, CURLOPT_NETRC_FILE, options_.netrc_file.c_str());
    }
    if (r.is_put) {
      curl_easy_setopt(curl, CURLOPT_UPLOAD, 1L);
      curl_easy_setopt(curl, CURLOPT_READFUNCTION, &Request::read);
      curl_easy_setopt(curl, CURLOPT_READDATA, &r);
      curl_easy_setopt(curl, CURLOPT_INFILESIZE_LARGE, static_cast<curl_off_t>(r.upload.size()));
    }
    const CURLcode code = curl_easy_perform(curl);
    if (code == CURLE_OK) {
      curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &r.status);
      if (r.status < 500 && r.status != 429) break;
      result = fail(ErrorCode::kIo, "{} {}: HTTP {}", r.is_put ? "PUT" : "GET", r.url, r.status);
    } else if (r.too_big || code == CURLE_FILESIZE_EXCEEDED) {
      result = fail(ErrorCode::kCorrupt, "GET {}: response over {} bytes", r.url, r.limit);
      break;
    } else {
      result = fail(ErrorCode::kIo, "{} {}: {}", r.is_put ? "PUT" : "GET", r.url,
                    curl_easy_strerror(code));
      if (cannot_connect(code)) break;  // down: one short timeout, no retries
    }
    if (attempt >= options_.retries) break;
    result = ok();
  }
  curl_slist_free_all(headers);
  give_back(curl);
  return result;
}

Result<std::optional<ByteBuffer>> HttpCacheStore::get(CacheSpace space, std::string_view key) {
  if (!is_sha256_hex(key)) return fail(ErrorCode::kInvalidArgument, "bad cache key `{}`", key);
  Request r;
  r.url = fmt::format("{}/{}/{}", options_.url, to_string(space), key);
  if (Status s = perform(r); !s) return Unexpected(s.error());
  if (r.status == 404) return std::optional<ByteBuffer>();
  if (r.status != 200) return fail(ErrorCode::kIo, "GET {}: HTTP {}", r.url, r.status);
  return std::optional<ByteBuffer>(std::move(r.body));
}

Status HttpCacheStore::put(CacheSpace space, std::string_view key, ByteSpan bytes) {
  if (!is_sha256_hex(key)) return fail(ErrorCode::kInvalidArgument, "bad cache key `{}`", key);
  Request r;
  r.url = fmt::format("{}/{}/{}", options_.url, to_string(space), key);
  r.upload = bytes;
  r.is_put = true;
  if (Status s = perform(r); !s) return s;
  if (r.status != 200 && r.status != 201 && r.status != 204) {
    return fail(ErrorCode::kIo, "PUT {}: HTTP {}", r.url, r.status);
  }
  return ok();
}

}  // namespace keel::pipeline
