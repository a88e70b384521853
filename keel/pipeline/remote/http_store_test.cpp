// HttpCacheStore without a server: what URLs it accepts, and that a port nobody listens on is an
// error (the builder turns the cache off) rather than a miss. Requests against a real server
// (nginx) are tools/keel-build/remote_cache_test.sh.
#include "keel/pipeline/remote/http_store.h"

#include <gtest/gtest.h>

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace keel::pipeline {
namespace {

HttpStoreOptions with_url(std::string url) {
  HttpStoreOptions o;
  o.url = std::move(url);
  return o;
}

TEST(HttpCacheStore, AcceptsHttpUrlsAndDropsTheTrailingSlash) {
  Result<std::unique_ptr<HttpCacheStore>> s =
      HttpCacheStore::open(with_url("http://127.0.0.1:9/keel/"));
  ASSERT_TRUE(s) << s.error().to_string();
  EXPECT_EQ((*s)->where(), "http://127.0.0.1:9/keel");
  EXPECT_TRUE(HttpCacheStore::open(with_url("https://cache.studio.example")));
}

TEST(HttpCacheStore, RefusesCredentialsOtherSchemesAndQueries) {
  Result<std::unique_ptr<HttpCacheStore>> s =
      HttpCacheStore::open(with_url("http://artist:secret@cache.studio.example/keel"));
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().message().find("KEEL_CACHE_TOKEN"), std::string::npos);
  EXPECT_EQ(s.error().message().find("secret"), std::string::npos) << "never echo a password";
  EXPECT_FALSE(HttpCacheStore::open(with_url("http://token@cache.studio.example/")));
  EXPECT_FALSE(HttpCacheStore::open(with_url("ftp://cache.studio.example/")));
  EXPECT_FALSE(HttpCacheStore::open(with_url("file:///tmp/cache")));
  EXPECT_FALSE(HttpCacheStore::open(with_url("http://cache.studio.example/keel?x=1")));
  EXPECT_FALSE(HttpCacheStore::open(with_url("not a url")));
}

// A loopback port that refuses connections: bound, never listening.
class ClosedPort {
 public:
  ClosedPort() {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t n = sizeof a;
    EXPECT_EQ(::bind(fd_, reinterpret_cast<sockaddr*>(&a), n), 0);
    EXPECT_EQ(::getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &n), 0);
    port_ = ntohs(a.sin_port);
  }
  ~ClosedPort() { ::close(fd_); }
  int port() const { return port_; }

 private:
  int fd_ = -1;
  int port_ = 0;
};

TEST(HttpCacheStore, UnreachableServerIsAnErrorNotAMiss) {
  ClosedPort closed;
  Result<std::unique_ptr<HttpCacheStore>> s =
      HttpCacheStore::open(with_url(fmt::format("http://127.0.0.1:{}/keel", closed.port())));
  ASSERT_TRUE(s);
  const std::string key = sha256_hex(as_bytes("abc"));
  Result<std::optional<ByteBuffer>> got = (*s)->get(CacheSpace::kActions, key);
  ASSERT_FALSE(got);
  EXPECT_EQ(got.error().code(), ErrorCode::kIo);
  EXPECT_NE(got.error().message().find("/keel/ac/" + key), std::string::npos)
      << got.error().message();
  EXPECT_FALSE((*s)->put(CacheSpace::kContent, key, as_bytes("x")));

  // Through RemoteCache: one warning, then the store is not asked again.
  RemoteCache cache(**s, CacheMode::kReadWrite);
  std::string warning;
  EXPECT_FALSE(cache.fetch(key, warning));
  EXPECT_NE(warning.find("not usable"), std::string::npos) << warning;
  warning.clear();
  EXPECT_FALSE(cache.fetch(key, warning));
  EXPECT_TRUE(warning.empty());
  EXPECT_TRUE(cache.stats().down);
}

TEST(HttpCacheStore, RefusesKeysThatAreNotSha256) {
  Result<std::unique_ptr<HttpCacheStore>> s = HttpCacheStore::open(with_url("http://127.0.0.1:9"));
  ASSERT_TRUE(s);
  Result<std::optional<ByteBuffer>> got = (*s)->get(CacheSpace::kContent, "../../etc/passwd");
  ASSERT_FALSE(got);
  EXPECT_EQ(got.error().code(), ErrorCode::kInvalidArgument);
  EXPECT_FALSE((*s)->put(CacheSpace::kActions, "abc", as_bytes("x")));
}

}  // namespace
}  // namespace keel::pipeline
