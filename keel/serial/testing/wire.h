// Test support, not installed: wire bytes written as the numbers they are.
#pragma once

#include "keel/core/bytes.h"

#include <initializer_list>

namespace keel::serial::testing {

// wire({0, 0, 0, 2, 'h', 'i'}): the bytes of a hand-written wire image.
inline ByteBuffer wire(std::initializer_list<u8> values) {
  ByteBuffer out;
  out.reserve(values.size());
  for (u8 v : values) out.push_back(std::byte{v});
  return out;
}

}  // namespace keel::serial::testing
