// The module keel-build loads for an HTTP shared cache (http_cache_module.h): links libcurl so
// that keel-build does not.
#include "http_cache_module.h"

#include <fmt/format.h>

#include <utility>

extern "C" __attribute__((visibility("default"))) bool keel_build_open_http_cache(
    int version, const keel::pipeline::HttpStoreOptions* options,
    std::unique_ptr<keel::pipeline::CacheStore>* store, keel::Error* error) {
  if (version != keel::pipeline::kHttpCacheModuleVersion) {
    *error = keel::Error(keel::ErrorCode::kUnsupported,
                         fmt::format("{} is built for interface version {}, keel-build has {}",
                                     keel::pipeline::kHttpCacheModuleFile,
                                     keel::pipeline::kHttpCacheModuleVersion, version));
    return false;
  }
  keel::Result<std::unique_ptr<keel::pipeline::HttpCacheStore>> opened =
      keel::pipeline::HttpCacheStore::open(*options);
  if (!opened) {
    *error = opened.error();
    return false;
  }
  *store = std::move(*opened);
  return true;
}
