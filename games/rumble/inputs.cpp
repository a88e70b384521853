#include "inputs.h"

#include "keel/core/hash.h"
#include "keel/text/document.h"
#include "keel/text/signature.h"

#include <algorithm>
#include <array>

namespace rumble {

namespace text = keel::text;

namespace {
constexpr std::array<std::string_view, 4> kButtonNames = {"attack", "throw", "forward", "back"};
// The first word of a saved input state: which kind of source wrote it.
constexpr u64 kScriptedState = 0x5343524950540001ull;  // "SCRIPT" 1
constexpr u64 kRandomState = 0x52414e444f4d0001ull;    // "RANDOM" 1
}  // namespace

std::string_view to_string(Button button) { return kButtonNames[static_cast<usize>(button)]; }

bool parse_button(std::string_view name, Button& out) {
  for (usize i = 0; i < kButtonNames.size(); ++i) {
    if (kButtonNames[i] == name) {
      out = static_cast<Button>(i);
      return true;
    }
  }
  return false;
}

bool ScriptedInput::read(const text::Token* first, std::span<const std::string> fighters,
                         text::Diagnostics& diag, ScriptedInput& out) {
  const usize errors_before = diag.error_count();
  for (const text::Token& cmd : text::chain(first)) {
    const bool hold = cmd.is("Hold");
    if (!hold && !cmd.is("Press")) {
      diag.error(cmd, "unknown input command `{}` (expected Press or Hold)", cmd.text);
      continue;
    }
    const bool well_formed =
        hold ? text::check_command(cmd, diag,
                                   {text::kNumber, text::kNumber, text::kString, text::kString})
             : text::check_command(cmd, diag, {text::kNumber, text::kString, text::kString});
    if (!well_formed) continue;
    const u32 n = hold ? 2 : 1;
    Entry e;
    bool good = true;
    for (u32 i = 0; i < n; ++i) {
      const text::Token& t = *cmd.param(i);
      if (t.number < 0 || t.number != static_cast<double>(t.as_int())) {
        diag.error(t, "a tick is a whole number of at least 0, got {}", t.text);
        good = false;
      }
    }
    if (!good) continue;
    e.first = static_cast<u64>(cmd.param(0)->as_int());
    e.last = static_cast<u64>(cmd.param(n - 1)->as_int());
    if (e.last < e.first) {
      diag.error(*cmd.param(1), "the last tick {} comes before the first {}", e.last, e.first);
      continue;
    }
    const text::Token& who = *cmd.param(n);
    usize index = fighters.size();
    for (usize i = 0; i < fighters.size(); ++i) {
      if (fighters[i] == who.text) index = i;
    }
    if (index == fighters.size()) {
      diag.error(who, "no fighter called '{}' in this match", who.text);
      continue;
    }
    e.press.fighter = static_cast<u32>(index);
    const text::Token& button = *cmd.param(n + 1);
    if (!parse_button(button.text, e.press.button)) {
      diag.error(button, "unknown button '{}' (expected attack, throw, forward or back)",
                 button.text);
      continue;
    }
    out.entries_.push_back(e);
  }
  return diag.error_count() == errors_before;
}

keel::Result<ScriptedInput> ScriptedInput::parse(std::string source, std::string name,
                                                 std::span<const std::string> fighters) {
  text::Diagnostics diag;
  std::unique_ptr<text::Document> doc = text::parse(std::move(source), std::move(name), diag);
  ScriptedInput input;
  if (doc == nullptr || !read(doc->first(), fighters, diag, input)) {
    return keel::fail(keel::ErrorCode::kParse, "{}", doc ? diag.render(*doc) : diag.render());
  }
  return input;
}

keel::Result<ScriptedInput> ScriptedInput::load(const std::filesystem::path& path,
                                                std::span<const std::string> fighters) {
  text::Diagnostics diag;
  std::unique_ptr<text::Document> doc = text::parse_file(path, diag);
  ScriptedInput input;
  if (doc == nullptr || !read(doc->first(), fighters, diag, input)) {
    return keel::fail(keel::ErrorCode::kParse, "{}", doc ? diag.render(*doc) : diag.render());
  }
  return input;
}

void ScriptedInput::poll(u64 tick, const ArenaView&, std::vector<Press>& out) {
  for (const Entry& e : entries_) {
    if (tick >= e.first && tick <= e.last) out.push_back(e.press);
  }
}

void ScriptedInput::save_state(std::vector<u64>& out) const {
  u64 h = 0;
  for (const Entry& e : entries_) {
    const u64 words[] = {e.first, e.last, e.press.fighter, static_cast<u64>(e.press.button)};
    h = keel::hash64(words, sizeof words, h);
  }
  out.insert(out.end(), {kScriptedState, entries_.size(), h});
}

keel::Status ScriptedInput::restore_state(std::span<const u64> state) {
  std::vector<u64> mine;
  save_state(mine);
  if (state.size() != mine.size() || state[0] != kScriptedState) {
    return keel::fail(keel::ErrorCode::kRefused,
                      "the save was made with another input source than this input script");
  }
  if (!std::equal(state.begin(), state.end(), mine.begin())) {
    return keel::fail(keel::ErrorCode::kRefused,
                      "the save was made with another input script ({} commands, this one has {})",
                      state[1], mine[1]);
  }
  return keel::ok();
}

RandomController::RandomController(u64 seed, usize fighters) {
  for (usize i = 0; i < fighters; ++i) {
    random_.emplace_back(keel::hash64(&i, sizeof i, seed));
  }
}

void RandomController::poll(u64, const ArenaView& arena, std::vector<Press>& out) {
  const usize n = arena.positions.size();
  for (usize i = 0; i < n && i < random_.size(); ++i) {
    keel::fsm::RandomSource& r = random_[i];
    // Distance to the nearest opponent.
    s32 nearest = 1 << 30;
    for (usize j = 0; j < n; ++j) {
      if (j == i) continue;
      const s32 d = arena.positions[j] - arena.positions[i];
      nearest = std::min(nearest, d < 0 ? -d : d);
    }
    const float roll = r.next_float();
    const u32 me = static_cast<u32>(i);
    if (nearest > arena.reach[i]) {
      if (roll < 0.85f) out.push_back({me, Button::kForward});
      continue;
    }
    if (roll < 0.07f) {
      out.push_back({me, Button::kAttack});
    } else if (roll < 0.085f) {
      out.push_back({me, Button::kThrow});
    } else if (roll < 0.11f) {
      out.push_back({me, Button::kBack});
    }
  }
}

void RandomController::save_state(std::vector<u64>& out) const {
  out.push_back(kRandomState);
  out.push_back(random_.size());
  for (const keel::fsm::RandomSource& r : random_) out.push_back(r.state());
}

keel::Status RandomController::restore_state(std::span<const u64> state) {
  if (state.size() < 2 || state[0] != kRandomState) {
    return keel::fail(keel::ErrorCode::kRefused,
                      "the save was made with an input script, this match plays at random");
  }
  if (state[1] != random_.size() || state.size() != 2 + random_.size()) {
    return keel::fail(keel::ErrorCode::kRefused,
                      "the save's random controller plays {} fighters, this one {}", state[1],
                      random_.size());
  }
  for (usize i = 0; i < random_.size(); ++i) random_[i].seed(state[2 + i]);
  return keel::ok();
}

}  // namespace rumble
