// Linear and binary search with probe counts (Golden Rules ch. 2, "Divide & Conquer").
//
//   std::vector<std::string> words = ...;  // sorted
//   const keel::spatial::SearchResult b = keel::spatial::binary_search(words, "keel");
//   if (b.found()) use(words[*b.index]);  // b.probes: comparisons made (<= floor(log2 n) + 1)
//
// binary_search is the book's seven steps, probe first: bottom/top bracket the candidates, the
// middle is compared, equal stops, otherwise one half is dropped. With duplicates it returns
// some equal element (not necessarily the first), as the book's algorithm does. linear_search
// compares from the front. Both take a strict-weak-order `less` (binary) or an equality test
// (linear: `less` both ways).
#pragma once

#include "keel/core/types.h"

#include <cstddef>
#include <functional>
#include <optional>
#include <span>

namespace keel::spatial {

struct SearchResult {
  std::optional<usize> index;  // of an element equal to the key
  u32 probes = 0;              // elements compared with the key

  bool found() const { return index.has_value(); }
};

template <typename T, typename Key, typename Less = std::less<>>
SearchResult binary_search(std::span<const T> items, const Key& key, Less less = {}) {
  SearchResult r;
  std::ptrdiff_t bottom = 0;  // step 1
  std::ptrdiff_t top = static_cast<std::ptrdiff_t>(items.size()) - 1;
  while (bottom <= top) {                                    // step 2
    const std::ptrdiff_t mid = bottom + (top - bottom) / 2;  // step 3
    const T& probe = items[static_cast<usize>(mid)];         // step 4
    ++r.probes;
    if (less(key, probe)) {
      top = mid - 1;  // step 6
    } else if (less(probe, key)) {
      bottom = mid + 1;  // step 7
    } else {
      r.index = static_cast<usize>(mid);  // step 5
      return r;
    }
  }
  return r;
}

template <typename T, typename Key, typename Less = std::less<>>
SearchResult linear_search(std::span<const T> items, const Key& key, Less less = {}) {
  SearchResult r;
  for (usize i = 0; i < items.size(); ++i) {
    ++r.probes;
    if (!less(items[i], key) && !less(key, items[i])) {
      r.index = i;
      return r;
    }
  }
  return r;
}

}  // namespace keel::spatial
