// The front half of building one data file (Golden Rules ch. 5, "build algorithm"): walk the
// process list of command files for one platform and collect the asset commands.
//
//   1. The list starts with the data file's command file.
//   2. Each file is parsed (keel::text) and PLATFORM-preprocessed for the target platform; then
//      AddFile("x.kcmd") appends x to the END of the list (breadth first; a file already listed
//      is not added again, so cycles end), ExcludeFile("x.kcmd") makes x skipped whenever its turn
//      comes, and every other command is an asset whose command name is its type, dispatched to
//      the handler registered for (platform, type) or else (common, type).
//   3. Unknown types, missing command files and malformed AddFile/ExcludeFile are located errors.
//
// Command-file names are relative to the project's data path.
#pragma once

#include "keel/pipeline/project.h"
#include "keel/pipeline/registry.h"
#include "keel/text/diagnostics.h"
#include "keel/text/document.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace keel::pipeline {

struct AssetCommand {
  const text::Token* command = nullptr;
  const HandlerEntry* handler = nullptr;
  u32 file = 0;  // index into CommandFiles::files
};

struct CommandFiles {
  struct File {
    std::string name;  // as listed, normalised ('/'-separated, relative to the data path)
    std::unique_ptr<text::Document> document;  // null when it could not be read or parsed
  };
  std::vector<File> files;            // in process order (excluded files are not listed)
  std::vector<std::string> excluded;  // files skipped because of ExcludeFile
  std::vector<AssetCommand> assets;   // in order of appearance
  bool ok = true;                     // no error while reading the files

  std::vector<const text::Document*> documents() const;
};

CommandFiles read_command_files(const Project& project, std::string_view command_file,
                                std::string_view platform, const HandlerRegistry& registry,
                                text::Diagnostics& diagnostics);

}  // namespace keel::pipeline
