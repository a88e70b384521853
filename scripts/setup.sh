#!/usr/bin/env bash
# Installs every Debian package Keel needs. Idempotent; run as root (or with sudo available)
# on a fresh Debian 12 (bookworm) machine. Called by the README's two commands.
set -euo pipefail

packages=(
  # toolchain
  build-essential cmake ninja-build git pkg-config python3
  clang-format clang-tidy
  # clang 19 builds the libFuzzer targets (clang 14 cannot compile libstdc++'s <expected>)
  clang-19 libclang-rt-19-dev lld-19 clang-tidy-19
  # libraries
  libfmt-dev libxxhash-dev libzstd-dev zlib1g-dev nlohmann-json3-dev libcli11-dev
  # tests and benchmarks
  libgtest-dev libgmock-dev libbenchmark-dev libcereal-dev
  # benchmark peers and tool checks: Lua 5.4 and LuaJIT 2.1 (script VM), the zstd and ninja
  # commands (pack, build tool), Graphviz (keel-fsm dot)
  liblua5.4-dev libluajit-5.1-dev zstd graphviz
  # asset processing (keel::assets_build, keel::spatial_build): stb (image decode/resize/write,
  # rect packing, DXT), libsquish (best-quality BCn), FreeType + HarfBuzz (fonts and kerning),
  # meshoptimizer, tinyobjloader and tinygltf (mesh import); DejaVu is the test font
  libstb-dev libsquish-dev libfreetype-dev libharfbuzz-dev libmeshoptimizer-dev
  libtinyobjloader-dev libtinygltf-dev fonts-dejavu-core
  # Box2D 2.4: broad-phase benchmark peer (spatial) and the world's physics
  libbox2d-dev
  # platform layer: SDL2 (window, input, renderer, audio); Xvfb runs a real window in tests
  libsdl2-dev xvfb xauth
  # keel-build's shared HTTP cache: libcurl, OpenSSL (SHA-256); nginx (WebDAV PUT) is the cache
  # server in tests
  libcurl4-openssl-dev libssl-dev nginx
  # compiler cache: repeated builds of the same sources (scripts/test.sh uses it when present)
  ccache
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if ((${#missing[@]} == 0)); then
  echo "setup: all ${#packages[@]} packages already installed"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "setup: done"
