#include "keel/hashing/hash_list.h"

#include "keel/core/assert.h"

#include <algorithm>
#include <utility>

namespace keel::hashing::detail {

namespace {
constexpr u64 kMaxHash = 0xFFFFFFFFu;
}

usize HashListCore::lower_bound(Hash hash) const {
  const auto it = std::lower_bound(slots_.begin(), slots_.end(), hash,
                                   [](const Slot& s, Hash h) { return s.hash < h; });
  return static_cast<usize>(it - slots_.begin());
}

void* HashListCore::find(Hash hash) const {
  KEEL_ASSERT(!deferred_, "hash list: find before sort() in deferred-sort mode");
  usize i = lower_bound(hash);
  if (mode_ == Collisions::kIncremental) {
    // The run of consecutive position hashes starting at `hash`; the first live item whose own
    // hash is `hash` is the one added first.
    for (u64 h = hash; i < slots_.size() && slots_[i].hash == h; ++i, ++h) {
      if (slots_[i].data != nullptr && slots_[i].link == hash) return slots_[i].data;
    }
    return nullptr;
  }
  return i < slots_.size() && slots_[i].hash == hash ? slots_[i].data : nullptr;
}

void* HashListCore::find_if(Hash hash, MatchFn match, const void* context, usize* probes) const {
  KEEL_ASSERT(!deferred_, "hash list: find before sort() in deferred-sort mode");
  usize i = lower_bound(hash);
  usize examined = 0;
  void* result = nullptr;
  switch (mode_) {
    case Collisions::kReject:
    case Collisions::kSideBySide:
      for (; i < slots_.size() && slots_[i].hash == hash; ++i) {
        ++examined;
        if (match(slots_[i].data, context)) {
          result = slots_[i].data;
          break;
        }
      }
      break;
    case Collisions::kChained:
      if (i < slots_.size() && slots_[i].hash == hash) {
        ++examined;
        if (match(slots_[i].data, context)) {
          result = slots_[i].data;
          break;
        }
        for (u32 l = slots_[i].link; l != kNoLink; l = links_[l].next) {
          ++examined;
          if (match(links_[l].data, context)) {
            result = links_[l].data;
            break;
          }
        }
      }
      break;
    case Collisions::kIncremental:
      for (u64 h = hash; i < slots_.size() && slots_[i].hash == h; ++i, ++h) {
        ++examined;
        const Slot& s = slots_[i];
        if (s.data != nullptr && s.link == hash && match(s.data, context)) {
          result = s.data;
          break;
        }
      }
      break;
  }
  if (probes != nullptr) *probes = examined;
  return result;
}

Hash HashListCore::hash_at(usize index) const {
  KEEL_ASSERT(index < slots_.size(), "hash list index {} out of range ({})", index, slots_.size());
  return index < slots_.size() ? slots_[index].hash : 0;
}

void HashListCore::for_each(VisitFn visit, void* context) const {
  for (const Slot& s : slots_) {
    if (s.data == nullptr) continue;  // tombstone
    visit(mode_ == Collisions::kIncremental ? s.link : s.hash, s.data, context);
    if (mode_ == Collisions::kChained) {
      for (u32 l = s.link; l != kNoLink; l = links_[l].next) visit(s.hash, links_[l].data, context);
    }
  }
}

Status HashListCore::add(Hash hash, void* data) {
  KEEL_ASSERT(data != nullptr, "a hash list cannot store null data (null means missing)");
  if (data == nullptr) {
    return fail(ErrorCode::kInvalidArgument, "hash list: null data (null means missing)");
  }
  if (deferred_) {
    slots_.push_back(Slot{hash, mode_ == Collisions::kChained ? kNoLink : hash, data});
    ++live_;
    return ok();
  }
  usize i = lower_bound(hash);
  switch (mode_) {
    case Collisions::kReject:
      if (i < slots_.size() && slots_[i].hash == hash) {
        return fail(ErrorCode::kAlreadyExists, "hash 0x{:08X} is already in the list", hash);
      }
      slots_.insert(slots_.begin() + static_cast<std::ptrdiff_t>(i), Slot{hash, 0, data});
      break;
    case Collisions::kSideBySide:
      for (; i < slots_.size() && slots_[i].hash == hash; ++i) {
        if (slots_[i].data == data) {
          return fail(ErrorCode::kAlreadyExists, "item is already in the list under 0x{:08X}",
                      hash);
        }
      }
      slots_.insert(slots_.begin() + static_cast<std::ptrdiff_t>(i), Slot{hash, 0, data});
      break;
    case Collisions::kChained:
      if (i < slots_.size() && slots_[i].hash == hash) {
        if (slots_[i].data == data) {
          return fail(ErrorCode::kAlreadyExists, "item is already in the list under 0x{:08X}",
                      hash);
        }
        u32* tail = &slots_[i].link;
        while (*tail != kNoLink) {
          if (links_[*tail].data == data) {
            return fail(ErrorCode::kAlreadyExists, "item is already in the list under 0x{:08X}",
                        hash);
          }
          tail = &links_[*tail].next;
        }
        // new_link may grow links_, so the tail is re-found through its index.
        const u32 link = new_link(data, kNoLink);
        u32* end = &slots_[i].link;
        while (*end != kNoLink) end = &links_[*end].next;
        *end = link;
      } else {
        slots_.insert(slots_.begin() + static_cast<std::ptrdiff_t>(i), Slot{hash, kNoLink, data});
      }
      break;
    case Collisions::kIncremental:
      if (Status s = add_incremental(hash, data); !s) return s;
      break;
  }
  ++live_;
  return ok();
}

// The book's add: walk the run of consecutive hashes from `hash`; stop at the first gap and
// insert there, or reuse a tombstone. Departure: the whole run is scanned for the same item
// before a tombstone is reused (the book stops at the first tombstone and can store an item
// twice when its copy sits after the tombstone).
Status HashListCore::add_incremental(Hash hash, void* data) {
  usize i = lower_bound(hash);
  usize tombstone = slots_.size();
  u64 h = hash;
  for (; i < slots_.size() && slots_[i].hash == h; ++i, ++h) {
    const Slot& s = slots_[i];
    if (s.data == data && s.link == hash) {
      return fail(ErrorCode::kAlreadyExists, "item is already in the list under 0x{:08X}", hash);
    }
    if (s.data == nullptr && tombstone == slots_.size()) tombstone = i;
  }
  if (tombstone != slots_.size()) {
    slots_[tombstone].data = data;
    slots_[tombstone].link = hash;
    return ok();
  }
  if (h > kMaxHash) {
    return fail(ErrorCode::kOverflow,
                "incremental hash: the run from 0x{:08X} reaches 0xFFFFFFFF; no free hash above it",
                hash);
  }
  slots_.insert(slots_.begin() + static_cast<std::ptrdiff_t>(i),
                Slot{static_cast<Hash>(h), hash, data});
  return ok();
}

Status HashListCore::remove(Hash hash) {
  void* data = find(hash);
  if (data == nullptr) return fail(ErrorCode::kNotFound, "no item with hash 0x{:08X}", hash);
  return remove(hash, data);
}

Status HashListCore::remove(Hash hash, const void* data) {
  KEEL_ASSERT(!deferred_, "hash list: remove before sort() in deferred-sort mode");
  usize i = lower_bound(hash);
  const bool hit = i < slots_.size() && slots_[i].hash == hash;
  switch (mode_) {
    case Collisions::kReject:
      if (!hit || slots_[i].data != data) {
        return fail(ErrorCode::kNotFound, "item not in the list under 0x{:08X}", hash);
      }
      slots_.erase(slots_.begin() + static_cast<std::ptrdiff_t>(i));
      break;
    case Collisions::kSideBySide:
      for (; i < slots_.size() && slots_[i].hash == hash && slots_[i].data != data; ++i) {
      }
      if (i == slots_.size() || slots_[i].hash != hash) {
        return fail(ErrorCode::kNotFound, "item not in the list under 0x{:08X}", hash);
      }
      slots_.erase(slots_.begin() + static_cast<std::ptrdiff_t>(i));
      break;
    case Collisions::kChained:
      if (!hit) return fail(ErrorCode::kNotFound, "item not in the list under 0x{:08X}", hash);
      if (Status s = remove_chained(i, data); !s) return s;
      break;
    case Collisions::kIncremental:
      if (Status s = remove_incremental(hash, data); !s) return s;
      break;
  }
  --live_;
  return ok();
}

Status HashListCore::remove_chained(usize index, const void* data) {
  Slot& s = slots_[index];
  if (s.data == data) {
    if (s.link == kNoLink) {
      slots_.erase(slots_.begin() + static_cast<std::ptrdiff_t>(index));
    } else {
      const u32 first = s.link;  // promote the first chained item into the array
      s.data = links_[first].data;
      s.link = links_[first].next;
      free_link(first);
    }
    return ok();
  }
  for (u32* prev = &s.link; *prev != kNoLink; prev = &links_[*prev].next) {
    const u32 l = *prev;
    if (links_[l].data == data) {
      *prev = links_[l].next;
      free_link(l);
      return ok();
    }
  }
  return fail(ErrorCode::kNotFound, "item not in the list under 0x{:08X}", s.hash);
}

// The book's remove: find the item in the run; if the next entry continues the run, leave a
// tombstone so later members stay reachable; otherwise delete it together with the tombstones
// directly before it. The walk back stops at hash 0 (no wrap to 0xFFFFFFFF).
Status HashListCore::remove_incremental(Hash hash, const void* data) {
  usize i = lower_bound(hash);
  for (u64 h = hash;; ++i, ++h) {
    if (i == slots_.size() || slots_[i].hash != h) {
      return fail(ErrorCode::kNotFound, "item not in the list under 0x{:08X}", hash);
    }
    if (slots_[i].data == data && slots_[i].link == hash) break;
  }
  const u64 here = slots_[i].hash;
  if (i + 1 < slots_.size() && slots_[i + 1].hash == here + 1) {
    slots_[i].data = nullptr;  // tombstone
    slots_[i].link = 0;
    return ok();
  }
  const usize last = i;
  while (i > 0 && slots_[i - 1].data == nullptr &&
         static_cast<u64>(slots_[i - 1].hash) + 1 == slots_[i].hash) {
    --i;
  }
  slots_.erase(slots_.begin() + static_cast<std::ptrdiff_t>(i),
               slots_.begin() + static_cast<std::ptrdiff_t>(last) + 1);
  return ok();
}

void HashListCore::clear() {
  slots_.clear();
  links_.clear();
  free_link_ = kNoLink;
  live_ = 0;
}

u32 HashListCore::new_link(void* data, u32 next) {
  if (free_link_ != kNoLink) {
    const u32 l = free_link_;
    free_link_ = links_[l].next;
    links_[l] = ChainLink{data, next};
    return l;
  }
  KEEL_ASSERT(links_.size() < kNoLink, "hash list: too many chained items");
  links_.push_back(ChainLink{data, next});
  return static_cast<u32>(links_.size() - 1);
}

void HashListCore::free_link(u32 index) {
  links_[index] = ChainLink{nullptr, free_link_};
  free_link_ = index;
}

void HashListCore::flatten_chains() {
  if (mode_ != Collisions::kChained) return;
  const usize heads = slots_.size();
  for (usize i = 0; i < heads; ++i) {
    for (u32 l = slots_[i].link; l != kNoLink; l = links_[l].next) {
      slots_.push_back(Slot{slots_[i].hash, kNoLink, links_[l].data});
    }
    slots_[i].link = kNoLink;
  }
  links_.clear();
  free_link_ = kNoLink;
}

Status HashListCore::sort() {
  if (!deferred_) return ok();
  deferred_ = false;
  flatten_chains();

  // Every live item under its own hash, sorted by (hash, order added): a stable O(n log n)
  // sort (std::sort is introsort, so sorted input is no worst case). `link` holds the order.
  KEEL_ASSERT(slots_.size() < kNoLink, "hash list: too many items");
  std::vector<Slot> items;
  items.reserve(slots_.size());
  for (const Slot& s : slots_) {
    if (s.data == nullptr) continue;
    const Hash own = mode_ == Collisions::kIncremental ? s.link : s.hash;
    items.push_back(Slot{own, static_cast<u32>(items.size()), s.data});
  }
  std::sort(items.begin(), items.end(), [](const Slot& a, const Slot& b) {
    return a.hash != b.hash ? a.hash < b.hash : a.link < b.link;
  });

  usize dropped = 0;
  ErrorCode first_code = ErrorCode::kAlreadyExists;
  std::string first_problem;
  auto drop = [&](ErrorCode code, std::string problem) {
    if (dropped++ == 0) {
      first_code = code;
      first_problem = std::move(problem);
    }
  };

  std::vector<Slot> out;
  out.reserve(items.size());
  std::vector<std::pair<void*, usize>> by_pointer;
  std::vector<bool> keep;
  live_ = 0;
  for (usize g = 0; g < items.size();) {
    usize e = g + 1;
    while (e < items.size() && items[e].hash == items[g].hash) ++e;
    const Hash hash = items[g].hash;
    keep.assign(e - g, true);
    if (mode_ == Collisions::kReject) {
      for (usize k = 1; k < e - g; ++k) {
        keep[k] = false;
        drop(ErrorCode::kAlreadyExists, fmt::format("hash 0x{:08X} is already taken", hash));
      }
    } else if (e - g > 1) {
      by_pointer.clear();
      for (usize k = g; k < e; ++k) by_pointer.emplace_back(items[k].data, k - g);
      std::sort(by_pointer.begin(), by_pointer.end());
      for (usize k = 1; k < by_pointer.size(); ++k) {
        if (by_pointer[k].first == by_pointer[k - 1].first) {
          keep[by_pointer[k].second] = false;
          drop(ErrorCode::kAlreadyExists,
               fmt::format("an item was added twice under 0x{:08X}", hash));
        }
      }
    }
    usize head = out.size();
    bool have_head = false;
    for (usize k = g; k < e; ++k) {
      if (!keep[k - g]) continue;
      void* data = items[k].data;
      switch (mode_) {
        case Collisions::kReject:
        case Collisions::kSideBySide: out.push_back(Slot{hash, 0, data}); break;
        case Collisions::kChained:
          if (!have_head) {
            head = out.size();
            have_head = true;
            out.push_back(Slot{hash, kNoLink, data});
          } else {
            const u32 link = new_link(data, kNoLink);
            u32* end = &out[head].link;
            while (*end != kNoLink) end = &links_[*end].next;
            *end = link;
          }
          break;
        case Collisions::kIncremental: {
          const u64 position = out.empty() ? hash : std::max<u64>(hash, u64{out.back().hash} + 1);
          if (position > kMaxHash) {
            drop(ErrorCode::kOverflow,
                 fmt::format("incremental hash: the run from 0x{:08X} passes 0xFFFFFFFF", hash));
            continue;
          }
          out.push_back(Slot{static_cast<Hash>(position), hash, data});
          break;
        }
      }
      ++live_;
    }
    g = e;
  }
  slots_ = std::move(out);
  if (dropped != 0) {
    return fail(first_code, "hash list sort dropped {} item(s); first: {}", dropped, first_problem);
  }
  return ok();
}

}  // namespace keel::hashing::detail
