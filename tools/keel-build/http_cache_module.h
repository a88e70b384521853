// keel-build's shared-cache transport as a module (keel-build-http.so) that keel-build loads
// only when a cache URL is configured. HttpCacheStore (keel/pipeline/remote/http_store.h) needs
// libcurl, which pulls in about thirty shared libraries (TLS, Kerberos, LDAP, SSH, ...): linked
// into keel-build, the dynamic loader mapped and relocated all of them on every start, about
// 3 ms of each no-op build. The module is built from the same sources as keel-build, so C++ types
// may cross the boundary; the version below refuses a module from another build.
#pragma once

#include "keel/core/error.h"
#include "keel/pipeline/remote/http_store.h"
#include "keel/pipeline/remote_cache.h"

#include <memory>

namespace keel::pipeline {

// Bumped whenever HttpStoreOptions, CacheStore or this function's signature change.
inline constexpr int kHttpCacheModuleVersion = 1;
inline constexpr const char* kHttpCacheModuleFile = "keel-build-http.so";
inline constexpr const char* kHttpCacheModuleSymbol = "keel_build_open_http_cache";

// The module's one export: HttpCacheStore::open(*options) into *store, or false with the error
// in *error. A module built for another `version` returns false without touching the store.
using OpenHttpCacheFn = bool (*)(int version, const HttpStoreOptions* options,
                                 std::unique_ptr<CacheStore>* store, Error* error);

}  // namespace keel::pipeline
