#!/usr/bin/env bash
# Builds and runs every test: core and server unit tests, server integration tests on loopback,
# browser tests in headless Chromium (and Firefox ESR for both.test.mjs), then the whole C++ suite
# again under ASan+UBSan, the server and cluster tests under TSan, and each libFuzzer target for a
# bounded time.
# Installs whatever is missing first (Debian packages as root, npm ci), and checks that every C++
# file matches .clang-format (scripts/check-format.sh) before building.
# Usage: scripts/test.sh [--fast]   (--fast: skip the sanitizer builds and the fuzzers)
# Last, the container image is built and run with podman (tests/docker/run.sh; BC_SKIP_CONTAINER=1
# skips it, and it reports SKIPPED where no container engine can run).
set -euo pipefail
cd "$(dirname "$0")/.."

fast=0
for arg in "$@"; do
  case "$arg" in
    --fast) fast=1 ;;
    *) echo "test.sh: unknown option $arg" >&2; exit 2 ;;
  esac
done

JOBS=${JOBS:-2}
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/bombcheckers-ccache}
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-5G}
# Paths relative to the checkout, so a fresh clone elsewhere (CI) still hits the cache.
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$PWD}

step() { printf '\n==== %s (%s)\n' "$1" "$(date +%T)"; }

step "dependencies"
scripts/install-deps.sh

step "formatting"
scripts/check-format.sh

step "release build"
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DBC_TESTS=ON >/dev/null
cmake --build build -j"$JOBS"

step "unit and integration tests (release)"
ctest --test-dir build --output-on-failure -j"$JOBS" --timeout 600

if [ -x tests/browser/run.sh ]; then
  step "browser tests"
  SCREENSHOT_DIR="$PWD/build/screenshots" tests/browser/run.sh "$PWD/build/bombcheckers"
fi

# Two network namespaces as two machines on a LAN (tests/lan/run.sh): exit 77 means not root or no
# network namespaces here.
step "LAN play across network namespaces"; tests/lan/run.sh "$PWD/build/bombcheckers" || { rc=$?; [ $rc = 77 ] || exit $rc; }

if [ "$fast" = 0 ]; then
  step "ASan+UBSan build"
  cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DBC_SANITIZE=address,undefined >/dev/null
  cmake --build build-asan -j"$JOBS"
  step "unit and integration tests (ASan+UBSan)"
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
    ctest --test-dir build-asan --output-on-failure -j"$JOBS" --timeout 900

  # The server's threads, and the cluster's (its Redis threads beside the I/O threads: real nodes
  # built with TSan, which stop on a race, so their tests fail).
  step "TSan build (server and cluster)"
  cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBC_SANITIZE=thread >/dev/null
  cmake --build build-tsan --target server_unit_tests server_integration_tests bombcheckers \
    cluster_tests cluster_binary_tests -j"$JOBS"
  step "server and cluster tests (TSan)"
  TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
    ctest --test-dir build-tsan -L "server|cluster" --output-on-failure -j"$JOBS" --timeout 900

  step "fuzzers (bounded)"
  tests/fuzz/run.sh "${BC_FUZZ_SECONDS:-20}"
fi

# The container image (tests/docker/run.sh): exit 77 means no container engine can run here.
if [ "${BC_SKIP_CONTAINER:-0}" != 1 ]; then step "container image"; tests/docker/run.sh || { rc=$?; [ $rc = 77 ] || exit $rc; }; fi

step "all tests passed"
