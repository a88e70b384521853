#!/usr/bin/env bash
# Builds the optimised preset, runs every benchmark executable, prints each one's output and, at
# the end, every ratio= line; then rewrites bench/RESULTS.md (date, machine, compiler, one summary
# line per executable and every ratio= line) so the results can be committed beside the code.
# Pass Google Benchmark flags through, e.g. --benchmark_filter=Scope (RESULTS.md records them).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh >/dev/null
cmake --preset release >/dev/null
cmake --build --preset release --target keel_benches
log=$(mktemp)
one=$(mktemp)
summary=$(mktemp)
trap 'rm -f "$log" "$one" "$summary"' EXIT
for exe in build/release/bench/keel_bench_*; do
  [ -x "$exe" ] || continue
  name=$(basename "$exe")
  echo "==== $name"
  start=$(date +%s)
  "$exe" "$@" | tee "$one"
  seconds=$(($(date +%s) - start))
  sed -i 's/\x1b\[[0-9;]*m//g' "$one"  # colour codes off
  cat "$one" >>"$log"
  # Google Benchmark's console rows: "<name>  <time> <unit>  <cpu> <unit>  <iterations> ...".
  runs=$(grep -cE '^[^ ]+ +[0-9.]+ (ns|us|ms|s) +[0-9.]+ (ns|us|ms|s) +[0-9]+' "$one" || true)
  ratios=$(grep -c '^ratio=' "$one" || true)
  echo "- \`$name\`: $runs benchmarks, $ratios ratios, ${seconds} s" >>"$summary"
done
echo "==== ratios"
grep -o 'ratio=.*' "$log" || echo "(no ratio lines)"

# bench/RESULTS.md, rewritten on every run (written beside it, then renamed into place).
cpu=$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //' || true)
compiler_path=$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' build/release/CMakeCache.txt)
compiler=$("${compiler_path:-c++}" --version 2>/dev/null | head -1 || echo unknown)
results=bench/RESULTS.md
{
  echo "# Benchmark results"
  echo
  echo "Written by \`scripts/bench.sh\` (do not edit by hand; rerun it and commit the file)."
  echo
  echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "- commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet HEAD 2>/dev/null || echo ' (with uncommitted changes)')"
  echo "- machine: ${cpu:-unknown CPU}, $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)"
  echo "- compiler: ${compiler} (release preset)"
  if [ $# -gt 0 ]; then echo "- arguments: $*"; fi
  echo
  echo "## Executables"
  echo
  cat "$summary"
  echo
  echo "## Ratios"
  echo
  echo "A ratio is the first benchmark's time over the second's: below 1 the first is faster."
  echo
  echo '```'
  grep -o '^ratio=.*' "$log" || echo "(no ratio lines)"
  echo '```'
} >"$results.tmp"
mv "$results.tmp" "$results"
echo "wrote $results"
