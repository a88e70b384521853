#!/usr/bin/env bash
# keel-build's shared cache against a real HTTP cache server: nginx with WebDAV PUT on a loopback
# port (issue 16). Usage: remote_cache_test.sh KEEL_BUILD PROJECT WORKDIR
#
#   1. empty cache, read-write: every asset a miss, every intermediate uploaded (small ones inside
#      their action record, large ones under cas/: both kinds are there)
#   2. local intermediates and data files wiped, read-only: every asset a hit, no upload, the
#      data files identical byte for byte; an inline hit is one request (cas/ GETs only for the
#      large ones)
#   3. one content entry and one inline action record corrupted on the server: both reported,
#      built locally, data files identical
#   4. credentials from the environment: a bearer token ($KEEL_CACHE_TOKEN) and a netrc file
#      ($KEEL_CACHE_NETRC) for HTTP basic auth; without them the server's 401 is one warning and
#      the build goes on locally
#   5. the server stopped while the build runs (requests are rate-limited so the build is still
#      asking when it goes): one warning, the build completes locally, data files identical
#
# Exits 77 (CTest's SKIP_RETURN_CODE) when nginx is not installed.
set -euo pipefail

keel_build=$1
project=$2
work=$3

nginx=$(command -v nginx || true)
[ -z "$nginx" ] && [ -x /usr/sbin/nginx ] && nginx=/usr/sbin/nginx
if [ -z "$nginx" ]; then
  echo "SKIP: nginx is not installed (Debian package nginx)"
  exit 77
fi

rm -rf "$work"
mkdir -p "$work"/{root,tmp,logs}
work=$(cd "$work" && pwd)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
url="http://127.0.0.1:$port/keel"
nginx_pid=""

fail() {
  echo "FAIL: $*"
  exit 1
}

stop_nginx() {
  if [ -n "$nginx_pid" ]; then
    kill "$nginx_pid" 2>/dev/null || true
    wait "$nginx_pid" 2>/dev/null || true
    nginx_pid=""
  fi
}
trap stop_nginx EXIT

# $1: the access log's name; $2: extra directives for the http block (phase 5 rate-limits
# requests).
start_nginx() {
  local log=$1
  local extra=${2:-}
  local limit=""
  [ -n "$extra" ] && limit="limit_req zone=slow burst=100000;"
  # A root master switches its workers to `nobody` unless told otherwise: keep them as root so
  # they can write the temporary root; as any other user the directive is ignored.
  local user_line=""
  [ "$(id -u)" -eq 0 ] && user_line="user root root;"
  cat >"$work/nginx.conf" <<EOF
$user_line
worker_processes 1;
daemon off;
pid $work/nginx.pid;
error_log $work/logs/error.log;
events { worker_connections 256; }
http {
  access_log $work/logs/$log;
  client_body_temp_path $work/tmp/body;
  proxy_temp_path $work/tmp/proxy;
  fastcgi_temp_path $work/tmp/fastcgi;
  uwsgi_temp_path $work/tmp/uwsgi;
  scgi_temp_path $work/tmp/scgi;
  client_max_body_size 0;
  $extra
  server {
    listen 127.0.0.1:$port;
    root $work/root;
    location /keel/ {
      $limit
      dav_methods PUT;
      create_full_put_path on;
      dav_access user:rw group:r all:r;
    }
    location /token/ {
      if (\$http_authorization != "Bearer s3cret") { return 401; }
      alias $work/root/keel/;
    }
    location /basic/ {
      auth_basic "keel cache";
      auth_basic_user_file $work/htpasswd;
      alias $work/root/keel/;
    }
  }
}
EOF
  "$nginx" -p "$work" -c "$work/nginx.conf" &
  nginx_pid=$!
  for _ in $(seq 1 100); do
    if python3 -c "import socket; socket.create_connection(('127.0.0.1', $port), 0.1)" 2>/dev/null; then
      return 0
    fi
    sleep 0.05
  done
  cat "$work/logs/error.log" || true
  fail "nginx did not start on port $port"
}

# keel-build on the project into $work/obj and $work/image; output in $work/out.<phase>.
build() {
  local phase=$1
  shift
  local status=0
  local cache_url=${CACHE_URL:-$url}
  "$keel_build" -p "$project" --intermediate-path "$work/obj" --image-path "$work/image" \
    --no-progress --cache "$cache_url" "$@" >"$work/out.$phase" 2>&1 || status=$?
  cat "$work/out.$phase"
  [ "$status" -eq 0 ] || fail "phase $phase: keel-build exited with $status"
}

# "remote cache URL: H hits, M misses, ..." -> H and M; "B built, ..." -> B.
count() { sed -n "s/.*remote cache .*: \([0-9]*\) hits\?, \([0-9]*\) miss.*/\\$2/p" "$work/out.$1"; }
built() { sed -n 's/^keel-build: \([0-9]*\) built,.*/\1/p' "$work/out.$1"; }

same_packs() {
  diff -r "$work/reference" "$work/image" >/dev/null || fail "phase $1: data files differ from the local build"
  echo "phase $1: data files identical to the local build"
}

wipe() { rm -rf "$work/obj" "$work/image"; }

start_nginx access.log

echo "== 1. empty cache, readwrite: all misses, uploads"
build 1 --cache-mode readwrite -j2
assets=$(built 1)
[ -n "$assets" ] && [ "$assets" -gt 0 ] || fail "phase 1: nothing built"
[ "$(count 1 1)" = 0 ] || fail "phase 1: expected no hits"
[ "$(count 1 2)" = "$assets" ] || fail "phase 1: expected $assets misses"
grep -q "$assets uploaded" "$work/out.1" || fail "phase 1: expected $assets uploads"
[ -n "$(ls "$work/root/keel/cas")" ] || fail "phase 1: nothing in the server's cas/"
inline_records=$(grep -l '^keel-cache-action 2$' "$work"/root/keel/ac/* || true)
[ -n "$inline_records" ] || fail "phase 1: no action record carries its intermediate inline"
cp -r "$work/image" "$work/reference"

echo "== 2. local intermediates wiped, read: all hits, no handler work, identical packs"
wipe
logged=$(wc -l <"$work/logs/access.log")
build 2 --cache-mode read -j2
[ "$(count 2 1)" = "$assets" ] || fail "phase 2: expected $assets hits"
[ "$(count 2 2)" = 0 ] || fail "phase 2: expected no misses"
grep -q " 0 uploaded" "$work/out.2" || fail "phase 2: read mode uploaded"
ac_gets=$(tail -n +"$((logged + 1))" "$work/logs/access.log" | grep -c '"GET /keel/ac/' || true)
cas_gets=$(tail -n +"$((logged + 1))" "$work/logs/access.log" | grep -c '"GET /keel/cas/' || true)
[ "$ac_gets" = "$assets" ] || fail "phase 2: $ac_gets action GETs for $assets assets"
[ "$cas_gets" -gt 0 ] && [ "$cas_gets" -lt "$assets" ] ||
  fail "phase 2: $cas_gets content GETs (inline hits need none, large ones one)"
echo "phase 2: $ac_gets action GETs, $cas_gets content GETs"
same_packs 2

echo "== 3. cache entries corrupted: reported, rebuilt locally, identical packs"
victim=$(ls "$work/root/keel/cas" | head -n 1)
inline_victim=$(echo "$inline_records" | head -n 1)
# A byte in the middle of a content entry, and the last byte of an inline record (its content).
python3 - "$work/root/keel/cas/$victim" "$inline_victim" <<'EOF'
import sys
for path, at in ((sys.argv[1], None), (sys.argv[2], -1)):
    data = bytearray(open(path, "rb").read())
    data[len(data) // 2 if at is None else at] ^= 0x5A
    open(path, "wb").write(bytes(data))
EOF
wipe
build 3 --cache-mode read -j2
grep -q "bad entry ac/.*cas/$victim does not have that SHA-256" "$work/out.3" ||
  fail "phase 3: the bad content entry was not reported"
grep -q "bad entry ac/$(basename "$inline_victim") (its inline content" "$work/out.3" ||
  fail "phase 3: the bad inline entry was not reported"
grep -Eq "([2-9]|[1-9][0-9]+) bad entries" "$work/out.3" || fail "phase 3: expected two bad entries"
[ "$(count 3 2)" = 0 ] || fail "phase 3: expected no misses"
same_packs 3

echo "== 4. credentials from the environment, never the command line"
echo "artist:$(openssl passwd -apr1 'pa55word')" >"$work/htpasswd"
printf 'machine 127.0.0.1\nlogin artist\npassword pa55word\n' >"$work/netrc"
token_url="http://127.0.0.1:$port/token"
basic_url="http://127.0.0.1:$port/basic"
wipe
CACHE_URL=$token_url build 4a --cache-mode read -j2
grep -q "is not usable (GET .*HTTP 401)" "$work/out.4a" || fail "phase 4a: no warning for the 401"
[ "$(count 4a 1)" = 0 ] || fail "phase 4a: hits without the token"
same_packs 4a
wipe
CACHE_URL=$token_url KEEL_CACHE_TOKEN=s3cret build 4b --cache-mode read -j2
[ "$(count 4b 2)" = 0 ] && [ "$(count 4b 1)" -gt 0 ] || fail "phase 4b: the token was not sent"
wipe
CACHE_URL=$basic_url KEEL_CACHE_NETRC=$work/netrc build 4c --cache-mode read -j2
[ "$(count 4c 2)" = 0 ] && [ "$(count 4c 1)" -gt 0 ] || fail "phase 4c: the netrc was not used"
same_packs 4c

echo "== 5. server stopped mid-build: one warning, completes locally, identical packs"
stop_nginx
# Two requests a second, and the server stops once it has answered two: the build is certainly
# still asking (every asset asks at least once) when it goes.
start_nginx access5.log "limit_req_zone \$binary_remote_addr zone=slow:1m rate=2r/s;"
wipe
(
  for _ in $(seq 1 1200); do
    [ -f "$work/logs/access5.log" ] && [ "$(wc -l <"$work/logs/access5.log")" -ge 2 ] && break
    sleep 0.05
  done
  kill "$nginx_pid"
) &
killer=$!
build 5 --cache-mode read -j2
wait "$killer" || true
wait "$nginx_pid" 2>/dev/null || true
nginx_pid=""
[ "$(wc -l <"$work/logs/access5.log")" -lt "$assets" ] ||
  fail "phase 5: the server answered every asset before it stopped"
[ "$(grep -c 'is not usable' "$work/out.5")" = 1 ] || fail "phase 5: expected one warning"
grep -q "store failed: off" "$work/out.5" || fail "phase 5: the summary does not say the cache went away"
same_packs 5

echo "PASS"
