// StringTable("name", "keys.txt") { Language("english", "english.txt"); ... }: the key file and
// every language file, checked by keel::hashing::StringTable (UTF-8, one text per key, no hash
// collisions between keys) and written in the string_table_asset.h format.
#include "keel/hashing/string_table.h"
#include "keel/hashing/text_lines.h"
#include "keel/pipeline/handlers/builtin_handlers.h"
#include "keel/pipeline/handlers/handler_support.h"
#include "keel/pipeline/string_table_asset.h"

#include <fmt/format.h>

namespace keel::pipeline {

namespace {

struct LanguageSource {
  const text::Token* at;
  std::string name;
  std::string path;
};

}  // namespace

bool build_string_table(BuildContext& ctx) {
  const text::Token& cmd = ctx.command();
  if (!ctx.check(cmd, {text::kString, text::kString},
                 {.conditional = text::Conditional::kRequired})) {
    return false;
  }
  const std::string_view name = cmd.param(0)->text;
  const Result<std::string> keys_path = require_source(ctx, *cmd.param(1), cmd.param(1)->text);
  bool ok = keys_path.has_value();
  std::vector<LanguageSource> languages;
  for (const text::Token& lang : text::chain(cmd.conditional)) {
    if (!lang.is("Language")) {
      ctx.error(lang, fmt::format("unknown StringTable command `{}` (Language)", lang.text));
      ok = false;
      continue;
    }
    if (!ctx.check(lang, {text::kString | text::kName, text::kString})) {
      ok = false;
      continue;
    }
    for (const LanguageSource& other : languages) {
      if (other.name == lang.param(0)->text) {
        ctx.error(*lang.param(0), fmt::format("language `{}` is listed twice", other.name));
        ok = false;
      }
    }
    LanguageSource source{&lang, std::string(lang.param(0)->text), {}};
    Result<std::string> path = require_source(ctx, *lang.param(1), lang.param(1)->text);
    if (path) {
      source.path = std::move(*path);
    } else {
      ok = false;
    }
    languages.push_back(std::move(source));
  }
  if (!ok) return false;
  if (languages.empty()) {
    ctx.error(cmd, "a StringTable needs at least one Language(\"name\", \"texts.txt\")");
    return false;
  }
  if (!ctx.set_output(name)) return false;
  if (ctx.up_to_date()) return true;

  const Result<std::string> keys_text = ctx.read_file(*keys_path);
  if (!keys_text) return false;
  Result<std::vector<hashing::TextLine>> key_lines = hashing::split_lines(*keys_text, *keys_path);
  if (!key_lines) {
    report_error(ctx, key_lines.error());
    return false;
  }
  std::vector<std::string> keys;
  keys.reserve(key_lines->size());
  for (const hashing::TextLine& line : *key_lines) keys.emplace_back(line.text);

  std::vector<StringTableLanguage> tables;
  for (const LanguageSource& lang : languages) {
    const Result<std::string> texts = ctx.read_file(lang.path);
    if (!texts) return false;
    // The checks (and the escapes \n \t \\) are keel::hashing's.
    Result<hashing::StringTable> table =
        hashing::StringTable::parse(*keys_text, *keys_path, *texts, lang.path);
    if (!table) {
      report_error(ctx, table.error());
      return false;
    }
    StringTableLanguage out{lang.name, {}};
    out.texts.reserve(keys.size());
    for (const std::string& key : keys) {
      const std::string* text = table->find_text(string_hash(key));
      out.texts.emplace_back(text != nullptr ? *text : std::string());
    }
    tables.push_back(std::move(out));
  }
  const ByteBuffer bytes = encode_string_table(keys, tables);
  return write_single_chunk(ctx, name, kStringTableType, bytes);
}

}  // namespace keel::pipeline
