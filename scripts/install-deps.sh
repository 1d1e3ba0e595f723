#!/usr/bin/env bash
# Installs everything bombcheckers needs to build, test and run, from Debian's packages and npm.
# Idempotent: each step is skipped when its tool or header is already there.
# Usage: scripts/install-deps.sh [--no-browser] [--container]
#   --container: also the container tools for tests/docker/run.sh (podman, runc, podman-compose,
#                debootstrap and podman's network helpers). Off by default.
set -euo pipefail
cd "$(dirname "$0")/.."

want_browser=1
want_container=0
for arg in "$@"; do
  case "$arg" in
    --no-browser) want_browser=0 ;;
    --container) want_container=1 ;;
    *) echo "install-deps: unknown option $arg" >&2; exit 2 ;;
  esac
done

# Debian package name -> a file that proves it is installed.
declare -A pkgs=(
  [g++]=/usr/bin/g++
  [cmake]=/usr/bin/cmake
  [ninja-build]=/usr/bin/ninja
  [ccache]=/usr/bin/ccache
  [libboost1.81-dev]=/usr/include/boost/beast.hpp
  [nlohmann-json3-dev]=/usr/include/nlohmann/json.hpp
  [libspdlog-dev]=/usr/include/spdlog/spdlog.h
  [libsqlite3-dev]=/usr/include/sqlite3.h
  [libpq-dev]=/usr/include/postgresql/libpq-fe.h  # the PostgreSQL store (serve --store URL)
  # The store's tests start a private PostgreSQL server with its initdb and postgres (Debian 12: 15).
  [postgresql]=/usr/lib/postgresql/15/bin/initdb
  [libhiredis-dev]=/usr/include/hiredis/hiredis.h  # the cluster's Redis client (serve --cluster)
  # The cluster's tests start a private Redis server (redis-server, persistence off).
  [redis-server]=/usr/bin/redis-server
  # The three-node cluster test puts a private HAProxy in front of the nodes (docker/haproxy.cfg).
  [haproxy]=/usr/sbin/haproxy
  [libssl-dev]=/usr/include/openssl/ssl.h
  [zlib1g-dev]=/usr/include/zlib.h  # the web client's files sent gzipped
  [libqrencode-dev]=/usr/include/qrencode.h
  [libsodium-dev]=/usr/include/sodium.h  # the accounts' Argon2id password hashes (docs/PLAYERS.md)
  [libgtest-dev]=/usr/include/gtest/gtest.h
  [libgmock-dev]=/usr/include/gmock/gmock.h
  [clang]=/usr/bin/clang++
  [clang-format]=/usr/bin/clang-format
  [libclang-rt-14-dev]=/usr/lib/llvm-14/lib/clang/14.0.6/lib/linux/libclang_rt.fuzzer-x86_64.a
  # The rules core as WebAssembly for the page (scripts/build-wasm.sh; the test command checks
  # that web/engine/ is what the sources build).
  [emscripten]=/usr/bin/emcc
)
if [ "$want_browser" = 1 ]; then
  pkgs[chromium]=/usr/bin/chromium
  pkgs[firefox-esr]=/usr/bin/firefox-esr  # the cross-browser tests (tests/browser/both/)
  pkgs[nodejs]=/usr/bin/node
  pkgs[npm]=/usr/bin/npm
  pkgs[openssl]=/usr/bin/openssl  # the browser TLS test makes its certificate with it
fi
if [ "$want_container" = 1 ]; then
  pkgs[podman]=/usr/bin/podman
  pkgs[runc]=/usr/sbin/runc
  pkgs[podman-compose]=/usr/bin/podman-compose
  pkgs[debootstrap]=/usr/sbin/debootstrap
  pkgs[netavark]=/usr/lib/podman/netavark
  pkgs[aardvark-dns]=/usr/lib/podman/aardvark-dns
  pkgs[iptables]=/usr/sbin/iptables
  pkgs[slirp4netns]=/usr/bin/slirp4netns
fi

missing=()
for p in "${!pkgs[@]}"; do
  [ -e "${pkgs[$p]}" ] || missing+=("$p")
done

if [ "${#missing[@]}" -gt 0 ]; then
  echo "install-deps: installing ${missing[*]}"
  if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null; then SUDO=sudo; else
      echo "install-deps: need root to apt-get install: ${missing[*]}" >&2; exit 1
    fi
  else SUDO=""; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# The container image's build stage installs the mirror's newest compiler and headers; the host's
# must be the same versions for that build to reuse the host's compiler cache (an older libssl-dev
# here made the network code miss there: three minutes of compiling). Upgraded if the package lists
# know of newer ones: the packages of docker/Dockerfile's toolchain stage.
if [ "$want_container" = 1 ] && [ "$(id -u)" = 0 ]; then
  stale=()
  for p in g++ libboost1.81-dev nlohmann-json3-dev libspdlog-dev libsqlite3-dev libpq-dev \
    libhiredis-dev libssl-dev libqrencode-dev zlib1g-dev libsodium-dev; do
    read -r installed candidate < <(apt-cache policy "$p" 2>/dev/null |
      awk '/Installed:/ {i = $2} /Candidate:/ {c = $2} END {print i, c}')
    case "$installed $candidate" in *"(none)"* | " "*) continue ;; esac
    if [ "$installed" != "$candidate" ]; then stale+=("$p"); fi
  done
  if [ "${#stale[@]}" -gt 0 ]; then
    echo "install-deps: upgrading ${stale[*]} to the versions the image's build gets"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends --only-upgrade \
      "${stale[@]}" >/dev/null
  fi
fi

if [ "$want_browser" = 1 ] && [ -f tests/browser/package.json ]; then
  # npm ci again when the lock file changed since the last install (a module added or moved on).
  if [ ! -f tests/browser/node_modules/.package-lock.json ] \
    || [ tests/browser/package-lock.json -nt tests/browser/node_modules/.package-lock.json ]; then
    echo "install-deps: npm ci in tests/browser"
    (cd tests/browser && npm ci --no-audit --no-fund --loglevel=error)
  fi
fi
echo "install-deps: ok"
