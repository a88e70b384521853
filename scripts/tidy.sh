#!/usr/bin/env bash
# clang-tidy (version 19) over Keel's own sources using the debug build's compile database.
# Usage: scripts/tidy.sh [files...]   (default: every non-test .cpp under keel/, tools/, games/,
# examples/; tests and fuzz targets are left out to keep CI fast)
set -euo pipefail
cd "$(dirname "$0")/.."
db=build/debug
# A unity build's database (scripts/test.sh configures one) lists the batches, not the .cpp files:
# use a configure-only debug folder of its own then.
if grep -qs '^CMAKE_UNITY_BUILD:[A-Z]*=ON' $db/CMakeCache.txt; then
  db=build/tidy
  [ -f $db/compile_commands.json ] || cmake --preset debug -B $db >/dev/null
fi
[ -f $db/compile_commands.json ] || cmake --preset debug >/dev/null
if [ $# -gt 0 ]; then
  files=("$@")
else
  mapfile -t files < <(git ls-files 'keel/*.cpp' 'tools/*.cpp' 'games/*.cpp' 'examples/*.cpp' |
                       grep -vE '_(test|fuzz)\.cpp$')
fi
# GCC-only flags in the database are ignored by clang-tidy's driver.
printf '%s\n' "${files[@]}" | xargs -P "$(nproc)" -n 4 clang-tidy-19 -p $db --quiet \
  --extra-arg=-Wno-unknown-warning-option --extra-arg=-Wno-unused-command-line-argument
echo "tidy: ${#files[@]} files clean"
