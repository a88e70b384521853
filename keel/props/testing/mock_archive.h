// Test support, not part of the props API: minimal archives with keel::serial's interface
// (io/operator(), ok, status, fail, finish, kLoading/kSaving/kSizing) over a byte vector,
// big-endian, strings as a u32 length plus bytes. props cannot use keel::serial (same layer), so
// its tests and fuzz target run the container's serialize() against these.
#pragma once

#include "keel/core/error.h"
#include "keel/core/types.h"

#include <bit>
#include <concepts>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

namespace keel::props::testing {

template <typename T>
concept MockScalar = std::same_as<T, bool> || std::same_as<T, u8> || std::same_as<T, u16> ||
    std::same_as<T, u32> || std::same_as<T, u64> || std::same_as<T, s8> || std::same_as<T, s16> ||
    std::same_as<T, s32> || std::same_as<T, s64> || std::same_as<T, f32> || std::same_as<T, f64>;

template <typename T>
constexpr usize wire_size() {
  return std::same_as<T, bool> ? 1 : sizeof(T);
}

// Sticky error state shared by the three archives.
class MockArchiveBase {
 public:
  bool ok() const { return !error_; }
  Status status() const {
    if (ok()) return keel::ok();
    return Unexpected(*error_);
  }
  void fail(ErrorCode code, std::string message) {
    if (error_) return;
    error_.emplace(code, std::move(message), SourceLocation::bytes("", offset_));
  }
  usize offset() const { return offset_; }

 protected:
  std::optional<Error> error_;
  usize offset_ = 0;
};

class MockSizer : public MockArchiveBase {
 public:
  static constexpr bool kLoading = false, kSaving = false, kSizing = true;
  template <MockScalar T>
  void io(T&) {
    if (ok()) offset_ += wire_size<T>();
  }
  void io(std::string& s) {
    if (ok()) offset_ += 4 + s.size();
  }
  template <typename... Ts>
  void operator()(Ts&... values) {
    (io(values), ...);
  }
  usize size() const { return offset_; }
};

class MockSaver : public MockArchiveBase {
 public:
  static constexpr bool kLoading = false, kSaving = true, kSizing = false;
  template <MockScalar T>
  void io(T& value) {
    if (!ok()) return;
    if constexpr (std::same_as<T, bool>) {
      bytes_.push_back(value ? 1 : 0);
    } else {
      using U = std::conditional_t<
          sizeof(T) == 1, u8,
          std::conditional_t<sizeof(T) == 2, u16, std::conditional_t<sizeof(T) == 4, u32, u64>>>;
      U raw;
      std::memcpy(&raw, &value, sizeof(T));
      for (int shift = 8 * (static_cast<int>(sizeof(T)) - 1); shift >= 0; shift -= 8) {
        bytes_.push_back(static_cast<u8>(raw >> shift));
      }
    }
    offset_ = bytes_.size();
  }
  void io(std::string& s) {
    u32 length = static_cast<u32>(s.size());
    io(length);
    if (!ok()) return;
    bytes_.insert(bytes_.end(), s.begin(), s.end());
    offset_ = bytes_.size();
  }
  template <typename... Ts>
  void operator()(Ts&... values) {
    (io(values), ...);
  }
  const std::vector<u8>& bytes() const { return bytes_; }

 private:
  std::vector<u8> bytes_;
};

class MockLoader : public MockArchiveBase {
 public:
  static constexpr bool kLoading = true, kSaving = false, kSizing = false;
  explicit MockLoader(std::span<const u8> data) : data_(data) {}

  template <MockScalar T>
  void io(T& value) {
    if (!ok()) return;
    if (data_.size() - offset_ < wire_size<T>()) {
      fail(ErrorCode::kUnderflow, "data ends early");
      return;
    }
    if constexpr (std::same_as<T, bool>) {
      const u8 b = data_[offset_++];
      if (b > 1) {
        --offset_;
        fail(ErrorCode::kCorrupt, "bool byte is not 0 or 1");
        return;
      }
      value = b != 0;
    } else {
      u64 raw = 0;
      for (usize i = 0; i < sizeof(T); ++i) raw = (raw << 8) | data_[offset_ + i];
      offset_ += sizeof(T);
      using U = std::conditional_t<
          sizeof(T) == 1, u8,
          std::conditional_t<sizeof(T) == 2, u16, std::conditional_t<sizeof(T) == 4, u32, u64>>>;
      const U narrow = static_cast<U>(raw);
      std::memcpy(&value, &narrow, sizeof(T));
    }
  }
  void io(std::string& s) {
    u32 length = 0;
    io(length);
    if (!ok()) return;
    if (data_.size() - offset_ < length) {
      fail(ErrorCode::kUnderflow, "string longer than the data left");
      return;
    }
    s.assign(reinterpret_cast<const char*>(data_.data() + offset_), length);
    offset_ += length;
  }
  template <typename... Ts>
  void operator()(Ts&... values) {
    (io(values), ...);
  }
  // After the whole object: any error, else kTrailingData if bytes are left.
  Status finish() {
    if (ok() && offset_ != data_.size()) {
      fail(ErrorCode::kTrailingData, "data left over");
    }
    return status();
  }

 private:
  std::span<const u8> data_;
};

}  // namespace keel::props::testing
