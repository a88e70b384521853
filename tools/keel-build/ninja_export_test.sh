#!/usr/bin/env bash
# keel-build export-ninja (issue 16): ninja on the exported file makes the same data files as
# keel-build, the repack edges run no handler (every asset comes from the asset edges through the
# store folder), and a second ninja run has nothing to do.
# Usage: ninja_export_test.sh KEEL_BUILD PROJECT WORKDIR. Exits 77 (skip) without ninja.
set -euo pipefail

keel_build=$1
project=$2
work=$3

ninja=$(command -v ninja || true)
if [ -z "$ninja" ]; then
  echo "SKIP: ninja is not installed"
  exit 77
fi
fail() {
  echo "FAIL: $*"
  exit 1
}

rm -rf "$work"
mkdir -p "$work"
work=$(cd "$work" && pwd)

"$keel_build" -p "$project" --intermediate-path "$work/ref/obj" --image-path "$work/ref/image" \
  --no-progress >"$work/out.ref" 2>&1 || { cat "$work/out.ref"; fail "keel-build failed"; }

"$keel_build" export-ninja -p "$project" --intermediate-path "$work/obj" \
  --image-path "$work/image" -o "$work/build.ninja"
edges=$(grep -c ': keel_asset ' "$work/build.ninja")
packs=$(grep -c ': keel_repack ' "$work/build.ninja")
echo "exported $edges asset edges, $packs repack edges"
[ "$edges" -gt 0 ] && [ "$packs" -gt 0 ] || fail "no edges exported"

"$ninja" -f "$work/build.ninja" -j2 >"$work/out.ninja" 2>&1 || { cat "$work/out.ninja"; fail "ninja failed"; }
cat "$work/out.ninja" | grep -E "keel-build: |ninja" || true
diff -r "$work/ref/image" "$work/image" >/dev/null || fail "ninja's data files differ from keel-build's"
echo "data files identical to keel-build's"
[ "$(grep -c 'hits, 0 misses' "$work/out.ninja")" = "$packs" ] ||
  fail "a repack edge ran a handler (expected every asset from the store)"

"$ninja" -f "$work/build.ninja" >"$work/out.again" 2>&1 || fail "second ninja run failed"
grep -q "no work to do" "$work/out.again" || { cat "$work/out.again"; fail "second ninja run did work"; }
echo "PASS"
