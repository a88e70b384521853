#include "keel/serial/growing_saver.h"

#include <algorithm>

namespace keel::serial {

GrowingSaver::GrowingSaver(usize initial_capacity)
    : buffer_(new u8[std::max<usize>(initial_capacity, 16)]),
      capacity_(std::max<usize>(initial_capacity, 16)),
      cur_(buffer_.get()),
      end_(buffer_.get() + capacity_) {}

void GrowingSaver::clear() {
  clear_error();
  cur_ = buffer_.get();
  end_ = buffer_.get() + capacity_;
}

bool GrowingSaver::grow(usize size) {
  if (!ok()) return false;
  const usize used_bytes = used();
  const usize capacity = std::max(capacity_ * 2, used_bytes + size);
  std::unique_ptr<u8[]> bigger(new u8[capacity]);
  std::memcpy(bigger.get(), buffer_.get(), used_bytes);
  buffer_ = std::move(bigger);
  capacity_ = capacity;
  cur_ = buffer_.get() + used_bytes;
  end_ = buffer_.get() + capacity_;
  return true;
}

}  // namespace keel::serial
