// Fuzz target: load a PropertyContainer from arbitrary bytes through keel::serial's BufferLoader.
// Loading must never crash or over-allocate; a failed load must leave the container untouched; a
// successful one must save back to bytes that load to the same thing.
#include "keel/core/assert.h"
#include "keel/props/container.h"
#include "keel/props/type_registry.h"
#include "keel/serial/buffer_loader.h"
#include "keel/serial/growing_saver.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace {

using namespace keel;

struct Vec2 {
  f32 x = 0;
  f32 y = 0;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(x, y);
  }
};

struct Path {
  std::vector<Vec2> points;
  std::optional<std::string> label;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(points, label);
  }
};

const props::TypeRegistry& registry() {
  static const props::TypeRegistry* types = [] {
    auto* r = new props::TypeRegistry();
    if (!r->add<Vec2>("vec2") || !r->add<Path>("path")) std::abort();
    return r;
  }();
  return *types;
}

void check(bool condition) {
  if (!condition) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  props::PropertyContainer container(registry());
  check(container.set<s32>("hp", 7).has_value());
  int calls = 0;
  check(container.listen<s32>("hp", [&](const s32&, const s32&) { ++calls; }).has_value());

  serial::BufferLoader loader(as_bytes(std::span<const u8>(data, size)));
  container.serialize(loader);
  if (!loader.ok()) {
    // All or nothing: a load that failed inside the container changed nothing.
    check(container.size() == 1 && container.get<s32>("hp").value_or(0) == 7 && calls == 0);
    return 0;
  }
  if (!loader.finish()) return 0;  // trailing bytes: the archive's business, found afterwards
  serial::GrowingSaver saver;
  container.serialize(saver);
  check(saver.ok());
  props::PropertyContainer again(registry());
  serial::BufferLoader reloader(saver.bytes());
  again.serialize(reloader);
  check(reloader.finish().has_value());
  check(again.size() == container.size());
  serial::GrowingSaver resaver;
  again.serialize(resaver);
  check(resaver.to_vector() == saver.to_vector());
  return 0;
}
