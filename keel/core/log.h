// The engine log: channels, levels, sinks.
//
// A Logger owns a table of channels (each with its own minimum level) and a list of sinks. A
// message is formatted once with fmt and handed, as a Record, to every sink whose own level lets
// it through. Three channels exist in every logger (Channel::kApp, kClient, kUser); a game adds
// more by name with register_channel("audio").
//
// The log is one of Keel's allowed globals: default_logger() is a process-wide Logger that starts
// with a ConsoleSink on stderr. The KEEL_LOG_* macros write to it and check the level first, so a
// message below its channel's level costs one atomic load: neither the format string nor the
// arguments are evaluated. Code that wants its own logger (tests, tools) builds a Logger and calls
// log() or uses KEEL_LOG_TO.
//
// Thread safety: everything here may be called from any thread. Levels are atomics; registering
// channels and adding/removing sinks take a mutex; formatting happens on the calling thread
// outside any lock and sink dispatch is serialised by the logger's mutex, so sinks never see two
// records at once and lines never interleave.
#pragma once

#include "keel/core/assert.h"
#include "keel/core/error.h"
#include "keel/core/types.h"

#include <fmt/format.h>

#include <array>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace keel::log {

enum class Level : u8 { kTrace, kDebug, kInfo, kWarn, kError, kOff };

// "trace", "debug", "info", "warn", "error", "off".
std::string_view to_string(Level level);
// Accepts the names above (case-insensitive) and "warning".
std::optional<Level> parse_level(std::string_view text);

// A channel is an index into a logger's channel table. The three built-in channels have the same
// index in every logger; registered channels are numbered in registration order.
class Channel {
 public:
  constexpr Channel() = default;
  constexpr explicit Channel(u16 id) : id_(id) {}
  constexpr u16 id() const { return id_; }
  friend constexpr bool operator==(Channel, Channel) = default;

  static const Channel kApp;     // the engine and application ("app")
  static const Channel kClient;  // the game running on the engine ("client")
  static const Channel kUser;    // messages meant for the player ("user")

 private:
  u16 id_ = 0;
};

inline constexpr Channel Channel::kApp{0};
inline constexpr Channel Channel::kClient{1};
inline constexpr Channel Channel::kUser{2};

// One message as a sink receives it. The views are valid only during Sink::write; a sink that
// keeps a record copies what it needs.
struct Record {
  std::chrono::system_clock::time_point time;
  Level level = Level::kInfo;
  Channel channel;
  std::string_view channel_name;
  std::string_view message;
  std::string_view file;  // as the macro saw it (__FILE__); empty when unknown
  u32 line = 0;
};

// "12:34:56.789 WARN  [app] message (file.cpp:42)": local time, level padded to five columns,
// channel, message, and the source file's base name and line when known. With `with_date` the
// time is preceded by "YYYY-MM-DD ".
std::string format_record(const Record& record, bool with_date = false);

// Receives records. Each sink has its own minimum level (default: trace, i.e. everything the
// channel lets through). write() is never called concurrently by one Logger.
class Sink {
 public:
  virtual ~Sink() = default;
  virtual void write(const Record& record) = 0;
  virtual void flush() {}

  void set_level(Level level) { level_.store(level, std::memory_order_relaxed); }
  Level level() const { return level_.load(std::memory_order_relaxed); }

 private:
  std::atomic<Level> level_{Level::kTrace};
};

enum class ColorMode : u8 {
  kAuto,    // colour when the stream is a terminal and NO_COLOR is not set
  kAlways,  // always emit ANSI colour codes
  kNever,   // plain text
};

// Writes one formatted line per record to a stdio stream (stderr by default), with an ANSI colour
// per level when the stream is a terminal. Flushes after every record at warn and above.
class ConsoleSink final : public Sink {
 public:
  explicit ConsoleSink(std::FILE* stream = stderr, ColorMode mode = ColorMode::kAuto);
  void write(const Record& record) override;
  void flush() override;
  bool uses_color() const { return color_; }

 private:
  std::FILE* stream_;
  bool color_;
};

// Appends one formatted line (with the date) per record to a file. Output is buffered and flushed
// after every record at warn and above, on flush() and when the sink is destroyed, so the lines
// that explain a crash are on disk.
class FileSink final : public Sink {
 public:
  // Opens `path` for appending (creating the file, not its directory, if needed).
  static Result<std::unique_ptr<FileSink>> open(const std::filesystem::path& path);
  ~FileSink() override;
  FileSink(const FileSink&) = delete;
  FileSink& operator=(const FileSink&) = delete;

  void write(const Record& record) override;
  void flush() override;
  const std::filesystem::path& path() const { return path_; }

 private:
  FileSink(std::filesystem::path path, std::FILE* file) : path_(std::move(path)), file_(file) {}
  std::filesystem::path path_;
  std::FILE* file_;
};

// Keeps every record in memory; for tests and in-game consoles. Safe to read while other threads
// log.
class MemorySink final : public Sink {
 public:
  struct Entry {
    std::chrono::system_clock::time_point time;
    Level level = Level::kInfo;
    Channel channel;
    std::string channel_name;
    std::string message;
    std::string file;
    u32 line = 0;
  };

  void write(const Record& record) override;
  std::vector<Entry> entries() const;
  std::vector<std::string> messages() const;
  usize size() const;
  void clear();
  // True when some kept message contains `text`.
  bool contains(std::string_view text) const;

 private:
  mutable std::mutex mutex_;
  std::vector<Entry> entries_;
};

class Logger {
 public:
  static constexpr usize kMaxChannels = 64;
  static constexpr Level kDefaultLevel = Level::kInfo;

  // Channels app, client and user at kDefaultLevel; no sinks.
  Logger();
  ~Logger();
  Logger(const Logger&) = delete;
  Logger& operator=(const Logger&) = delete;

  // Returns the channel called `name`, registering it at `level` if it is new (an existing
  // channel keeps its level). Registering more than kMaxChannels channels is a programmer error
  // (asserts; returns Channel::kApp), and so is an empty name (same).
  Channel register_channel(std::string_view name, Level level = kDefaultLevel);
  std::optional<Channel> find_channel(std::string_view name) const;
  // "?" for a channel this logger never registered.
  std::string_view channel_name(Channel channel) const;
  usize channel_count() const;

  // Minimum level of a channel; messages below it are dropped before formatting. A channel this
  // logger never registered is always off.
  void set_level(Channel channel, Level level);
  Level level(Channel channel) const;
  // Sets every registered channel's level.
  void set_all_levels(Level level);

  bool enabled(Channel channel, Level level) const {
    if (level >= Level::kOff || channel.id() >= kMaxChannels) return false;
    return level >= levels_[channel.id()].load(std::memory_order_relaxed);
  }

  // Takes ownership of a sink and returns it for further configuration.
  // A null sink is a programmer error: asserts, then (release) a default-constructed S stands in.
  template <typename S>
  S& add_sink(std::unique_ptr<S> sink) {
    KEEL_ASSERT(sink != nullptr, "null log sink");
    if constexpr (std::is_default_constructible_v<S>) {
      if (sink == nullptr) sink = std::make_unique<S>();
    }
    S& ref = *sink;
    add_sink_impl(std::unique_ptr<Sink>(std::move(sink)));
    return ref;
  }
  // Hands a sink back to the caller (null if it is not one of ours).
  std::unique_ptr<Sink> remove_sink(const Sink& sink);
  void clear_sinks();
  usize sink_count() const;

  // Formats and dispatches a message if the channel's level allows it.
  template <typename... Args>
  void log(Channel channel, Level level, std::string_view file, u32 line,
           fmt::format_string<Args...> format, Args&&... args) {
    if (!enabled(channel, level)) return;
    write(channel, level, fmt::format(format, std::forward<Args>(args)...), file, line);
  }

  // Dispatches an already formatted message (checks the level too).
  void write(Channel channel, Level level, std::string_view message, std::string_view file = {},
             u32 line = 0);
  void flush();

 private:
  void add_sink_impl(std::unique_ptr<Sink> sink);

  std::array<std::atomic<Level>, kMaxChannels> levels_;
  mutable std::mutex channels_mutex_;
  // Fixed slots, so a name's address never moves once its channel is handed out.
  std::array<std::string, kMaxChannels> names_;
  std::atomic<usize> channel_count_{0};

  mutable std::mutex sinks_mutex_;
  std::vector<std::unique_ptr<Sink>> sinks_;
};

// The process-wide logger: created on first use with a ConsoleSink on stderr, flushed at exit and
// never destroyed (so code running in static destructors can still log).
Logger& default_logger();

// default_logger().register_channel(name, level).
Channel register_channel(std::string_view name, Level level = Logger::kDefaultLevel);

}  // namespace keel::log

// KEEL_LOG_TO(logger, level, channel, "format {}", args...): checks the level first; when the
// channel is below `level` neither the format nor the arguments are evaluated.
#define KEEL_LOG_TO(logger, level, channel, ...)                             \
  do {                                                                       \
    ::keel::log::Logger& keel_log_target_ = (logger);                        \
    const ::keel::log::Channel keel_log_channel_ = (channel);                \
    if (keel_log_target_.enabled(keel_log_channel_, (level))) {              \
      keel_log_target_.log(keel_log_channel_, (level), __FILE__,             \
                           static_cast<::keel::u32>(__LINE__), __VA_ARGS__); \
    }                                                                        \
  } while (false)

// KEEL_LOG_INFO(channel, "format {}", args...) and friends write to default_logger().
#define KEEL_LOG_TRACE(channel, ...) \
  KEEL_LOG_TO(::keel::log::default_logger(), ::keel::log::Level::kTrace, channel, __VA_ARGS__)
#define KEEL_LOG_DEBUG(channel, ...) \
  KEEL_LOG_TO(::keel::log::default_logger(), ::keel::log::Level::kDebug, channel, __VA_ARGS__)
#define KEEL_LOG_INFO(channel, ...) \
  KEEL_LOG_TO(::keel::log::default_logger(), ::keel::log::Level::kInfo, channel, __VA_ARGS__)
#define KEEL_LOG_WARN(channel, ...) \
  KEEL_LOG_TO(::keel::log::default_logger(), ::keel::log::Level::kWarn, channel, __VA_ARGS__)
#define KEEL_LOG_ERROR(channel, ...) \
  KEEL_LOG_TO(::keel::log::default_logger(), ::keel::log::Level::kError, channel, __VA_ARGS__)
