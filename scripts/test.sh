#!/usr/bin/env bash
# Set up everything and run every test: libFuzzer targets (clang), ThreadSanitizer tests, a
# warning-free optimised build of everything (benchmarks, tools, games), formatting and layering
# checks (clang-tidy too with KEEL_TIDY=1), then all unit and integration tests under AddressSanitizer +
# UndefinedBehaviorSanitizer. Ends with CTest's summary.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh

step() { printf '\n==== %s\n' "$*"; }

# ccache (installed by setup.sh) shares objects between runs and checkouts: paths are taken
# relative to the checkout and the build directory is not hashed, so a second clone hits too.
if command -v ccache >/dev/null; then
  export CMAKE_C_COMPILER_LAUNCHER=ccache CMAKE_CXX_COMPILER_LAUNCHER=ccache
  export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1
fi

step "fuzz targets (clang 19 + libFuzzer, ${KEEL_FUZZ_SECONDS:-10} s each)"
cmake --preset fuzz -DKEEL_WERROR=ON -DKEEL_FUZZ_SECONDS="${KEEL_FUZZ_SECONDS:-10}" >/dev/null
cmake --build --preset fuzz
ctest --preset fuzz

step "ThreadSanitizer tests"
cmake --preset tsan -DKEEL_WERROR=ON >/dev/null
cmake --build --preset tsan
ctest --preset tsan

# The unit tests run once, in the sanitizer build below; the optimised build compiles everything
# else (libraries, tools, games, benchmarks) warning-free at -O3, and the debug build skips the
# benchmarks, which only this build runs.
step "optimised build (benchmarks, tools, games)"
cmake --preset release -DKEEL_WERROR=ON -DKEEL_BUILD_TESTS=OFF >/dev/null
cmake --build --preset release

step "all tests (debug, AddressSanitizer + UndefinedBehaviorSanitizer)"
cmake --preset debug -DKEEL_WERROR=ON -DKEEL_BUILD_BENCH=OFF >/dev/null
cmake --build --preset debug

step "static checks: formatting, layering${KEEL_TIDY:+, clang-tidy}"
git ls-files '*.h' '*.cpp' | xargs clang-format --dry-run --Werror
python3 scripts/check-layers.py .
# clang-tidy over the whole tree takes ~12 minutes on 2 cores, doubling CI time: opt-in.
if [ -n "${KEEL_TIDY:-}" ]; then scripts/tidy.sh; fi

ctest --preset debug
