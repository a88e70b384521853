#include "keel/pipeline/registry.h"

#include "keel/core/file.h"
#include "keel/core/hash.h"
#include "keel/pipeline/detail/names.h"

#include <dlfcn.h>

#include <cstring>
#include <utility>

#include <fmt/format.h>

namespace keel::pipeline {

namespace fs = std::filesystem;

struct HandlerRegistry::Library {
  explicit Library(void* h) : handle(h) {}
  ~Library() {
    if (handle != nullptr) ::dlclose(handle);
  }
  Library(const Library&) = delete;
  Library& operator=(const Library&) = delete;
  void* handle;
};

u64 HandlerEntry::compute_key() const {
  const std::string text =
      fmt::format("{}\n{}\n{}\n{:016x}", to_lower(type), to_lower(platform), version, origin_hash);
  return hash64(text);
}

HandlerRegistry::HandlerRegistry() = default;

HandlerRegistry::~HandlerRegistry() {
  entries_.clear();  // nothing may point into a library once it is closed
}

void HandlerRegistry::add(const HandlerSpec& spec) {
  if (spec.type.empty() || spec.platform.empty() || spec.fn == nullptr) {
    problems_.emplace_back(ErrorCode::kInvalidArgument,
                           fmt::format("{}: a handler registration without a type, platform or "
                                       "function was ignored",
                                       origin_));
    return;
  }
  for (const HandlerEntry& e : entries_) {
    if (equal_names(e.type, spec.type) && equal_names(e.platform, spec.platform)) {
      problems_.emplace_back(
          ErrorCode::kAlreadyExists,
          fmt::format("{}: a handler for ({}, {}) is already registered by {}; ignored", origin_,
                      spec.platform, spec.type, e.origin));
      return;
    }
  }
  HandlerEntry& e = entries_.emplace_back(
      HandlerEntry{std::string(spec.platform), std::string(spec.type), spec.fn, spec.version,
                   std::string(spec.description), origin_, origin_hash_, 0});
  e.key = e.compute_key();
}

Status HandlerRegistry::load_plugin(const fs::path& path) {
  const SourceLocation where = SourceLocation::text(path.string(), 0);
  Result<std::string> bytes = read_file(path);
  if (!bytes) return Unexpected(bytes.error());
  void* handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* why = ::dlerror();
    return fail_at(where, ErrorCode::kIo, "cannot load plug-in: {}", why != nullptr ? why : "?");
  }
  auto library = std::make_unique<Library>(handle);
  void* symbol = ::dlsym(handle, kRegisterSymbol);
  if (symbol == nullptr) {
    return fail_at(where, ErrorCode::kNotFound, "not a Keel plug-in: no `{}` function",
                   kRegisterSymbol);
  }
  // POSIX guarantees that a data pointer from dlsym converts to a function pointer.
  RegisterFn register_fn = nullptr;
  static_assert(sizeof register_fn == sizeof symbol);
  std::memcpy(&register_fn, &symbol, sizeof symbol);

  const usize before = entries_.size();
  origin_ = path.string();
  origin_hash_ = hash64(*bytes);
  const u32 version = register_fn(this, kPluginApiVersion);
  origin_ = "built-in";
  origin_hash_ = 0;
  if (version != kPluginApiVersion) {
    entries_.resize(before);
    return fail_at(where, ErrorCode::kUnsupported,
                   "plug-in built for handler interface version {}, this build tool has "
                   "version {}: rebuild the plug-in against this keel's keel/pipeline/handler.h",
                   version, kPluginApiVersion);
  }
  if (entries_.size() == before) {
    return fail_at(where, ErrorCode::kRefused, "plug-in registered no handler");
  }
  libraries_.push_back(std::move(library));
  return ok();
}

const HandlerEntry* HandlerRegistry::find(std::string_view platform, std::string_view type) const {
  const HandlerEntry* common = nullptr;
  for (const HandlerEntry& e : entries_) {
    if (!equal_names(e.type, type)) continue;
    if (equal_names(e.platform, platform)) return &e;
    if (equal_names(e.platform, kCommon)) common = &e;
  }
  return common;
}

std::vector<Error> HandlerRegistry::take_problems() { return std::exchange(problems_, {}); }

Result<fs::path> find_plugin(std::string_view name, const fs::path& base,
                             const std::vector<fs::path>& search_dirs) {
  if (name.empty()) return fail(ErrorCode::kInvalidArgument, "an empty plug-in name");
  const bool is_path = name.find('/') != std::string_view::npos || name.ends_with(".so");
  std::error_code ec;
  if (is_path) {
    fs::path p(name);
    if (p.is_relative()) p = base / p;
    p = p.lexically_normal();
    if (fs::is_regular_file(p, ec)) return p;
    return fail(ErrorCode::kNotFound, "plug-in `{}` not found at {}", name, p.string());
  }
  std::string looked;
  for (const fs::path& dir : search_dirs) {
    for (const std::string& file : {fmt::format("{}.so", name), fmt::format("lib{}.so", name)}) {
      const fs::path p = (dir / file).lexically_normal();
      if (fs::is_regular_file(p, ec)) return p;
    }
    looked += looked.empty() ? dir.string() : ", " + dir.string();
  }
  return fail(ErrorCode::kNotFound, "plug-in `{}` not found (searched: {}; add --plugin-path)",
              name, looked.empty() ? "no directories" : looked);
}

}  // namespace keel::pipeline
