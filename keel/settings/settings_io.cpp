// Settings files, the command line, writing back and listing.
#include "keel/settings/settings.h"

#include "keel/settings/convert.h"
#include "keel/settings/detail/syntax.h"
#include "keel/settings/value_text.h"

#include "keel/core/file.h"

#include <algorithm>
#include <array>

namespace keel::settings {
namespace {

constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";
constexpr usize kListCellWidth = 32;

// Calls f(line) for each line of `text` ('\n'-separated; a final line without '\n' counts).
template <typename F>
void for_each_line(std::string_view text, F f) {
  usize pos = 0;
  while (true) {
    usize end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    f(text.substr(pos, end - pos));
    if (end == text.size()) return;
    pos = end + 1;
  }
}

std::string clip(std::string_view text) {
  if (text.size() <= kListCellWidth) return std::string(text);
  return std::string(text.substr(0, kListCellWidth - 3)) + "...";
}

std::string_view first_line(std::string_view text) {
  const usize end = text.find('\n');
  return trim(end == std::string_view::npos ? text : text.substr(0, end));
}

}  // namespace

std::vector<std::string_view> args_from_main(int argc, const char* const* argv) {
  std::vector<std::string_view> args;
  for (int i = 1; i < argc; ++i) args.emplace_back(argv[i]);
  return args;
}

std::vector<Error> Settings::apply_text(std::string_view text, std::string_view source) {
  std::vector<Error> errors;
  if (text.starts_with(kUtf8Bom)) text.remove_prefix(kUtf8Bom.size());
  u32 line_number = 0;
  for_each_line(text, [&](std::string_view line) {
    ++line_number;
    const std::string_view content = trim(line);
    if (content.empty() || content.front() == '#') return;
    if (auto s = apply_expression(line, Place{source, line_number, 1}); !s) {
      errors.push_back(std::move(s.error()));
    }
  });
  return errors;
}

std::vector<Error> Settings::apply_file(const std::filesystem::path& path) {
  auto text = read_file(path);
  if (!text) return {std::move(text.error())};
  const std::string source = path.string();
  return apply_text(*text, source);
}

ArgsResult Settings::apply_args(std::span<const std::string_view> args) {
  ArgsResult result;
  bool options_only = false;
  for (usize i = 0; i < args.size(); ++i) {
    const std::string_view arg = args[i];
    if (options_only || arg.starts_with("--")) {
      options_only = options_only || arg == "--";
      result.rest.push_back(arg);
      continue;
    }
    auto e = parse_expression(arg);
    const bool is_setting = e && (e->has_value || (e->bias != 0 && find(e->name) != nullptr));
    if (!is_setting) {
      result.rest.push_back(arg);
      continue;
    }
    if (auto s = apply_expression(arg, Place{kCommandLineSource, static_cast<u32>(i + 1), 1}); !s) {
      result.errors.push_back(std::move(s.error()));
    }
  }
  return result;
}

ArgsResult Settings::load(std::span<const std::filesystem::path> files,
                          std::span<const std::string_view> args) {
  std::vector<Error> errors;
  for (const std::filesystem::path& path : files) {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) {
      errors.emplace_back(ErrorCode::kNotFound, "settings file not found",
                          SourceLocation::text(path.string(), 0));
      continue;
    }
    for (Error& e : apply_file(path)) errors.push_back(std::move(e));
  }
  ArgsResult result = apply_args(args);
  errors.insert(errors.end(), std::make_move_iterator(result.errors.begin()),
                std::make_move_iterator(result.errors.end()));
  result.errors = std::move(errors);
  return result;
}

std::string Settings::to_file_text() const {
  std::string out =
      "# Settings: one per line, name=value; lists name=a;b. Lines starting with # are "
      "comments.\n";
  for (const auto& s : settings_) {
    out += '\n';
    if (!s->help().empty()) {
      for_each_line(s->help(), [&out](std::string_view line) {
        const std::string_view t = trim(line);
        out += t.empty() ? "#\n" : fmt::format("# {}\n", t);
      });
    }
    const std::string def = s->file_default();
    out += fmt::format("# {}, default: {}\n", s->dator().type_name(),
                       def.empty() ? "(empty)" : detail::excerpt(def));
    out += fmt::format("{}={}\n", s->name(), s->file_value());
  }
  return out;
}

Status Settings::write_file(const std::filesystem::path& path) const {
  const std::string text = to_file_text();
  return write_file_atomic(path, std::string_view(text));
}

std::string Settings::list() const {
  using Row = std::array<std::string, 5>;
  std::vector<Row> rows;
  rows.reserve(settings_.size() + 1);
  rows.push_back({"name", "type", "value", "default", "help"});
  for (const auto& s : settings_) {
    rows.push_back({s->name(), s->dator().type_name(), clip(s->file_value()),
                    clip(s->file_default()), std::string(first_line(s->help()))});
  }
  std::array<usize, 5> width{};
  for (const Row& row : rows) {
    for (usize c = 0; c < row.size(); ++c) width[c] = std::max(width[c], row[c].size());
  }
  std::string out;
  for (const Row& row : rows) {
    std::string line;
    for (usize c = 0; c < row.size(); ++c) {
      if (c + 1 < row.size()) {
        line += fmt::format("{:<{}}  ", row[c], width[c]);
      } else {
        line += row[c];
      }
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line;
    out += '\n';
  }
  return out;
}

}  // namespace keel::settings
