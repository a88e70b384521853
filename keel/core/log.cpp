#include "keel/core/log.h"

#include "keel/core/assert.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ctime>

namespace keel::log {
namespace {

constexpr std::array<std::string_view, 6> kLevelNames = {"trace", "debug", "info",
                                                         "warn",  "error", "off"};
// Fixed-width tags so messages line up.
constexpr std::array<std::string_view, 6> kLevelTags = {"TRACE", "DEBUG", "INFO ",
                                                        "WARN ", "ERROR", "OFF  "};
constexpr std::array<std::string_view, 6> kLevelColors = {
    "\x1b[90m",    // trace: grey
    "\x1b[36m",    // debug: cyan
    "\x1b[32m",    // info: green
    "\x1b[33m",    // warn: yellow
    "\x1b[1;31m",  // error: bold red
    "",
};
constexpr std::string_view kColorReset = "\x1b[0m";

usize level_index(Level level) {
  return std::min(static_cast<usize>(level), kLevelNames.size() - 1);
}

std::string_view base_name(std::string_view path) {
  const usize slash = path.find_last_of("/\\");
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

bool equals_ignore_case(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

bool should_flush(Level level) { return level >= Level::kWarn; }

}  // namespace

std::string_view to_string(Level level) { return kLevelNames[level_index(level)]; }

std::optional<Level> parse_level(std::string_view text) {
  for (usize i = 0; i < kLevelNames.size(); ++i) {
    if (equals_ignore_case(text, kLevelNames[i])) return static_cast<Level>(i);
  }
  if (equals_ignore_case(text, "warning")) return Level::kWarn;
  return std::nullopt;
}

std::string format_record(const Record& record, bool with_date) {
  using namespace std::chrono;
  const auto since_epoch = record.time.time_since_epoch();
  const std::time_t seconds = duration_cast<std::chrono::seconds>(since_epoch).count();
  const auto millis = duration_cast<milliseconds>(since_epoch).count() % 1000;
  std::tm local{};
  localtime_r(&seconds, &local);

  fmt::memory_buffer out;
  if (with_date) {
    fmt::format_to(std::back_inserter(out), "{:04}-{:02}-{:02} ", local.tm_year + 1900,
                   local.tm_mon + 1, local.tm_mday);
  }
  fmt::format_to(std::back_inserter(out), "{:02}:{:02}:{:02}.{:03} {} [{}] {}", local.tm_hour,
                 local.tm_min, local.tm_sec, millis < 0 ? millis + 1000 : millis,
                 kLevelTags[level_index(record.level)], record.channel_name, record.message);
  if (!record.file.empty()) {
    fmt::format_to(std::back_inserter(out), " ({}:{})", base_name(record.file), record.line);
  }
  return fmt::to_string(out);
}

// ---- ConsoleSink ----------------------------------------------------------------------------

ConsoleSink::ConsoleSink(std::FILE* stream, ColorMode mode) : stream_(stream), color_(false) {
  switch (mode) {
    case ColorMode::kAlways: color_ = true; break;
    case ColorMode::kNever: color_ = false; break;
    case ColorMode::kAuto: {
      const char* no_color = std::getenv("NO_COLOR");
      const bool tty = stream_ != nullptr && ::isatty(::fileno(stream_)) == 1;
      color_ = tty && (no_color == nullptr || no_color[0] == '\0');
      break;
    }
  }
}

void ConsoleSink::write(const Record& record) {
  if (stream_ == nullptr) return;
  const std::string line = format_record(record);
  if (color_) {
    const std::string_view color = kLevelColors[level_index(record.level)];
    fmt::print(stream_, "{}{}{}\n", color, line, kColorReset);
  } else {
    fmt::print(stream_, "{}\n", line);
  }
  if (should_flush(record.level)) std::fflush(stream_);
}

void ConsoleSink::flush() {
  if (stream_ != nullptr) std::fflush(stream_);
}

// ---- FileSink -------------------------------------------------------------------------------

Result<std::unique_ptr<FileSink>> FileSink::open(const std::filesystem::path& path) {
  std::FILE* file = std::fopen(path.c_str(), "ab");
  if (file == nullptr) {
    const int err = errno;
    return fail(ErrorCode::kIo, "cannot open log file '{}': {}", path.string(), std::strerror(err));
  }
  return std::unique_ptr<FileSink>(new FileSink(path, file));
}

FileSink::~FileSink() { std::fclose(file_); }

void FileSink::write(const Record& record) {
  const std::string line = format_record(record, /*with_date=*/true);
  fmt::print(file_, "{}\n", line);
  if (should_flush(record.level)) std::fflush(file_);
}

void FileSink::flush() { std::fflush(file_); }

// ---- MemorySink -----------------------------------------------------------------------------

void MemorySink::write(const Record& record) {
  Entry entry{record.time,
              record.level,
              record.channel,
              std::string(record.channel_name),
              std::string(record.message),
              std::string(record.file),
              record.line};
  std::lock_guard lock(mutex_);
  entries_.push_back(std::move(entry));
}

std::vector<MemorySink::Entry> MemorySink::entries() const {
  std::lock_guard lock(mutex_);
  return entries_;
}

std::vector<std::string> MemorySink::messages() const {
  std::lock_guard lock(mutex_);
  std::vector<std::string> out;
  out.reserve(entries_.size());
  for (const Entry& e : entries_) out.push_back(e.message);
  return out;
}

usize MemorySink::size() const {
  std::lock_guard lock(mutex_);
  return entries_.size();
}

void MemorySink::clear() {
  std::lock_guard lock(mutex_);
  entries_.clear();
}

bool MemorySink::contains(std::string_view text) const {
  std::lock_guard lock(mutex_);
  return std::any_of(entries_.begin(), entries_.end(),
                     [&](const Entry& e) { return e.message.find(text) != std::string::npos; });
}

// ---- Logger ---------------------------------------------------------------------------------

Logger::Logger() {
  for (auto& level : levels_) level.store(Level::kOff, std::memory_order_relaxed);
  register_channel("app");
  register_channel("client");
  register_channel("user");
}

Logger::~Logger() { flush(); }

Channel Logger::register_channel(std::string_view name, Level level) {
  KEEL_ASSERT(!name.empty(), "register_channel: a log channel needs a name");
  if (name.empty()) return Channel::kApp;
  std::lock_guard lock(channels_mutex_);
  const usize count = channel_count_.load(std::memory_order_relaxed);
  for (usize i = 0; i < count; ++i) {
    if (names_[i] == name) return Channel(static_cast<u16>(i));
  }
  KEEL_ASSERT(count < kMaxChannels, "too many log channels (max {}) registering '{}'", kMaxChannels,
              name);
  if (count >= kMaxChannels) return Channel::kApp;
  names_[count] = std::string(name);
  levels_[count].store(level, std::memory_order_relaxed);
  // Release: a thread that sees the new count also sees the name.
  channel_count_.store(count + 1, std::memory_order_release);
  return Channel(static_cast<u16>(count));
}

std::optional<Channel> Logger::find_channel(std::string_view name) const {
  std::lock_guard lock(channels_mutex_);
  const usize count = channel_count_.load(std::memory_order_relaxed);
  for (usize i = 0; i < count; ++i) {
    if (names_[i] == name) return Channel(static_cast<u16>(i));
  }
  return std::nullopt;
}

std::string_view Logger::channel_name(Channel channel) const {
  // Names are written once, before the count that publishes them.
  if (channel.id() >= channel_count_.load(std::memory_order_acquire)) return "?";
  return names_[channel.id()];
}

usize Logger::channel_count() const { return channel_count_.load(std::memory_order_acquire); }

void Logger::set_level(Channel channel, Level level) {
  if (channel.id() >= channel_count_.load(std::memory_order_acquire)) return;
  levels_[channel.id()].store(level, std::memory_order_relaxed);
}

Level Logger::level(Channel channel) const {
  if (channel.id() >= kMaxChannels) return Level::kOff;
  return levels_[channel.id()].load(std::memory_order_relaxed);
}

void Logger::set_all_levels(Level level) {
  std::lock_guard lock(channels_mutex_);
  const usize count = channel_count_.load(std::memory_order_relaxed);
  for (usize i = 0; i < count; ++i) levels_[i].store(level, std::memory_order_relaxed);
}

void Logger::add_sink_impl(std::unique_ptr<Sink> sink) {
  KEEL_ASSERT(sink != nullptr, "null log sink");
  if (sink == nullptr) return;
  std::lock_guard lock(sinks_mutex_);
  sinks_.push_back(std::move(sink));
}

std::unique_ptr<Sink> Logger::remove_sink(const Sink& sink) {
  std::lock_guard lock(sinks_mutex_);
  auto it = std::find_if(sinks_.begin(), sinks_.end(),
                         [&](const std::unique_ptr<Sink>& s) { return s.get() == &sink; });
  if (it == sinks_.end()) return nullptr;
  std::unique_ptr<Sink> out = std::move(*it);
  sinks_.erase(it);
  return out;
}

void Logger::clear_sinks() {
  std::vector<std::unique_ptr<Sink>> old;
  {
    std::lock_guard lock(sinks_mutex_);
    old.swap(sinks_);
  }
  // Destroyed outside the lock (a FileSink flushes and closes here).
}

usize Logger::sink_count() const {
  std::lock_guard lock(sinks_mutex_);
  return sinks_.size();
}

void Logger::write(Channel channel, Level level, std::string_view message, std::string_view file,
                   u32 line) {
  if (!enabled(channel, level)) return;
  Record record;
  record.time = std::chrono::system_clock::now();
  record.level = level;
  record.channel = channel;
  record.channel_name = channel_name(channel);
  record.message = message;
  record.file = file;
  record.line = line;
  std::lock_guard lock(sinks_mutex_);
  for (const auto& sink : sinks_) {
    if (level >= sink->level()) sink->write(record);
  }
}

void Logger::flush() {
  std::lock_guard lock(sinks_mutex_);
  for (const auto& sink : sinks_) sink->flush();
}

Logger& default_logger() {
  // Deliberately never destroyed: code in static destructors may still log. Sinks are flushed at
  // exit instead.
  static Logger* const logger = [] {
    auto* l = new Logger();
    l->add_sink(std::make_unique<ConsoleSink>());
    std::atexit([] { default_logger().flush(); });
    return l;
  }();
  return *logger;
}

Channel register_channel(std::string_view name, Level level) {
  return default_logger().register_channel(name, level);
}

}  // namespace keel::log
