#!/usr/bin/env bash
# Builds the optimised preset and runs every benchmark executable; prints each one's output and,
# at the end, every ratio= line. Pass Google Benchmark flags through, e.g. --benchmark_filter=Scope.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh >/dev/null
cmake --preset release >/dev/null
cmake --build --preset release --target keel_benches
log=$(mktemp)
for exe in build/release/bench/keel_bench_*; do
  [ -x "$exe" ] || continue
  echo "==== $(basename "$exe")"
  "$exe" "$@" | tee -a "$log"
done
echo "==== ratios"
grep -o 'ratio=.*' "$log" || echo "(no ratio lines)"
rm -f "$log"
