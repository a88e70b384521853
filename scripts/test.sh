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

# CI-only build settings (developers' preset builds are unchanged):
# - unity builds: each target's .cpp files are compiled in batches of KEEL_UNITY_BATCH (the headers
#   are parsed once per batch, not once per file). File-local names must therefore differ between
#   the .cpp files of one target; scripts/unity-check.py finds clashes without a full build.
#   Batches of 16 cost ~7% less CPU than 8 but merge other files: check with unity-check.py first.
# - -g1 (line tables only) instead of -g: sanitizer and crash reports keep file:line, compiling
#   and linking the tests is cheaper.
# Together, for keel core/hashing/script and their tests (debug preset, no ccache), CPU time went
# from 164 s to 77 s.
UNITY=(-DCMAKE_UNITY_BUILD=ON -DCMAKE_UNITY_BUILD_BATCH_SIZE="${KEEL_UNITY_BATCH:-8}")
LINES_ONLY_RELWITHDEBINFO=-DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG"

step "fuzz targets (clang 19 + libFuzzer, ${KEEL_FUZZ_SECONDS:-10} s each)"
cmake --preset fuzz -DKEEL_WERROR=ON -DKEEL_FUZZ_SECONDS="${KEEL_FUZZ_SECONDS:-10}" "${UNITY[@]}" \
  "$LINES_ONLY_RELWITHDEBINFO" >/dev/null
cmake --build --preset fuzz
ctest --preset fuzz

step "ThreadSanitizer tests"
cmake --preset tsan -DKEEL_WERROR=ON "${UNITY[@]}" "$LINES_ONLY_RELWITHDEBINFO" >/dev/null
cmake --build --preset tsan
ctest --preset tsan

# The unit tests run once, in the sanitizer build below; the optimised build compiles everything
# else (libraries, tools, games, benchmarks) warning-free at -O3, and the debug build skips the
# benchmarks, which only this build runs.
step "optimised build (benchmarks, tools, games)"
cmake --preset release -DKEEL_WERROR=ON -DKEEL_BUILD_TESTS=OFF "${UNITY[@]}" >/dev/null
cmake --build --preset release

step "all tests (debug, AddressSanitizer + UndefinedBehaviorSanitizer)"
cmake --preset debug -DKEEL_WERROR=ON -DKEEL_BUILD_BENCH=OFF "${UNITY[@]}" \
  -DCMAKE_CXX_FLAGS_DEBUG=-g1 >/dev/null
cmake --build --preset debug

step "static checks: formatting, layering${KEEL_TIDY:+, clang-tidy}"
git ls-files '*.h' '*.cpp' | xargs clang-format --dry-run --Werror
python3 scripts/check-layers.py .
# clang-tidy over the whole tree takes ~12 minutes on 2 cores, doubling CI time: opt-in.
if [ -n "${KEEL_TIDY:-}" ]; then scripts/tidy.sh; fi

ctest --preset debug
