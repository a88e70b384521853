// keel::serial in one include, plus whole-object helpers:
//
//   Result<usize>           serialized_size(value)
//   Result<ByteBuffer>      save_to_bytes(value)              // sizes, then saves
//   Status                  load_from_bytes(bytes, value)     // all bytes must be consumed
//   Status                  save_file(path, value)            // streamed, atomic (temp + rename)
//   Status                  load_file(path, value)            // streamed, all bytes consumed
//
// The load helpers are all-or-nothing for copyable types: they load into a copy and assign it
// only on success, so a bad file never leaves `value` half-loaded.
#pragma once

#include "keel/serial/archive.h"
#include "keel/serial/buffer_loader.h"
#include "keel/serial/buffer_saver.h"
#include "keel/serial/file_loader.h"
#include "keel/serial/file_saver.h"
#include "keel/serial/growing_saver.h"
#include "keel/serial/sizer.h"
#include "keel/serial/versioned.h"
#include "keel/serial/wire.h"

#include <filesystem>
#include <span>
#include <string_view>
#include <type_traits>
#include <vector>

namespace keel::serial {

template <class T>
Result<usize> serialized_size(const T& value) {
  Sizer sizer;
  sizer.io(value);
  if (!sizer.ok()) return Unexpected(sizer.status().error());
  return sizer.size();
}

template <class T>
Result<ByteBuffer> save_to_bytes(const T& value) {
  auto size = serialized_size(value);
  if (!size) return Unexpected(std::move(size.error()));
  ByteBuffer bytes(*size);
  BufferSaver saver(bytes);
  saver.io(value);
  if (!saver.ok()) return Unexpected(saver.status().error());
  KEEL_ASSERT(saver.remaining() == 0,
              "serialize() wrote {} bytes but the sizer counted {}: it must not depend on the "
              "archive beyond kLoading/kSaving/kSizing",
              saver.used(), bytes.size());
  return bytes;
}

namespace detail {
// Runs `load(target)` on a copy of `value` when T is copyable and commits it on success.
template <class T, class Load>
Status load_transactional(T& value, Load&& load) {
  if constexpr (std::is_copy_constructible_v<T> && std::is_move_assignable_v<T>) {
    T copy(value);
    Status status = load(copy);
    if (status) value = std::move(copy);
    return status;
  } else {
    return load(value);
  }
}
}  // namespace detail

template <class T>
Status load_from_bytes(ByteSpan bytes, T& value, LoadLimits limits = {}) {
  return detail::load_transactional(value, [&](T& target) {
    BufferLoader loader(bytes, limits);
    loader.io(target);
    return loader.finish();
  });
}

template <class T>
Status load_from_bytes(std::string_view bytes, T& value, LoadLimits limits = {}) {
  return load_from_bytes(as_bytes(bytes), value, limits);
}

template <class T>
Status save_file(const std::filesystem::path& path, const T& value) {
  FileSaver saver(path);
  saver.io(value);
  return saver.commit();
}

template <class T>
Status load_file(const std::filesystem::path& path, T& value, LoadLimits limits = {}) {
  return detail::load_transactional(value, [&](T& target) {
    FileLoader loader(path, limits);
    loader.io(target);
    return loader.finish();
  });
}

}  // namespace keel::serial
