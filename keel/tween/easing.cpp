#include "keel/tween/easing.h"

#include <array>
#include <utility>

namespace keel::tween {

namespace {

using EaseFn = f32 (*)(f32);

template <usize... I>
constexpr std::array<EaseFn, kEaseCount> make_table(std::index_sequence<I...>) {
  return {&ease_at<static_cast<Ease>(I)>...};
}
constexpr auto kTable = make_table(std::make_index_sequence<kEaseCount>{});

constexpr std::array<std::string_view, kEaseCount> kNames = {
    "linear",       "in_quad",    "out_quad",    "in_out_quad",    "in_cubic",  "out_cubic",
    "in_out_cubic", "in_quart",   "out_quart",   "in_out_quart",   "in_quint",  "out_quint",
    "in_out_quint", "in_sine",    "out_sine",    "in_out_sine",    "in_expo",   "out_expo",
    "in_out_expo",  "in_circ",    "out_circ",    "in_out_circ",    "in_back",   "out_back",
    "in_out_back",  "in_elastic", "out_elastic", "in_out_elastic", "in_bounce", "out_bounce",
    "in_out_bounce"};

}  // namespace

std::string_view ease_name(Ease e) {
  const auto i = static_cast<usize>(e);
  return i < kEaseCount ? kNames[i] : std::string_view("?");
}

f32 ease(Ease e, f32 t) {
  const auto i = static_cast<usize>(e);
  return i < kEaseCount ? kTable[i](t) : t;
}

}  // namespace keel::tween
