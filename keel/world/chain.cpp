#include "keel/world/chain.h"

#include "keel/pack/loader.h"
#include "keel/world/detail/defs_codec.h"

#include <utility>

namespace keel::world {

using detail::DefReader;
using detail::DefWriter;

namespace {

void write_actions(DefWriter& w, const std::vector<ChainAction>& actions) {
  w.u32v(static_cast<u32>(actions.size()));
  for (const ChainAction& a : actions) {
    w.u8v(static_cast<u8>(a.kind));
    w.str(a.name);
    w.u32v(a.count);
    w.u8v(a.at ? 1 : 0);
    w.f64v(a.position.x);
    w.f64v(a.position.y);
    w.f64v(a.spread);
  }
}

constexpr usize kMinAction = 1 + 4 + 1 + 4 + 1 + 8 * 3;
constexpr usize kMinStep = 4 + 4 + 4 + 1 + 4 + 8 + 4;

#define KEEL_CHAIN_READ(var, expr) \
  auto var = (expr);               \
  if (!var) return std::unexpected(std::move(var).error())

Result<ChainAction> read_action(DefReader& r) {
  ChainAction a;
  KEEL_CHAIN_READ(kind, r.u8v());
  if (*kind != static_cast<u8>(ChainActionKind::kSpawn) &&
      *kind != static_cast<u8>(ChainActionKind::kCall)) {
    return r.corrupt("unknown chain action kind");
  }
  a.kind = static_cast<ChainActionKind>(*kind);
  KEEL_CHAIN_READ(name, r.str());
  a.name = std::move(*name);
  KEEL_CHAIN_READ(count, r.u32v());
  a.count = *count;
  if (a.kind == ChainActionKind::kSpawn && a.count == 0) return r.corrupt("a Spawn of 0 entities");
  KEEL_CHAIN_READ(at, r.u8v());
  if (*at > 1) return r.corrupt("a flag is neither 0 nor 1");
  a.at = *at == 1;
  KEEL_CHAIN_READ(x, r.f32v());
  KEEL_CHAIN_READ(y, r.f32v());
  KEEL_CHAIN_READ(spread, r.f32v());
  if (*spread < 0) return r.corrupt("a negative spawn spread");
  a.position = {*x, *y};
  a.spread = *spread;
  return a;
}

Result<std::vector<ChainAction>> read_actions(DefReader& r) {
  KEEL_CHAIN_READ(count, r.count(kMinAction));
  std::vector<ChainAction> actions;
  actions.reserve(*count);
  for (u32 i = 0; i < *count; ++i) {
    KEEL_CHAIN_READ(a, read_action(r));
    actions.push_back(std::move(*a));
  }
  return actions;
}

Result<ChainCondition> read_condition(DefReader& r) {
  ChainCondition c;
  KEEL_CHAIN_READ(kind, r.u8v());
  if (*kind > static_cast<u8>(ChainConditionKind::kCheck)) {
    return r.corrupt("unknown chain condition kind");
  }
  c.kind = static_cast<ChainConditionKind>(*kind);
  KEEL_CHAIN_READ(count, r.u32v());
  c.count = *count;
  KEEL_CHAIN_READ(seconds, r.f32v());
  if (*seconds < 0) return r.corrupt("a negative time");
  c.seconds = *seconds;
  KEEL_CHAIN_READ(name, r.str(/*allow_empty=*/true));
  if (c.kind == ChainConditionKind::kCheck && name->empty()) {
    return r.corrupt("a Check without a name");
  }
  c.name = std::move(*name);
  return c;
}

Result<ChainStep> read_step(DefReader& r) {
  ChainStep s;
  KEEL_CHAIN_READ(name, r.str(/*allow_empty=*/true));
  s.name = std::move(*name);
  KEEL_CHAIN_READ(start, read_actions(r));
  s.start = std::move(*start);
  KEEL_CHAIN_READ(end, read_actions(r));
  s.end = std::move(*end);
  KEEL_CHAIN_READ(until, read_condition(r));
  s.until = std::move(*until);
  return s;
}

}  // namespace

ByteBuffer encode_chain(const ChainDef& chain) {
  DefWriter w;
  w.u32v(kChainMagic);
  w.u32v(kChainVersion);
  w.str(chain.name);
  w.u32v(static_cast<u32>(chain.steps.size()));
  for (const ChainStep& s : chain.steps) {
    w.str(s.name);
    write_actions(w, s.start);
    write_actions(w, s.end);
    w.u8v(static_cast<u8>(s.until.kind));
    w.u32v(s.until.count);
    w.f64v(s.until.seconds);
    w.str(s.until.name);
  }
  return w.take();
}

Result<ChainDef> decode_chain(ByteSpan bytes, std::string_view label) {
  DefReader r(bytes, label);
  KEEL_CHAIN_READ(magic, r.u32v());
  if (*magic != kChainMagic) return r.corrupt("not an event chain (bad magic)");
  KEEL_CHAIN_READ(version, r.u32v());
  if (*version != kChainVersion) {
    return fail(ErrorCode::kUnsupported, "{}: event chain version {} (this build reads {})", label,
                *version, kChainVersion);
  }
  ChainDef chain;
  KEEL_CHAIN_READ(name, r.str());
  chain.name = std::move(*name);
  KEEL_CHAIN_READ(count, r.count(kMinStep));
  chain.steps.reserve(*count);
  for (u32 i = 0; i < *count; ++i) {
    KEEL_CHAIN_READ(step, read_step(r));
    chain.steps.push_back(std::move(*step));
  }
  if (r.remaining() != 0) {
    return fail_at(SourceLocation::bytes(std::string(label), r.offset()), ErrorCode::kTrailingData,
                   "{} bytes after the event chain", r.remaining());
  }
  return chain;
}

#undef KEEL_CHAIN_READ

void register_chain_type(pack::Loader& loader) {
  loader.register_type(
      pack::type_hash(kChainAssetType),
      [](pack::SetupContext& ctx) -> Result<void*> {
        Result<ChainDef> chain = decode_chain(ctx.primary(), "Chain chunk");
        if (!chain) return std::unexpected(chain.error());
        return new ChainDef(std::move(*chain));  // NOLINT(cppcoreguidelines-owning-memory)
      },
      [](void* asset) { delete static_cast<ChainDef*>(asset); });  // NOLINT
}

const ChainDef* find_chain(const pack::LoadedPack& pack, std::string_view name) {
  const pack::LoadedPack::Asset* entry = pack.find_entry(pack::name_hash(name));
  if (entry == nullptr || entry->type_hash != pack::type_hash(kChainAssetType)) return nullptr;
  return static_cast<const ChainDef*>(entry->asset);
}

}  // namespace keel::world
