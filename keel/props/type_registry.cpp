#include "keel/props/type_registry.h"

#include "keel/core/assert.h"

namespace keel::props {

TypeRegistry::TypeRegistry() {
  const Status results[] = {
      add<bool>("bool"),
      add<u8>("u8"),
      add<u16>("u16"),
      add<u32>("u32"),
      add<u64>("u64"),
      add<s8>("s8"),
      add<s16>("s16"),
      add<s32>("s32"),
      add<s64>("s64"),
      add<f32>("f32"),
      add<f64>("f64"),
      add<std::string>("string"),
      add<StringId>("string_id"),
  };
  for (const Status& r : results) {
    KEEL_ASSERT(r.has_value(), "built-in property types: {}", r.error().message());
  }
}

const TypeRegistry& TypeRegistry::builtin() {
  static const TypeRegistry registry;
  return registry;
}

const TypeCodec* TypeRegistry::find_tag(u32 tag) const {
  for (const TypeCodec& c : codecs_) {
    if (c.tag == tag) return &c;
  }
  return nullptr;
}

const TypeCodec* TypeRegistry::find_type(TypeId type) const {
  for (const TypeCodec& c : codecs_) {
    if (c.type == type) return &c;
  }
  return nullptr;
}

Status TypeRegistry::add_codec(TypeCodec codec) {
  if (const TypeCodec* same = find_type(codec.type)) {
    return fail(ErrorCode::kAlreadyExists, "type {} is already registered as '{}'",
                codec.type.name(), same->name);
  }
  if (const TypeCodec* same = find_tag(codec.tag)) {
    if (same->name == codec.name) {
      return fail(ErrorCode::kAlreadyExists, "type name '{}' is already registered (for {})",
                  codec.name, same->type.name());
    }
    return fail(ErrorCode::kAlreadyExists, "type name '{}' has the same tag {:#010x} as '{}'",
                codec.name, codec.tag, same->name);
  }
  codecs_.push_back(std::move(codec));
  return ok();
}

}  // namespace keel::props
