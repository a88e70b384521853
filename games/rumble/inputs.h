// Where the fighters' button presses come from: a script (a command file of timed presses) or a
// seeded random controller. Both are deterministic: the same script or seed gives the same
// presses on the same ticks.
//
//   // data/inputs.txt
//   Hold(0, 20, "Hero", "forward");     // ticks 0..20 inclusive
//   Press(30, "Hero", "attack");        // one press on tick 30
#pragma once

#include "keel/core/error.h"
#include "keel/core/types.h"
#include "keel/fsm/random.h"
#include "keel/text/diagnostics.h"
#include "keel/text/token.h"

#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace rumble {

using keel::s32;
using keel::u32;
using keel::u64;
using keel::usize;

enum class Button : keel::u8 { kAttack, kThrow, kForward, kBack };
std::string_view to_string(Button button);  // "attack", "throw", "forward", "back"
bool parse_button(std::string_view name, Button& out);

struct Press {
  u32 fighter = 0;  // index in the match
  Button button = Button::kAttack;
};

// What a controller may look at: where everyone is.
struct ArenaView {
  std::span<const s32> positions;  // x of each fighter
  std::span<const s32> reach;      // strike reach of each fighter
};

class InputSource {
 public:
  virtual ~InputSource() = default;
  // Appends the presses of `tick` (in a fixed order) to `out`.
  virtual void poll(u64 tick, const ArenaView& arena, std::vector<Press>& out) = 0;
  // Save games: where the source is (appended to `out`), and going back there. restore_state()
  // changes nothing when it refuses a state (another kind of source, another script).
  virtual void save_state(std::vector<u64>& out) const = 0;
  virtual keel::Status restore_state(std::span<const u64> state) = 0;
};

// Presses read from a command file: Press(tick, "fighter", "button") and
// Hold(first, last, "fighter", "button"). Fighter names are resolved against `fighters`.
class ScriptedInput final : public InputSource {
 public:
  struct Entry {
    u64 first = 0;
    u64 last = 0;
    Press press;
  };
  static bool read(const keel::text::Token* first, std::span<const std::string> fighters,
                   keel::text::Diagnostics& diagnostics, ScriptedInput& out);
  static keel::Result<ScriptedInput> load(const std::filesystem::path& path,
                                          std::span<const std::string> fighters);
  static keel::Result<ScriptedInput> parse(std::string source, std::string name,
                                           std::span<const std::string> fighters);

  void poll(u64 tick, const ArenaView& arena, std::vector<Press>& out) override;
  // A script has no position of its own (poll() looks the tick up): its state identifies the
  // script (kind, entry count, content hash), so a save of another script is refused.
  void save_state(std::vector<u64>& out) const override;
  keel::Status restore_state(std::span<const u64> state) override;
  const std::vector<Entry>& entries() const { return entries_; }

 private:
  std::vector<Entry> entries_;  // in file order
};

// A seeded random player for every fighter: walks in while out of reach, then jabs, throws and
// steps back now and then. Each fighter draws from its own stream, derived from the seed.
class RandomController final : public InputSource {
 public:
  RandomController(u64 seed, usize fighters);
  void poll(u64 tick, const ArenaView& arena, std::vector<Press>& out) override;
  // The kind, the stream count and every stream's RandomSource::state().
  void save_state(std::vector<u64>& out) const override;
  keel::Status restore_state(std::span<const u64> state) override;

 private:
  std::vector<keel::fsm::RandomSource> random_;
};

}  // namespace rumble
