#!/usr/bin/env bash
# Set up everything and run every test: libFuzzer targets (clang), ThreadSanitizer tests, a
# warning-free optimised build of everything (benchmarks, tools, games), formatting and layering
# checks (clang-tidy too with KEEL_TIDY=1), then all unit and integration tests under AddressSanitizer +
# UndefinedBehaviorSanitizer. Ends with CTest's summary.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh

step() { printf '\n==== %s\n' "$*"; }

step "fuzz targets (clang 19 + libFuzzer, ${KEEL_FUZZ_SECONDS:-10} s each)"
cmake --preset fuzz -DKEEL_WERROR=ON -DKEEL_FUZZ_SECONDS="${KEEL_FUZZ_SECONDS:-10}" >/dev/null
cmake --build --preset fuzz
ctest --preset fuzz

step "ThreadSanitizer tests"
cmake --preset tsan -DKEEL_WERROR=ON >/dev/null
cmake --build --preset tsan
ctest --preset tsan

step "optimised build (benchmarks, tools, games)"
cmake --preset release -DKEEL_WERROR=ON >/dev/null
cmake --build --preset release

step "all tests (debug, AddressSanitizer + UndefinedBehaviorSanitizer)"
cmake --preset debug -DKEEL_WERROR=ON >/dev/null
cmake --build --preset debug

step "static checks: formatting, layering${KEEL_TIDY:+, clang-tidy}"
git ls-files '*.h' '*.cpp' | xargs clang-format --dry-run --Werror
python3 scripts/check-layers.py .
# clang-tidy over the whole tree takes ~12 minutes on 2 cores, doubling CI time: opt-in.
if [ -n "${KEEL_TIDY:-}" ]; then scripts/tidy.sh; fi

ctest --preset debug
