#include "keel/world/chain_runner.h"

#include <cmath>
#include <numbers>

namespace keel::world {

namespace {

Vec2 ring_placer(const ChainAction& a, u32 index, u32 count) {
  const Vec2 centre = a.at ? a.position : Vec2{};
  if (a.spread <= 0 || count <= 1) return centre;
  const f32 angle = 2 * std::numbers::pi_v<f32> * static_cast<f32>(index) / static_cast<f32>(count);
  return {centre.x + a.spread * std::cos(angle), centre.y + a.spread * std::sin(angle)};
}

}  // namespace

ChainRunner::ChainRunner(World& world, const SpawnRegistry& registry, const EntityDefs& defs)
    : world_(world), registry_(registry), defs_(defs), placer_(ring_placer) {}

void ChainRunner::set_placer(Placer placer) { placer_ = placer ? std::move(placer) : ring_placer; }

void ChainRunner::on_call(std::string_view name, std::function<void()> fn) {
  calls_.insert_or_assign(std::string(name), std::move(fn));
}

void ChainRunner::on_check(std::string_view name, std::function<bool()> fn) {
  checks_.insert_or_assign(std::string(name), std::move(fn));
}

Status ChainRunner::check(const ChainDef& chain) const {
  std::string missing;
  const auto note = [&](std::string what) {
    if (missing.find(what) != std::string::npos) return;
    if (!missing.empty()) missing += ", ";
    missing += what;
  };
  const auto check_actions = [&](const std::vector<ChainAction>& actions) {
    for (const ChainAction& a : actions) {
      if (a.kind == ChainActionKind::kCall) {
        if (!calls_.contains(a.name)) note("function `" + a.name + "`");
        continue;
      }
      const EntityDef* def = defs_.find(a.name);
      if (def == nullptr) {
        note("entity definition `" + a.name + "`");
      } else if (Status s = registry_.check(*def); !s) {
        note(s.error().message());
      }
    }
  };
  for (const ChainStep& step : chain.steps) {
    check_actions(step.start);
    check_actions(step.end);
    if (step.until.kind == ChainConditionKind::kCheck && !checks_.contains(step.until.name)) {
      note("predicate `" + step.until.name + "`");
    }
  }
  if (missing.empty()) return ok();
  return fail(ErrorCode::kNotFound, "event chain `{}` needs {}", chain.name, missing);
}

Status ChainRunner::start(const ChainDef& chain) {
  if (Status s = check(chain); !s) return s;
  chain_ = &chain;
  step_ = 0;
  return begin_step();
}

Status ChainRunner::resume(const ChainDef& chain, Progress progress) {
  if (Status s = check(chain); !s) return s;
  if (progress.step > chain.steps.size() || !std::isfinite(progress.step_time) ||
      progress.step_time < 0) {
    return fail(ErrorCode::kInvalidArgument, "event chain `{}`: no step {} at time {}", chain.name,
                progress.step, progress.step_time);
  }
  chain_ = &chain;
  step_ = progress.step;
  step_time_ = progress.step_time;
  spawned_ = std::move(progress.spawned);
  return ok();
}

Status ChainRunner::begin_step() {
  spawned_.clear();
  step_time_ = 0;
  if (!running()) return ok();
  return run_actions(chain_->steps[step_].start);
}

Status ChainRunner::run_actions(const std::vector<ChainAction>& actions) {
  for (const ChainAction& a : actions) {
    if (a.kind == ChainActionKind::kCall) {
      const auto it = calls_.find(a.name);
      if (it == calls_.end()) return fail(ErrorCode::kNotFound, "no function `{}`", a.name);
      it->second();
      continue;
    }
    for (u32 i = 0; i < a.count; ++i) {
      Result<Entity> e = spawn(world_, registry_, defs_, a.name, placer_(a, i, a.count));
      if (!e) return std::unexpected(e.error());
      spawned_.push_back(*e);
    }
  }
  return ok();
}

u32 ChainRunner::dead() const {
  u32 n = 0;
  for (const Entity e : spawned_) n += !world_.alive(e) || world_.dying(e) ? 1 : 0;
  return n;
}

bool ChainRunner::condition_holds() const {
  const ChainCondition& c = chain_->steps[step_].until;
  switch (c.kind) {
    case ChainConditionKind::kNone: return true;
    case ChainConditionKind::kDead: {
      const u32 need = c.count == 0 ? static_cast<u32>(spawned_.size()) : c.count;
      return dead() >= need;
    }
    case ChainConditionKind::kTime: return step_time_ >= c.seconds;
    case ChainConditionKind::kCheck: {
      const auto it = checks_.find(c.name);
      return it != checks_.end() && it->second();
    }
  }
  return false;
}

Status ChainRunner::update(f32 dt) {
  if (!running()) return ok();
  step_time_ += dt > 0 ? dt : 0;
  // Bounded: each pass ends one step.
  while (running() && condition_holds()) {
    if (Status s = run_actions(chain_->steps[step_].end); !s) return s;
    ++step_;
    if (Status s = begin_step(); !s) return s;
  }
  return ok();
}

}  // namespace keel::world
