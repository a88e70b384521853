#include "keel/pipeline/remote_cache.h"

#include <fmt/format.h>
#include <openssl/evp.h>

#include <charconv>
#include <chrono>

namespace keel::pipeline {

namespace {

// An action record's text lines are a few short ones; anything longer is not one. An inlined
// intermediate follows them (at most kMaxInlineContent bytes).
constexpr usize kMaxActionRecord = 1024;
constexpr std::string_view kCasMagic = "keel-cache-action 1";     // names cas/<content>
constexpr std::string_view kInlineMagic = "keel-cache-action 2";  // carries the content

s64 now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

std::string human_bytes(u64 n) {
  if (n < 1024) return fmt::format("{} B", n);
  if (n < 1024 * 1024) return fmt::format("{:.1f} KiB", static_cast<double>(n) / 1024);
  if (n < u64{1} << 30) return fmt::format("{:.1f} MiB", static_cast<double>(n) / (1024 * 1024));
  return fmt::format("{:.2f} GiB", static_cast<double>(n) / static_cast<double>(u64{1} << 30));
}

// One "name value" line of an action record; false when the line is not exactly that.
bool parse_line(std::string_view& rest, std::string_view name, std::string_view& value) {
  const usize end = rest.find('\n');
  if (end == std::string_view::npos) return false;
  const std::string_view line = rest.substr(0, end);
  rest.remove_prefix(end + 1);
  if (!line.starts_with(name) || line.size() <= name.size() || line[name.size()] != ' ') {
    return false;
  }
  value = line.substr(name.size() + 1);
  return !value.empty();
}

// Decimal without leading zeros: one text per value.
bool parse_u64(std::string_view text, u64& out) {
  if (text.size() > 1 && text[0] == '0') return false;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size();
}

}  // namespace

std::string_view to_string(CacheSpace space) {
  return space == CacheSpace::kActions ? "ac" : "cas";
}

std::string sha256_hex(ByteSpan bytes) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  // EVP_Digest only fails when the allocator does; a SHA-256 of nothing is still well defined.
  [[maybe_unused]] const int ok =
      EVP_Digest(bytes.data(), bytes.size(), digest, &length, EVP_sha256(), nullptr);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(2 * length);
  for (unsigned int i = 0; i < length; ++i) {
    out += kHex[digest[i] >> 4];
    out += kHex[digest[i] & 15];
  }
  return out;
}

bool is_sha256_hex(std::string_view key) {
  if (key.size() != 64) return false;
  for (const char c : key) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

std::string action_key(const ActionInput& in) {
  // Length-prefixed fields, so no two different inputs serialise alike.
  std::string text = "keel-action 1\n";
  auto field = [&text](std::string_view s) { text += fmt::format("{}:{}\n", s.size(), s); };
  field(in.handler_type);
  text += fmt::format("{:016x}\n", in.handler_key);
  field(in.platform);
  field(in.asset_name);
  text += fmt::format("{:016x}\n{}\n", in.command_hash, in.sources.size());
  for (const ActionInput::Source& s : in.sources) {
    field(s.path);
    text += fmt::format("{:016x}\n", s.hash);
  }
  return sha256_hex(as_bytes(text));
}

std::string ActionRecord::to_text() const {
  std::string text =
      fmt::format("{}\n{} {}\nsize {}\nbuild_ns {}\n", inlined ? kInlineMagic : kCasMagic,
                  inlined ? "inline" : "cas", content, size, build_ns);
  if (inlined) text += data;
  return text;
}

Result<ActionRecord> ActionRecord::parse(std::string_view text) {
  std::string_view rest = text;
  ActionRecord record;
  auto starts_with_line = [&rest](std::string_view magic) {
    return rest.starts_with(magic) && rest.size() > magic.size() && rest[magic.size()] == '\n';
  };
  if (starts_with_line(kInlineMagic)) {
    record.inlined = true;
  } else if (!starts_with_line(kCasMagic)) {
    return fail(ErrorCode::kCorrupt, "not a keel action record");
  }
  const u64 limit = kMaxActionRecord + (record.inlined ? kMaxInlineContent : 0);
  if (text.size() > limit) {
    return fail(ErrorCode::kCorrupt, "action record of {} bytes (at most {})", text.size(), limit);
  }
  rest.remove_prefix(kCasMagic.size() + 1);
  std::string_view hash, size, build;
  if (!parse_line(rest, record.inlined ? "inline" : "cas", hash) || !is_sha256_hex(hash)) {
    return fail(ErrorCode::kCorrupt, "action record without a valid `{}` line",
                record.inlined ? "inline" : "cas");
  }
  if (!parse_line(rest, "size", size) || !parse_u64(size, record.size)) {
    return fail(ErrorCode::kCorrupt, "action record without a valid `size` line");
  }
  if (!parse_line(rest, "build_ns", build) || !parse_u64(build, record.build_ns)) {
    return fail(ErrorCode::kCorrupt, "action record without a valid `build_ns` line");
  }
  if (text.size() - rest.size() > kMaxActionRecord) {
    return fail(ErrorCode::kCorrupt, "action record lines over {} bytes", kMaxActionRecord);
  }
  record.content = hash;
  if (!record.inlined) {
    if (!rest.empty()) return fail(ErrorCode::kCorrupt, "action record with trailing data");
    return record;
  }
  if (record.size > kMaxInlineContent) {
    return fail(ErrorCode::kCorrupt, "inline content of {} bytes (at most {})", record.size,
                kMaxInlineContent);
  }
  if (rest.size() != record.size) {
    return fail(ErrorCode::kCorrupt, "inline content of {} bytes, the record says {}", rest.size(),
                record.size);
  }
  record.data = rest;
  return record;
}

Result<CacheMode> parse_cache_mode(std::string_view text) {
  if (text == "read") return CacheMode::kRead;
  if (text == "readwrite") return CacheMode::kReadWrite;
  return fail(ErrorCode::kInvalidArgument, "cache mode `{}` (use read or readwrite)", text);
}

void RemoteCache::went_down(const Error& error, std::string& warning) {
  if (!down_.exchange(true)) {
    warning = fmt::format("remote cache {} is not usable ({}); building locally without it",
                          store_.where(), error.message());
  }
}

std::optional<ByteBuffer> RemoteCache::fetch(std::string_view key, std::string& warning) {
  if (down_.load(std::memory_order_relaxed)) return std::nullopt;
  const s64 start = now_ns();
  Result<std::optional<ByteBuffer>> action = store_.get(CacheSpace::kActions, key);
  if (!action) {
    went_down(action.error(), warning);
    return std::nullopt;
  }
  if (!*action) {
    misses_.fetch_add(1, std::memory_order_relaxed);
    return std::nullopt;
  }
  bytes_down_.fetch_add((*action)->size(), std::memory_order_relaxed);
  auto bad = [&](std::string why) -> std::optional<ByteBuffer> {
    bad_.fetch_add(1, std::memory_order_relaxed);
    warning = fmt::format("remote cache: bad entry ac/{} ({}); building it locally", key, why);
    return std::nullopt;
  };
  Result<ActionRecord> record = ActionRecord::parse(as_chars(**action));
  if (!record) return bad(record.error().message());
  ByteBuffer bytes;
  if (record->inlined) {
    // The content is the tail of the response: moved to the front, not copied into a new buffer.
    const usize offset = (*action)->size() - record->data.size();
    bytes = std::move(**action);
    bytes.erase(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(offset));
  } else {
    Result<std::optional<ByteBuffer>> content = store_.get(CacheSpace::kContent, record->content);
    if (!content) {
      went_down(content.error(), warning);
      return std::nullopt;
    }
    if (!*content) return bad(fmt::format("its content cas/{} is missing", record->content));
    bytes = std::move(**content);
    bytes_down_.fetch_add(bytes.size(), std::memory_order_relaxed);
  }
  if (bytes.size() != record->size) {
    return bad(fmt::format("content of {} bytes, the record says {}", bytes.size(), record->size));
  }
  if (sha256_hex(bytes) != record->content) {
    return bad(
        record->inlined
            ? std::string("its inline content does not have the SHA-256 it names")
            : fmt::format("the content of cas/{} does not have that SHA-256", record->content));
  }
  hits_.fetch_add(1, std::memory_order_relaxed);
  saved_ns_.fetch_add(static_cast<s64>(record->build_ns) - (now_ns() - start),
                      std::memory_order_relaxed);
  return bytes;
}

void RemoteCache::store(std::string_view key, ByteSpan intermediate, u64 build_ns,
                        std::string& warning) {
  if (!can_write() || down_.load(std::memory_order_relaxed)) return;
  ActionRecord record;
  record.content = sha256_hex(intermediate);
  record.size = intermediate.size();
  record.build_ns = build_ns;
  Status s = ok();
  if (intermediate.size() <= inline_limit_) {
    record.inlined = true;
    record.data = as_chars(intermediate);
  } else {
    // Content first: an action record never names content that is not there yet.
    s = store_.put(CacheSpace::kContent, record.content, intermediate);
  }
  const std::string text = record.to_text();
  if (s) s = store_.put(CacheSpace::kActions, key, as_bytes(text));
  if (!s) {
    upload_failures_.fetch_add(1, std::memory_order_relaxed);
    went_down(s.error(), warning);
    return;
  }
  uploads_.fetch_add(1, std::memory_order_relaxed);
  bytes_up_.fetch_add(text.size() + (record.inlined ? 0 : intermediate.size()),
                      std::memory_order_relaxed);
}

CacheStats RemoteCache::stats() const {
  CacheStats s;
  s.hits = hits_.load();
  s.misses = misses_.load();
  s.bad_entries = bad_.load();
  s.uploads = uploads_.load();
  s.upload_failures = upload_failures_.load();
  s.bytes_down = bytes_down_.load();
  s.bytes_up = bytes_up_.load();
  s.seconds_saved = static_cast<double>(saved_ns_.load()) / 1e9;
  s.down = down_.load();
  return s;
}

std::string RemoteCache::summary() const {
  const CacheStats s = stats();
  std::string out = fmt::format("remote cache {}: {} hit{}, {} miss{}", store_.where(), s.hits,
                                s.hits == 1 ? "" : "s", s.misses, s.misses == 1 ? "" : "es");
  if (s.bad_entries != 0) {
    out += fmt::format(", {} bad entr{}", s.bad_entries, s.bad_entries == 1 ? "y" : "ies");
  }
  out += fmt::format(", {} uploaded, {} down, {} up, ~{:.2f} s saved", s.uploads,
                     human_bytes(s.bytes_down), human_bytes(s.bytes_up), s.seconds_saved);
  if (s.down) out += " (store failed: off for the rest of the run)";
  return out;
}

}  // namespace keel::pipeline
