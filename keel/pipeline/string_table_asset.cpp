#include "keel/pipeline/string_table_asset.h"

#include <algorithm>
#include <numeric>

namespace keel::pipeline {
namespace {

void put(ByteBuffer& out, u32 v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<std::byte>(v >> (8 * i)));
}

Unexpected corrupt(usize offset, std::string_view what) {
  return fail_at(SourceLocation::bytes("string table", offset), ErrorCode::kCorrupt, "{}", what);
}

}  // namespace

ByteBuffer encode_string_table(std::span<const std::string> keys,
                               std::span<const StringTableLanguage> languages) {
  // Keys sorted by hash for binary search; texts follow their key.
  std::vector<u32> order(keys.size());
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(),
            [&](u32 a, u32 b) { return string_hash(keys[a]) < string_hash(keys[b]); });
  std::string text;
  std::vector<std::pair<u32, u32>> names;
  std::vector<u32> offsets;
  for (const StringTableLanguage& lang : languages) {
    names.emplace_back(static_cast<u32>(text.size()), static_cast<u32>(lang.name.size()));
    text += lang.name;
  }
  for (const StringTableLanguage& lang : languages) {
    for (u32 k : order) {
      offsets.push_back(static_cast<u32>(text.size()));
      text += k < lang.texts.size() ? lang.texts[k] : std::string();
    }
    offsets.push_back(static_cast<u32>(text.size()));
  }
  ByteBuffer out;
  put(out, kStringTableMagic);
  put(out, kStringTableVersion);
  put(out, static_cast<u32>(keys.size()));
  put(out, static_cast<u32>(languages.size()));
  put(out, static_cast<u32>(text.size()));
  for (u32 k : order) put(out, string_hash(keys[k]));
  for (const auto& [offset, length] : names) {
    put(out, offset);
    put(out, length);
  }
  for (u32 o : offsets) put(out, o);
  for (char c : text) out.push_back(static_cast<std::byte>(c));
  return out;
}

u32 StringTableView::word(usize index) const {
  const std::byte* p = bytes_.data() + index * 4;
  return static_cast<u32>(p[0]) | (static_cast<u32>(p[1]) << 8) | (static_cast<u32>(p[2]) << 16) |
         (static_cast<u32>(p[3]) << 24);
}

Result<StringTableView> StringTableView::parse(ByteSpan bytes) {
  StringTableView v;
  v.bytes_ = bytes;
  if (bytes.size() < 20) return corrupt(0, "shorter than its header");
  if (v.word(0) != kStringTableMagic) return corrupt(0, "not a string table");
  if (v.word(1) != kStringTableVersion) return corrupt(4, "unknown version");
  const u64 keys = v.word(2);
  const u64 langs = v.word(3);
  const u64 text = v.word(4);
  const u64 max_words = bytes.size() / 4;
  if (keys > max_words || langs > max_words || (langs != 0 && keys + 1 > max_words / langs)) {
    return corrupt(8, "counts larger than the chunk");
  }
  // Words: 5 header + keys + 2 * langs + langs * (keys + 1); then the text.
  const u64 words = 5 + keys + 2 * langs + langs * (keys + 1);
  if (words * 4 + text != bytes.size()) return corrupt(8, "sizes do not match the chunk");
  v.key_count_ = keys;
  v.language_count_ = langs;
  v.keys_at_ = 5;
  v.names_at_ = 5 + keys;
  v.offsets_at_ = v.names_at_ + 2 * langs;
  v.text_at_ = words * 4;
  v.text_bytes_ = text;
  for (usize k = 1; k < keys; ++k) {
    if (v.word(v.keys_at_ + k - 1) >= v.word(v.keys_at_ + k)) {
      return corrupt((v.keys_at_ + k) * 4, "key hashes not strictly ascending");
    }
  }
  for (usize l = 0; l < langs; ++l) {
    const u64 off = v.word(v.names_at_ + 2 * l);
    const u64 len = v.word(v.names_at_ + 2 * l + 1);
    if (off + len > text) return corrupt((v.names_at_ + 2 * l) * 4, "language name out of range");
    const usize base = v.offsets_at_ + l * (keys + 1);
    for (usize k = 0; k <= keys; ++k) {
      const u32 o = v.word(base + k);
      if (o > text || (k > 0 && o < v.word(base + k - 1))) {
        return corrupt((base + k) * 4, "text offset out of order or out of range");
      }
    }
  }
  return v;
}

std::string_view StringTableView::language(usize index) const {
  if (index >= language_count_) return {};
  const u32 off = word(names_at_ + 2 * index);
  const u32 len = word(names_at_ + 2 * index + 1);
  return as_chars(bytes_.subspan(text_at_ + off, len));
}

std::optional<usize> StringTableView::find_language(std::string_view name) const {
  for (usize l = 0; l < language_count_; ++l) {
    if (language(l) == name) return l;
  }
  return std::nullopt;
}

std::optional<std::string_view> StringTableView::find(usize lang, Hash key) const {
  if (lang >= language_count_) return std::nullopt;
  usize lo = 0;
  usize hi = key_count_;
  while (lo < hi) {
    const usize mid = lo + (hi - lo) / 2;
    const u32 h = word(keys_at_ + mid);
    if (h == key) {
      const usize base = offsets_at_ + lang * (key_count_ + 1);
      const u32 begin = word(base + mid);
      const u32 end = word(base + mid + 1);
      return as_chars(bytes_.subspan(text_at_ + begin, end - begin));
    }
    if (h < key) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return std::nullopt;
}

}  // namespace keel::pipeline
