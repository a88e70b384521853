#include "keel/save/inspect.h"

#include "keel/save/detail/stream.h"

#include <fmt/format.h>

#include <cstring>
#include <map>

namespace keel::save {
namespace {

constexpr u8 kInspectDataSection = 'D';
constexpr u8 kInspectSetSection = 'S';

Unexpected bad(const detail::Reader& r, std::string_view why) {
  return fail(ErrorCode::kCorrupt, "save data corrupt at body byte {}: {}", r.pos(), why);
}

Status read_schema(detail::Reader& r, std::vector<TypeSchema>& types) {
  u32 schema_size = 0;
  if (!r.value(schema_size) || schema_size > r.remaining()) return bad(r, "schema is cut");
  detail::Reader s(r.data().subspan(r.pos(), schema_size));
  r.skip(schema_size);
  u32 count = 0;
  if (!s.value(count) || count > s.remaining() / 12) return bad(s, "schema type count");
  types.resize(count);
  for (TypeSchema& t : types) {
    u32 fields = 0;
    if (!s.value(t.save_id) || !s.string(t.name) || !s.value(t.size) || !s.value(fields) ||
        fields > s.remaining() / 9) {
      return bad(s, "schema type is malformed");
    }
    t.fields.resize(fields);
    for (FieldSchema& f : t.fields) {
      u8 kind = 0;
      if (!s.value(kind) || kind < 1 || kind > 4 || !s.value(f.length) || !s.string(f.name)) {
        return bad(s, "schema field is malformed");
      }
      f.kind = static_cast<FieldKind>(kind);
    }
  }
  return {};
}

Status read_object(detail::Reader& r, ObjectView& o) {
  for (const FieldSchema& f : o.type->fields) {
    FieldValue v;
    v.field = &f;
    bool ok = true;
    if (f.kind == FieldKind::kPassive || f.kind == FieldKind::kGone) {
      ok = f.length <= r.remaining();
      if (ok) {
        v.bytes.resize(f.length);
        r.bytes(v.bytes.data(), f.length);
      }
    } else {
      ok = r.value(v.index);
      if (ok && f.kind == FieldKind::kPointer && v.index != 0) ok = r.value(v.offset);
    }
    if (!ok) return bad(r, fmt::format("object data ends inside '{}'", f.name));
    o.fields.push_back(std::move(v));
  }
  return {};
}

Status read_set(detail::Reader& r, const Inspection& in, SetView& set) {
  u32 count = 0;
  if (!r.value(count) || count > r.remaining() / 4) return bad(r, "object count");
  set.objects.resize(count);
  for (ObjectView& o : set.objects) {
    r.value(o.save_id);
    o.type = in.find(o.save_id);
    if (o.type == nullptr) return bad(r, fmt::format("unknown save id {}", o.save_id));
  }
  u64 data_size = 0;
  if (!r.value(set.block_hash) || !r.value(data_size) || data_size > r.remaining()) {
    return bad(r, "object set header is cut");
  }
  const usize end = r.pos() + static_cast<usize>(data_size);
  for (ObjectView& o : set.objects) {
    if (auto st = read_object(r, o); !st) return st;
  }
  if (r.pos() != end) return bad(r, "object data does not match the schema");
  u64 extras = 0;
  if (!r.value(extras) || extras > r.remaining()) return bad(r, "custom data is cut");
  detail::Reader e(r.data().subspan(r.pos(), static_cast<usize>(extras)));
  r.skip(static_cast<usize>(extras));
  while (e.remaining() > 0) {
    u32 index = 0;
    u32 len = 0;
    if (!e.value(index) || !e.value(len) || index == 0 || index > count || !e.skip(len)) {
      return bad(e, "custom data table is malformed");
    }
    set.objects[index - 1].custom_bytes += len;
  }
  return {};
}

std::string hex(ByteSpan bytes, usize max = 16) {
  std::string out;
  for (usize i = 0; i < bytes.size() && i < max; ++i) {
    out += fmt::format("{}{:02x}", i ? " " : "", static_cast<u8>(bytes[i]));
  }
  if (bytes.size() > max) out += fmt::format(" ... ({} bytes)", bytes.size());
  return out;
}

std::string value_text(const FieldValue& v) {
  const FieldSchema& f = *v.field;
  switch (f.kind) {
    case FieldKind::kPointer:
      return v.index == 0 ? "-> null" : fmt::format("-> block {} + {}", v.index, v.offset);
    case FieldKind::kObject:
      return v.index == 0 ? "-> null" : fmt::format("-> object #{}", v.index);
    case FieldKind::kGone: return fmt::format("(gone) {}", hex(v.bytes));
    case FieldKind::kPassive: break;
  }
  if (v.bytes.size() == 4) {
    u32 u = 0;
    f32 fl = 0;
    std::memcpy(&u, v.bytes.data(), 4);
    std::memcpy(&fl, v.bytes.data(), 4);
    return fmt::format("{} (u32 {}, f32 {})", hex(v.bytes), u, fl);
  }
  return hex(v.bytes);
}

}  // namespace

const TypeSchema* Inspection::find(u32 save_id) const {
  for (const TypeSchema& t : types) {
    if (t.save_id == save_id) return &t;
  }
  return nullptr;
}

Result<Inspection> inspect(ByteSpan file, const LoadLimits& limits) {
  auto decoded = decode_file(file, limits);
  if (!decoded) return Unexpected(decoded.error());
  Inspection in;
  in.header = std::move(decoded->header);
  in.file_size = file.size();
  detail::Reader r(decoded->body);
  if (auto st = read_schema(r, in.types); !st) return Unexpected(st.error());
  while (r.remaining() > 0) {
    u8 tag = 0;
    r.value(tag);
    if (tag == kInspectDataSection) {
      u64 len = 0;
      if (!r.value(len) || !r.skip(static_cast<usize>(std::min<u64>(len, r.remaining() + 1)))) {
        return bad(r, "client data is cut");
      }
      in.client_data_bytes += len;
    } else if (tag == kInspectSetSection) {
      SetView set;
      if (auto st = read_set(r, in, set); !st) return Unexpected(st.error());
      in.sets.push_back(std::move(set));
    } else {
      return bad(r, fmt::format("unknown section tag {}", tag));
    }
  }
  return in;
}

std::string format_info(const Inspection& in) {
  const FileHeader& h = in.header;
  std::string out;
  out += fmt::format("format: keel save, little-endian, {}-bit pointers, {}\n", h.pointer_bytes * 8,
                     h.compression == Compression::kZstd ? "zstd" : "stored");
  out += fmt::format("size: {} bytes (object stream {} bytes)\n", in.file_size, h.body_size);
  out += fmt::format("version: {:016x}\n", h.version);
  out += fmt::format("level: \"{}\" version {}{}\n", h.client.level_name, h.client.level_version,
                     h.client.progress ? " (progress save)" : "");
  out += fmt::format("thumbnail: {}x{}, {} bytes\n", h.client.thumbnail_width,
                     h.client.thumbnail_height, h.client.thumbnail.size());
  out += fmt::format("extra header: {} bytes; client data: {} bytes\n", h.client.extra.size(),
                     in.client_data_bytes);
  std::map<std::string, usize> counts;
  usize total = 0;
  for (const SetView& s : in.sets) {
    for (const ObjectView& o : s.objects) ++counts[o.type->name];
    total += s.objects.size();
  }
  out += fmt::format("objects: {} in {} set(s)\n", total, in.sets.size());
  for (const auto& [name, n] : counts) out += fmt::format("  {:<24} {}\n", name, n);
  return out;
}

std::string format_dump(const Inspection& in) {
  std::string out = format_info(in);
  for (usize s = 0; s < in.sets.size(); ++s) {
    const SetView& set = in.sets[s];
    out += fmt::format("set {}: {} objects, block hash {:08x}\n", s + 1, set.objects.size(),
                       set.block_hash);
    for (usize i = 0; i < set.objects.size(); ++i) {
      const ObjectView& o = set.objects[i];
      out += fmt::format("  #{} {} (save id {})\n", i + 1, o.type->name, o.save_id);
      for (const FieldValue& v : o.fields) {
        out += fmt::format("    {:<16} {}\n", v.field->name, value_text(v));
      }
      if (o.custom_bytes != 0) out += fmt::format("    (custom data: {} bytes)\n", o.custom_bytes);
    }
  }
  return out;
}

}  // namespace keel::save
