#!/usr/bin/env bash
# Set up everything, build the optimised preset and run the demo (headless).
# Extra arguments go to keel-demo, e.g. scripts/demo.sh +frames=300 -physics
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cmake --preset release >/dev/null
cmake --build --preset release --target keel-demo
cd build/release/games/demo
exec ./keel-demo --settings "$OLDPWD/games/demo/demo.cfg" trace=demo_trace.json "$@"
