// The four template passes (Golden Rules ch. 8.9) over an object's flattened plan.
#include "keel/save/detail/session.h"

#include <cstring>

namespace keel::save {

using Mode = SaveFile::Impl::Mode;
using Phase = SaveFile::Impl::Phase;
using detail::OpKind;

namespace {

std::byte* complete_address(SaveObject& object) {
  return static_cast<std::byte*>(dynamic_cast<void*>(&object));
}

Result<const detail::TypePlan*> plan_for(SaveFile::Impl& s, const SaveObject& object, Phase phase,
                                         const char* call) {
  KEEL_SAVE_TRY(s.check());
  if (s.phase != phase) {
    return s.fail(usage_error(fmt::format("{}() outside its pass of process_objects()", call)));
  }
  const detail::TypePlan* plan = s.active->find(object.save_id());
  if (plan == nullptr) {
    return s.fail(
        Error(ErrorCode::kNotFound, fmt::format("save id {} is not registered", object.save_id())));
  }
  return plan;
}

}  // namespace

Status SaveFile::pre_save_template(SaveObject& object) {
  Impl& s = *impl_;
  auto plan = plan_for(s, object, Phase::kPreSave, "pre_save_template");
  if (!plan) return Unexpected(plan.error());
  std::byte* base = complete_address(object);
  for (const detail::Op& op : (*plan)->ops) {
    if (op.kind != OpKind::kObject) continue;
    SaveObject* target = op.record->get_object(base + op.offset);
    if (target != nullptr) declare_object(target);
  }
  return s.check();
}

Status SaveFile::save_template(SaveObject& object) {
  Impl& s = *impl_;
  auto plan = plan_for(s, object, Phase::kSave, "save_template");
  if (!plan) return Unexpected(plan.error());
  const std::byte* base = complete_address(object);
  detail::Writer w(s.body);
  for (const detail::Op& op : (*plan)->ops) {
    const std::byte* slot = base + op.offset;
    switch (op.kind) {
      case OpKind::kPassive: w.bytes(slot, op.length); break;
      case OpKind::kPointer: {
        const void* target = op.record->get_pointer(slot);
        if (target == nullptr) {
          w.u32v(0);
          break;
        }
        const auto p = reinterpret_cast<uintptr_t>(target);
        const auto* block = detail::find_block_for(s, p);
        if (block == nullptr) {
          return s.fail(Error(ErrorCode::kInvalidArgument,
                              fmt::format("object {} ({}): pointer '{}' points into no declared "
                                          "memory block",
                                          s.current, (*plan)->name, op.record->name)));
        }
        w.u32v(block->index);
        w.u32v(static_cast<u32>(p - block->begin));
        break;
      }
      case OpKind::kObject: {
        SaveObject* target = op.record->get_object(slot);
        u32 index = 0;
        if (target != nullptr) {
          const u32* found = s.object_index.find(detail::object_key(target));
          if (found == nullptr) {
            return s.fail(Error(ErrorCode::kInvalidArgument,
                                fmt::format("object {} ({}): '{}' points to an object that was "
                                            "not declared (did pre_save skip its parent?)",
                                            s.current, (*plan)->name, op.record->name)));
          }
          index = *found;
        }
        w.u32v(index);
        break;
      }
      case OpKind::kGone:
        for (u32 i = 0; i < op.length; ++i) w.value<u8>(0);
        break;
    }
  }
  return {};
}

Status SaveFile::pre_load_template(SaveObject& object) {
  Impl& s = *impl_;
  auto plan = plan_for(s, object, Phase::kPreLoad, "pre_load_template");
  if (!plan) return Unexpected(plan.error());
  return {};
}

Status SaveFile::load_template(SaveObject& object) {
  Impl& s = *impl_;
  auto plan = plan_for(s, object, Phase::kLoad, "load_template");
  if (!plan) return Unexpected(plan.error());
  std::byte* base = complete_address(object);
  detail::Reader& r = s.reader;
  auto bad = [&](const detail::Op& op, std::string_view why) {
    return s.fail(Error(ErrorCode::kCorrupt,
                        fmt::format("save data corrupt at body byte {}: object {} ({}) member "
                                    "'{}': {}",
                                    r.pos(), s.current, (*plan)->name, op.record->name, why)));
  };
  for (const detail::Op& op : (*plan)->ops) {
    std::byte* slot = base + op.offset;
    switch (op.kind) {
      case OpKind::kPassive:
        if (!r.bytes(slot, op.length)) return bad(op, "data ends early");
        break;
      case OpKind::kPointer: {
        u32 index = 0;
        if (!r.value(index)) return bad(op, "data ends early");
        if (index == 0) {
          op.record->set_pointer(slot, nullptr);
          break;
        }
        u32 offset = 0;
        if (!r.value(offset)) return bad(op, "data ends early");
        if (index > s.blocks.size()) return bad(op, "block index out of range");
        const auto& block = s.blocks[index - 1];
        if (offset >= block.length) return bad(op, "offset beyond its block");
        auto* target = const_cast<std::byte*>(block.base) + offset;
        if (reinterpret_cast<uintptr_t>(target) % op.record->target_align != 0) {
          return bad(op, "pointer is misaligned for its type");
        }
        op.record->set_pointer(slot, target);
        break;
      }
      case OpKind::kObject: {
        u32 index = 0;
        if (!r.value(index)) return bad(op, "data ends early");
        if (index > s.objects.size()) return bad(op, "object index out of range");
        if (!op.record->set_object(slot, index == 0 ? nullptr : s.objects[index - 1])) {
          return bad(op, "points to an object of the wrong class");
        }
        break;
      }
      case OpKind::kGone:
        if (!r.skip(op.length)) return bad(op, "data ends early");
        break;
    }
  }
  return {};
}

}  // namespace keel::save
