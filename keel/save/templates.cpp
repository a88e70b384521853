// The four template passes (Golden Rules ch. 8.9) over an object's flattened plan.
#include "keel/save/detail/session.h"

#include <cstring>

namespace keel::save {

using Mode = SaveFile::Impl::Mode;
using Phase = SaveFile::Impl::Phase;
using detail::OpKind;

namespace {

std::byte* template_complete_address(SaveObject& object) {
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

// The object's entry in `info` when it is the one being processed (the default hooks), else null.
static SaveFile::Impl::ObjectInfo* current_info(SaveFile::Impl& s, const SaveObject& object,
                                                Phase phase) {
  if (s.phase != phase || s.error || s.current == 0 || s.current > s.info.size() ||
      s.objects[s.current - 1] != &object) {
    return nullptr;
  }
  return &s.info[s.current - 1];
}

void detail::discover(SaveFile::Impl& s, SaveFile::Impl::ObjectInfo& info) {
  for (const detail::Op& op : info.plan->links) {
    SaveObject* target = op.record->get_object(info.base + op.offset);
    if (target == nullptr) continue;
    s.links.push_back({target, add_object(s, target)});
  }
  info.links_count = static_cast<u32>(s.links.size() - info.links_begin);
}

Status SaveFile::pre_save_template(SaveObject& object) {
  Impl& s = *impl_;
  Impl::ObjectInfo* info = current_info(s, object, Phase::kPreSave);
  if (info == nullptr) {
    auto plan = plan_for(s, object, Phase::kPreSave, "pre_save_template");
    if (!plan) return Unexpected(plan.error());
    std::byte* base = template_complete_address(object);
    for (const detail::Op& op : (*plan)->links) {
      SaveObject* target = op.record->get_object(base + op.offset);
      if (target != nullptr) declare_object(target);
    }
    return s.check();
  }
  // Remembers each target's index for the save pass (the first call for this object only).
  if (info->links_count == 0 && info->links_begin == s.links.size()) {
    // (`info` stays valid: entries are added only by save_set, between hooks.)
    detail::discover(s, *info);
    return {};
  }
  for (const detail::Op& op : info->plan->links) {
    SaveObject* target = op.record->get_object(info->base + op.offset);
    if (target != nullptr) detail::add_object(s, target);
  }
  return {};
}

// Writes one object's stream through its plan into `out` (room for plan.max_bytes). `info`
// gives the links remembered in pre-save (null: every target is looked up).
Status detail::write_object(SaveFile::Impl& s, const detail::TypePlan& plan, const std::byte* base,
                            const SaveFile::Impl::ObjectInfo* info, std::byte*& out,
                            std::vector<SaveFile::Impl::Fixup>* defer) {
  u32 link = 0;
  for (const detail::Op& op : plan.ops) {
    const std::byte* slot = base + op.offset;
    switch (op.kind) {
      case OpKind::kPassive:
        detail::copy_bytes(out, slot, op.length);
        out += op.length;
        break;
      case OpKind::kPointer: {
        const void* target = op.record->get_pointer(slot);
        if (target == nullptr) {
          put32(out, 0);
          break;
        }
        if (defer != nullptr) {
          defer->push_back({static_cast<usize>(out - s.body.data()), target, op.record, s.current});
          out += 8;
          break;
        }
        const auto p = reinterpret_cast<uintptr_t>(target);
        const auto* block = detail::find_block_for(s, p);
        if (block == nullptr) {
          return s.fail(Error(ErrorCode::kInvalidArgument,
                              fmt::format("object {} ({}): pointer '{}' points into no declared "
                                          "memory block",
                                          s.current, plan.name, op.record->name)));
        }
        put32(out, block->index);
        put32(out, static_cast<u32>(p - block->begin));
        break;
      }
      case OpKind::kObject: {
        SaveObject* target = op.record->get_object(slot);
        u32 index = 0;
        if (target != nullptr) {
          const SaveFile::Impl::Link* remembered = nullptr;
          if (info != nullptr && link < info->links_count) {
            remembered = &s.links[info->links_begin + link++];
          }
          if (remembered != nullptr && remembered->target == target) {
            index = remembered->index;
          } else {
            index = detail::index_of(s, target);
            if (index == 0) {
              return s.fail(Error(ErrorCode::kInvalidArgument,
                                  fmt::format("object {} ({}): '{}' points to an object that was "
                                              "not declared (did pre_save skip its parent?)",
                                              s.current, plan.name, op.record->name)));
            }
          }
        }
        put32(out, index);
        break;
      }
      case OpKind::kGone:
        std::memset(out, 0, op.length);
        out += op.length;
        break;
    }
  }
  return {};
}

Status SaveFile::save_template(SaveObject& object) {
  Impl& s = *impl_;
  const Impl::ObjectInfo* info = current_info(s, object, Phase::kSave);
  const detail::TypePlan* plan = nullptr;
  const std::byte* base = nullptr;
  if (info != nullptr) {
    plan = info->plan;
    base = info->base;
  } else {
    auto found = plan_for(s, object, Phase::kSave, "save_template");
    if (!found) return Unexpected(found.error());
    plan = *found;
    base = template_complete_address(object);
  }
  // The save pass sized the body for every object of the set; another object's template
  // written from a hook may need more.
  if (s.body.size() < s.out + plan->max_bytes) s.body.resize(s.out + plan->max_bytes);
  std::byte* out = s.body.data() + s.out;
  KEEL_SAVE_TRY(detail::write_object(s, *plan, base, info, out));
  s.out = static_cast<usize>(out - s.body.data());
  return {};
}

Status SaveFile::pre_load_template(SaveObject& object) {
  Impl& s = *impl_;
  if (current_info(s, object, Phase::kPreLoad) != nullptr) return {};
  auto plan = plan_for(s, object, Phase::kPreLoad, "pre_load_template");
  if (!plan) return Unexpected(plan.error());
  return {};
}

Status SaveFile::load_template(SaveObject& object) {
  Impl& s = *impl_;
  const Impl::ObjectInfo* info = current_info(s, object, Phase::kLoad);
  const detail::TypePlan* plan = nullptr;
  std::byte* base = nullptr;
  if (info != nullptr) {
    plan = info->plan;
    base = info->base;
  } else {
    auto found = plan_for(s, object, Phase::kLoad, "load_template");
    if (!found) return Unexpected(found.error());
    plan = *found;
    base = template_complete_address(object);
  }
  return detail::read_object(s, *plan, base);
}

Status detail::read_object(SaveFile::Impl& s, const TypePlan& plan, std::byte* base) {
  detail::Reader& r = s.reader;
  // A local cursor, and the session's arrays in locals: the stores into the object (through
  // std::byte) would otherwise make the compiler reload them after every member.
  const std::byte* const start = r.data().data() + r.pos();
  const std::byte* const end = start + r.remaining();
  const std::byte* in = start;
  const u32 object_count = static_cast<u32>(s.objects.size());
  const usize block_count = s.blocks.size();
  const SaveFile::Impl::Block* blocks = s.blocks.data();
  const auto bad = [&](const detail::Op& op, std::string_view why) {
    r.skip(static_cast<usize>(in - start));
    return s.fail(Error(ErrorCode::kCorrupt,
                        fmt::format("save data corrupt at body byte {}: object {} ({}) member "
                                    "'{}': {}",
                                    r.pos(), s.current, plan.name, op.record->name, why)));
  };
  const auto read32 = [&in](u32& v) {
    std::memcpy(&v, in, 4);
    in += 4;
  };
  for (const detail::Op& op : plan.ops) {
    std::byte* slot = base + op.offset;
    switch (op.kind) {
      case OpKind::kPassive:
        if (static_cast<usize>(end - in) < op.length) return bad(op, "data ends early");
        detail::copy_bytes(slot, in, op.length);
        in += op.length;
        break;
      case OpKind::kPointer: {
        u32 index = 0;
        if (end - in < 4) return bad(op, "data ends early");
        read32(index);
        if (index == 0) {
          op.record->set_pointer(slot, nullptr);
          break;
        }
        u32 offset = 0;
        if (end - in < 4) return bad(op, "data ends early");
        read32(offset);
        if (index > block_count) return bad(op, "block index out of range");
        const auto& block = blocks[index - 1];
        if (offset >= block.length) return bad(op, "offset beyond its block");
        auto* target = const_cast<std::byte*>(block.base) + offset;
        // Alignments are powers of two.
        if ((reinterpret_cast<uintptr_t>(target) & (op.record->target_align - 1)) != 0) {
          return bad(op, "pointer is misaligned for its type");
        }
        op.record->set_pointer(slot, target);
        break;
      }
      case OpKind::kObject: {
        u32 index = 0;
        if (end - in < 4) return bad(op, "data ends early");
        read32(index);
        if (index > object_count) return bad(op, "object index out of range");
        if (!detail::set_target(s, op, slot, index)) {
          return bad(op, "points to an object of the wrong class");
        }
        break;
      }
      case OpKind::kGone:
        if (static_cast<usize>(end - in) < op.length) return bad(op, "data ends early");
        in += op.length;
        break;
    }
  }
  r.skip(static_cast<usize>(in - start));
  return {};
}

}  // namespace keel::save
