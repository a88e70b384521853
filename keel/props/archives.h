// The keel::serial archives a PropertyContainer serializes through, and how a registered type's
// value reaches them. The container's values are type-erased, so the per-type code cannot be a
// template over the archive: TypeRegistry::add<T> instantiates T's io for each archive below and
// keeps one function pointer per archive (ValueIoTable), picked by the archive's index.
#pragma once

#include "keel/serial/buffer_loader.h"
#include "keel/serial/buffer_saver.h"
#include "keel/serial/file_loader.h"
#include "keel/serial/file_saver.h"
#include "keel/serial/growing_saver.h"
#include "keel/serial/sizer.h"

#include <array>

namespace keel::props::detail {

template <class Archive>
inline constexpr int kArchiveIndex = -1;
template <>
inline constexpr int kArchiveIndex<serial::Sizer> = 0;
template <>
inline constexpr int kArchiveIndex<serial::BufferSaver> = 1;
template <>
inline constexpr int kArchiveIndex<serial::GrowingSaver> = 2;
template <>
inline constexpr int kArchiveIndex<serial::FileSaver> = 3;
template <>
inline constexpr int kArchiveIndex<serial::BufferLoader> = 4;
template <>
inline constexpr int kArchiveIndex<serial::FileLoader> = 5;
inline constexpr usize kArchiveCount = 6;

template <class Archive>
concept SerialArchive = kArchiveIndex<Archive>
>= 0;

using ValueIo = void (*)(void* archive, void* value);
using ValueIoTable = std::array<ValueIo, kArchiveCount>;

template <class Archive, class T>
void value_io(void* archive, void* value) {
  static_cast<Archive*>(archive)->io(*static_cast<T*>(value));
}

template <class T>
constexpr ValueIoTable value_io_table() {
  return {&value_io<serial::Sizer, T>,        &value_io<serial::BufferSaver, T>,
          &value_io<serial::GrowingSaver, T>, &value_io<serial::FileSaver, T>,
          &value_io<serial::BufferLoader, T>, &value_io<serial::FileLoader, T>};
}

template <SerialArchive Archive>
void io_value(const ValueIoTable& table, Archive& ar, void* value) {
  table[kArchiveIndex<Archive>](&ar, value);
}

}  // namespace keel::props::detail
