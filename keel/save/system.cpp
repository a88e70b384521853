#include "keel/save/system.h"

#include "keel/core/hash.h"
#include "keel/core/log.h"
#include "keel/core/utility.h"
#include "keel/save/detail/plan.h"
#include "keel/save/detail/session.h"
#include "keel/save/detail/stream.h"

#include <algorithm>

namespace keel::save {
namespace {

using detail::Field;
using detail::Op;
using detail::OpKind;
using detail::TypePlan;

constexpr u32 kMaxDepth = 32;

u32 align_up(u32 value, u32 align) {
  return align <= 1 ? value : (value + align - 1) / align * align;
}

// Flattens `tmpl` applied to the (live) object at `object`; offsets relative to `root`.
void flatten(const Record* tmpl, void* object, const std::byte* root, TypePlan& plan,
             std::vector<std::string>& problems, u32 depth) {
  if (depth > kMaxDepth) {
    problems.push_back(fmt::format("class {}: templates nest too deeply", plan.name));
    return;
  }
  for (const Record* r = tmpl; r->type != RecordType::kEndOfTemplate; ++r) {
    if (r->type == RecordType::kClassName || r->type == RecordType::kSkip) continue;
    if (r->type == RecordType::kGone) {
      plan.ops.push_back(Op{OpKind::kGone, 0, r->length, r});
      plan.fields.push_back(Field{OpKind::kGone, r->length, r->name});
      continue;
    }
    void* member = r->locate(object);
    const auto offset = static_cast<u32>(static_cast<std::byte*>(member) - root);
    if (r->type == RecordType::kClass) {
      flatten(r->sub, member, root, plan, problems, depth + 1);
      continue;
    }
    const OpKind kind = r->type == RecordType::kPassive   ? OpKind::kPassive
                        : r->type == RecordType::kPointer ? OpKind::kPointer
                                                          : OpKind::kObject;
    plan.fields.push_back(Field{kind, r->length, r->name});
    if (kind == OpKind::kPassive && !plan.ops.empty()) {
      Op& last = plan.ops.back();
      if (last.kind == OpKind::kPassive && last.offset + last.length == offset) {
        last.length += r->length;
        continue;
      }
    }
    plan.ops.push_back(Op{kind, offset, r->length, r});
  }
}

struct Span {
  u32 begin;
  u32 end;
  u32 align;
  const char* name;
};

// The hole detector (ch. 8.10), with alignment padding and the SaveObject base (vptr) allowed.
void check_holes(const Record* tmpl, const void* object, u32 size, u32 class_align,
                 const SaveObject* as_object, std::vector<std::string>& problems) {
  if (tmpl->type != RecordType::kClassName) {
    problems.push_back(
        fmt::format("template does not start with KEEL_SAVEDEF ({} bytes, first "
                    "record '{}')",
                    size, tmpl->name ? tmpl->name : ""));
    return;
  }
  const char* cls = tmpl->name;
  if (tmpl->length != size) {
    problems.push_back(
        fmt::format("class {}: KEEL_SAVEDEF gives {} bytes but the registered "
                    "type has {}",
                    cls, tmpl->length, size));
    return;
  }
  std::vector<Span> spans;
  if (as_object != nullptr) {
    const auto at = static_cast<u32>(reinterpret_cast<const std::byte*>(as_object) -
                                     static_cast<const std::byte*>(object));
    // Up to the end of SaveObject's data, not its sizeof: a member placed in its tail padding
    // is the derived class's and must be in its template.
    spans.push_back(Span{at, at + detail::MarkAccess::end_of_base(*as_object), alignof(SaveObject),
                         "SaveObject"});
  }
  for (const Record* r = tmpl + 1; r->type != RecordType::kEndOfTemplate; ++r) {
    if (r->type == RecordType::kClassName || r->type == RecordType::kGone) continue;
    const u32 at = r->offset_in(object);
    spans.push_back(Span{at, at + r->length, r->align == 0 ? 1 : r->align, r->name});
    if (r->vptr != nullptr) {
      // The vptr of another polymorphic base the member belongs to (Itanium ABI: at its start).
      const auto vptr_at = static_cast<u32>(static_cast<const std::byte*>(r->vptr(object)) -
                                            static_cast<const std::byte*>(object));
      spans.push_back(Span{vptr_at, vptr_at + u32{sizeof(void*)}, alignof(void*), "a vptr"});
    }
  }
  std::sort(spans.begin(), spans.end(),
            [](const Span& a, const Span& b) { return a.begin < b.begin; });
  u32 covered = 0;
  const char* previous = nullptr;
  for (usize i = 0; i <= spans.size(); ++i) {
    const u32 next = i < spans.size() ? spans[i].begin : size;
    if (next > covered) {
      const bool padding = i < spans.size() ? next == align_up(covered, spans[i].align)
                                            : size == align_up(covered, class_align);
      if (!padding) {
        if (previous != nullptr) {
          problems.push_back(
              fmt::format("Missing {} bytes in class {} after {}", next - covered, cls, previous));
        } else {
          problems.push_back(fmt::format("Missing {} bytes in class {} before {}", next - covered,
                                         cls, i < spans.size() ? spans[i].name : "its end"));
        }
      }
    }
    if (i < spans.size() && spans[i].end > covered) {
      covered = spans[i].end;
      previous = spans[i].name;
    }
  }
}

struct BuildContext {
  SaveSystem::Impl* impl;
  const TypeInfo* info;
  bool check;
  bool compiled;
};

void build_from_instance(void* context, const Instance& instance) {
  auto& ctx = *static_cast<BuildContext*>(context);
  const TypeInfo& info = *ctx.info;
  auto& problems = ctx.impl->problems;
  if (ctx.check) {
    ++ctx.impl->checked;
    check_holes(info.save_template, instance.address, info.size, info.align, instance.object,
                problems);
  }
  if (info.save_id == 0) return;
  TypePlan plan;
  plan.save_id = info.save_id;
  plan.name = info.save_template->type == RecordType::kClassName && info.save_template->name
                  ? info.save_template->name
                  : fmt::format("type{}", info.save_id);
  plan.size = info.size;
  plan.create = info.create;
  const usize problems_before = problems.size();
  flatten(info.save_template, const_cast<void*>(instance.address),
          static_cast<const std::byte*>(instance.address), plan, problems, 0);
  const bool flattened_whole = problems.size() == problems_before;
  for (const Op& op : plan.ops) {
    plan.max_bytes += op.kind == OpKind::kPointer ? 8 : op.kind == OpKind::kObject ? 4 : op.length;
    if (op.kind == OpKind::kObject) plan.links.push_back(op);
  }
  if (instance.object != nullptr) {
    plan.type = &typeid(*instance.object);
    plan.object_at = reinterpret_cast<const std::byte*>(instance.object) -
                     static_cast<const std::byte*>(instance.address);
    if (info.type != nullptr && *info.type == *plan.type) plan.keeps = info.default_hooks;
    // The class's compiled writer, used for objects of exactly T: so only when the factory makes
    // a T (the writer assumes a complete object of that class), when the plan is made from the
    // template the writer was made from (not one swapped in since), and when that template was
    // flattened whole (the writer does not stop where flatten() gives up on nesting).
    if (ctx.compiled && info.write != nullptr && info.written_from == info.save_template &&
        flattened_whole && info.type != nullptr && *info.type == *plan.type) {
      plan.write = info.write;
    }
  }
  ctx.impl->by_id.insert(plan.save_id * 0x9E3779B1u, static_cast<u32>(ctx.impl->plans.size()));
  ctx.impl->plans.push_back(std::move(plan));
}

}  // namespace

void detail::write_schema(ByteBuffer& out, const std::vector<const TypePlan*>& plans) {
  Writer w(out);
  w.u32v(static_cast<u32>(plans.size()));
  for (const TypePlan* p : plans) {
    w.u32v(p->save_id);
    w.string(p->name);
    w.u32v(p->size);
    w.u32v(static_cast<u32>(p->fields.size()));
    for (const Field& f : p->fields) {
      w.value<u8>(static_cast<u8>(f.kind));
      w.u32v(f.length);
      w.string(f.name);
    }
  }
}

SaveSystem::SaveSystem(std::vector<TypeInfo> types, SystemOptions options)
    : impl_(std::make_unique<Impl>()) {
  keel::stable_sort(types,  // by save id; equal ids keep their registration order
                    [](const TypeInfo& a, const TypeInfo& b) { return a.save_id < b.save_id; });
  for (const TypeInfo& info : types) {
    if (info.save_template == nullptr) {
      impl_->problems.push_back("a registered type has no template");
      continue;
    }
    if (info.save_id != 0 && impl_->by_id.contains(info.save_id * 0x9E3779B1u)) {
      impl_->problems.push_back(fmt::format("save id {} is registered twice", info.save_id));
      continue;
    }
    BuildContext ctx{impl_.get(), &info, options.check_templates, options.compiled_writers};
    if (info.save_id != 0) {
      if (info.create == nullptr) {
        impl_->problems.push_back(fmt::format("save id {} has no factory", info.save_id));
        continue;
      }
      std::unique_ptr<SaveObject> sample = info.create();
      if (!sample || sample->save_id() != info.save_id) {
        impl_->problems.push_back(
            fmt::format("the factory of save id {} made no object of that id", info.save_id));
        continue;
      }
      build_from_instance(&ctx, Instance{dynamic_cast<const void*>(sample.get()), sample.get()});
    } else if (info.with_instance != nullptr) {
      info.with_instance(&build_from_instance, &ctx);
    }
  }
  std::vector<const TypePlan*> all;
  for (const TypePlan& p : impl_->plans) all.push_back(&p);
  detail::write_schema(impl_->schema, all);
  impl_->version = hash64(impl_->schema.data(), impl_->schema.size(), 0x5A5E);
  if (options.log_problems) {
    for (const std::string& p : impl_->problems) KEEL_LOG_WARN(log::Channel::kApp, "save: {}", p);
  }
}

SaveSystem::~SaveSystem() = default;
SaveSystem::SaveSystem(SaveSystem&&) noexcept = default;
SaveSystem& SaveSystem::operator=(SaveSystem&&) noexcept = default;

u64 SaveSystem::version() const { return impl_->version; }
const std::vector<std::string>& SaveSystem::problems() const { return impl_->problems; }
u32 SaveSystem::templates_checked() const { return impl_->checked; }
usize SaveSystem::type_count() const { return impl_->plans.size(); }
usize SaveSystem::compiled_type_count() const {
  usize n = 0;
  for (const TypePlan& plan : impl_->plans) n += plan.write != nullptr ? 1 : 0;
  return n;
}

void SaveSystem::add_migration(const SaveSystem& previous, Upgrade upgrade) {
  impl_->migrations.push_back(Impl::Migration{&previous, std::move(upgrade)});
}

}  // namespace keel::save
