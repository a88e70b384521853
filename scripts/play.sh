#!/usr/bin/env bash
# Play Voidfarer in a window: set up, build the optimised preset and the game's data, then open
# the game where there is a display (X11 or Wayland). Without one, says so and points at the
# headless demo. Extra arguments go to voidfarer, e.g.
#   scripts/play.sh difficulty=hard +fullscreen
#   scripts/play.sh --record my_run.vfr          # then: scripts/play.sh --replay my_run.vfr
# Keys: arrows or WASD fly, Space fires, P or Esc pauses, F5 quick-saves, F9 quick-loads,
# F1 shows the profiler, Q quits (when paused or after the game). games/voidfarer/README.md.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ -z "${DISPLAY:-}" && -z "${WAYLAND_DISPLAY:-}" ]]; then
  echo "play.sh: no display here (neither DISPLAY nor WAYLAND_DISPLAY is set)."
  echo "Run it on a machine with a desktop, or watch the game play itself headless:"
  echo "  scripts/demo.sh        (screenshots in build/demo/shots/)"
  exit 1
fi
scripts/setup.sh
cmake --preset release >/dev/null
cmake --build --preset release --target voidfarer keel-build
build/release/tools/keel-build/keel-build -p games/voidfarer/data/voidfarer.kproj
exec build/release/games/voidfarer/voidfarer \
  --data games/voidfarer/data/build/image/PC/voidfarer.kpk \
  --settings games/voidfarer/voidfarer.cfg "$@"
