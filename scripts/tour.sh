#!/usr/bin/env bash
# The systems tour (the main job before Voidfarer): set up everything, build the optimised
# preset, build the sample data (data/sample.kproj) with keel-build, and run keel-demo (headless)
# on it. Extra arguments go to keel-demo, e.g.
#   scripts/tour.sh frames=300 -physics
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cmake --preset release >/dev/null
cmake --build --preset release --target keel-demo keel-build
# Incremental: a second run rebuilds nothing. Output in data/build/ (see data/sample.kproj).
build/release/tools/keel-build/keel-build -p data/sample.kproj
exec build/release/games/demo/keel-demo --settings games/demo/demo.cfg \
  trace=build/release/games/demo/demo_trace.json "$@"
