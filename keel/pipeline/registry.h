// The handler table: (platform, asset type) -> handler, filled by the built-in handlers and by
// plug-ins (shared libraries loaded with dlopen that export one C registration function; see
// handler.h). A command dispatches to the handler registered for the target platform, else to
// the one registered for kCommon.
#pragma once

#include "keel/core/error.h"
#include "keel/core/types.h"
#include "keel/pipeline/handler.h"

#include <deque>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace keel::pipeline {

struct HandlerEntry {
  std::string platform;  // as registered (kCommon or a platform name)
  std::string type;
  HandlerFn fn = nullptr;
  u32 version = 1;
  std::string description;
  std::string origin;   // "built-in" or the plug-in's path
  u64 origin_hash = 0;  // content hash of the plug-in file (0 for built-ins)

  // What an intermediate's record stores to know which handler made it: a hash of type,
  // registered platform, version and plug-in content (computed at registration). A changed
  // plug-in rebuilds exactly its outputs.
  u64 key = 0;
  u64 compute_key() const;
};

class HandlerRegistry final : public Registrar {
 public:
  HandlerRegistry();
  ~HandlerRegistry() override;
  HandlerRegistry(const HandlerRegistry&) = delete;
  HandlerRegistry& operator=(const HandlerRegistry&) = delete;

  // Registrar: adds a handler from the current origin (built-in until load_plugin sets it).
  // A second handler for the same (platform, type) is refused and reported by problems().
  void add(const HandlerSpec& spec) override;

  // Loads a plug-in and lets it register its handlers. The library stays loaded as long as the
  // registry lives. Fails (and unloads it) when it cannot be opened, lacks the registration
  // function, was built against another interface version, or registered nothing.
  Status load_plugin(const std::filesystem::path& path);

  // The handler for `type` on `platform`, falling back to (common, type); nullptr when none.
  const HandlerEntry* find(std::string_view platform, std::string_view type) const;

  const std::deque<HandlerEntry>& entries() const { return entries_; }
  // Registration problems (duplicates, empty names) since the last call.
  std::vector<Error> take_problems();

 private:
  struct Library;
  std::vector<std::unique_ptr<Library>> libraries_;  // declared first: destroyed last
  std::deque<HandlerEntry> entries_;
  std::string origin_ = "built-in";
  u64 origin_hash_ = 0;
  std::vector<Error> problems_;
};

// Resolves a Plugin("name") reference: a name with a '/' or ending in ".so" is a path relative to
// `base`; a bare name is looked for as <dir>/<name>.so and <dir>/lib<name>.so in `search_dirs`.
Result<std::filesystem::path> find_plugin(std::string_view name, const std::filesystem::path& base,
                                          const std::vector<std::filesystem::path>& search_dirs);

}  // namespace keel::pipeline
