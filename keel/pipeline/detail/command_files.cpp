#include "keel/pipeline/detail/command_files.h"

#include "keel/pipeline/detail/names.h"
#include "keel/text/platform.h"
#include "keel/text/signature.h"

#include <filesystem>
#include <set>

namespace keel::pipeline {

namespace fs = std::filesystem;

std::vector<const text::Document*> CommandFiles::documents() const {
  std::vector<const text::Document*> out;
  for (const File& f : files) {
    if (f.document) out.push_back(f.document.get());
  }
  return out;
}

namespace {

std::string normalise(std::string_view name) {
  return fs::path(name).lexically_normal().generic_string();
}

std::string known_types(const HandlerRegistry& registry, std::string_view platform) {
  std::set<std::string> names;
  for (const HandlerEntry& e : registry.entries()) {
    if (equal_names(e.platform, platform) || equal_names(e.platform, kCommon)) {
      names.insert(e.type);
    }
  }
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out.empty() ? "none" : out;
}

}  // namespace

CommandFiles read_command_files(const Project& project, std::string_view command_file,
                                std::string_view platform, const HandlerRegistry& registry,
                                text::Diagnostics& diag) {
  CommandFiles out;
  const usize errors_before = diag.error_count();
  struct Pending {
    std::string name;
    const text::Token* added_by;  // null for the data file's own command file
  };
  std::vector<Pending> list{{normalise(command_file), nullptr}};
  std::set<std::string> listed{list.front().name};
  std::set<std::string> excluded;

  for (usize i = 0; i < list.size(); ++i) {
    const std::string name = list[i].name;  // copy: `list` grows below
    if (excluded.contains(name)) {
      out.excluded.push_back(name);
      continue;
    }
    const fs::path path = project.data_path / name;
    std::error_code ec;
    if (!fs::is_regular_file(path, ec)) {
      const fs::file_status st = fs::status(path, ec);
      const std::string message =
          fs::is_directory(st) ? fmt::format("command file `{}` is a directory", path.string())
          : fs::exists(st) ? fmt::format("command file `{}` is not a regular file", path.string())
          : ec && ec != std::errc::no_such_file_or_directory
              ? fmt::format("command file `{}`: {}", path.string(), ec.message())
              : fmt::format("command file `{}` not found in {}", name, project.data_path.string());
      if (list[i].added_by != nullptr) {
        diag.error(*list[i].added_by, message);
      } else {
        diag.error(SourceLocation::text(path.string(), 0), message);
      }
      out.files.push_back({name, nullptr});
      continue;
    }
    std::unique_ptr<text::Document> doc = text::parse_file(path, diag);
    if (doc && !text::preprocess_platform(*doc, platform, diag)) {
      diag.keep_source(doc->filename(), std::string(doc->source()));
    }
    out.files.push_back({name, std::move(doc)});
    const text::Document* document = out.files.back().document.get();
    if (document == nullptr) continue;
    const u32 file_index = static_cast<u32>(out.files.size() - 1);

    for (const text::Token& cmd : text::chain(document->first())) {
      const bool add = cmd.is("AddFile");
      if (add || cmd.is("ExcludeFile")) {
        if (!text::check_command(cmd, diag, {text::kString}, {.min_params = 1, .variadic = true})) {
          continue;
        }
        for (const text::Token& p : text::chain(cmd.params)) {
          std::string target = normalise(p.text);
          if (target.empty() || target == "." || fs::path(target).is_absolute()) {
            diag.error(p, "`{}` expects a command file relative to the data path", cmd.text);
          } else if (!add) {
            excluded.insert(std::move(target));
          } else if (listed.insert(target).second) {
            list.push_back({std::move(target), &p});
          }
        }
        continue;
      }
      const HandlerEntry* handler = registry.find(platform, cmd.text);
      if (handler == nullptr) {
        diag.error(cmd, "no handler for asset type `{}` on platform {} (known types: {})", cmd.text,
                   platform, known_types(registry, platform));
        continue;
      }
      out.assets.push_back({&cmd, handler, file_index});
    }
  }
  out.ok = diag.error_count() == errors_before;
  return out;
}

}  // namespace keel::pipeline
