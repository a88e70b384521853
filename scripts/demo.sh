#!/usr/bin/env bash
# The main job: set up everything, build the optimised preset, build Voidfarer's data with
# keel-build, and let the game play itself headless on the autopilot for a fixed number of frames
# (1800: 30 s of game time) on SDL's software renderer at 1280x720. Prints the summary (waves
# reached, enemies destroyed, score, frame-time percentiles from the profiler, draw calls and
# render state changes per frame) and writes screenshots and a Chrome trace into build/demo/.
# Extra arguments go to voidfarer, e.g.
#   scripts/demo.sh difficulty=hard --frames 3600
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cmake --preset release >/dev/null
cmake --build --preset release --target voidfarer keel-build
# Incremental: a second run rebuilds nothing. Output: games/voidfarer/data/build/image/PC/.
build/release/tools/keel-build/keel-build -p games/voidfarer/data/voidfarer.kproj
out=build/demo
rm -rf "$out/shots"
mkdir -p "$out/shots"
build/release/games/voidfarer/voidfarer \
  --data games/voidfarer/data/build/image/PC/voidfarer.kpk \
  --settings games/voidfarer/voidfarer.cfg --user-dir "$out/user" \
  --headless --software --frames 1800 --screenshot-every 300 --out "$out/shots" \
  --trace "$out/voidfarer_trace.json" --audio-out "$out/voidfarer.wav" "$@"
echo "screenshots: $out/shots/frame_*.png; Chrome trace: $out/voidfarer_trace.json (open it in https://ui.perfetto.dev)"
