#!/usr/bin/env bash
# Builds and runs every test, in stages:
#   dependencies, formatting        what is missing is installed (Debian packages as root, npm ci);
#                                   every C++ file must match .clang-format
#   JavaScript checks               web/ and tests/browser/ as Prettier writes them, ESLint's
#                                   recommended rules, no new import cycle (scripts/check-web.sh)
#   WebAssembly core                web/engine/ rebuilt by emscripten and compared with what is
#                                   committed (scripts/build-wasm.sh --check)
#   container preparation           in the background from here on: the container stage's
#                                   downloads (tests/docker/run.sh --prepare)
#   release build                   the server (g++ -O3, as shipped), the load tools, the binaries
#                                   of the heavy C++ tests
#   load smoke test                 the release server under a short load (tests/load/smoke_test.sh)
#   heavy C++ tests                 the game code's exhaustive and random sweeps (ctest label
#                                   "heavy", tests/CMakeLists.txt), built as shipped
#   browser tests                   headless Chromium, and Firefox ESR for the both/ scenarios
#   LAN play                        two network namespaces as two machines (root only)
#   ASan+UBSan build, C++ tests     the rest of the C++ suite: core, ai, store, server unit and
#                                   integration tests on 127.0.0.1, persistence, cluster (clang;
#                                   the test targets and the server they start)
#   TSan build, server and cluster  the server's and the cluster's threads
#   fuzzers                         each libFuzzer target for a bounded time
#   container image                 built with podman and played through (tests/docker/run.sh)
# With --fast (the quick loop while working) there are no sanitizer builds, no fuzzers, no container
# image, and the cross-browser scenarios run in Chromium only: the release build then builds the
# C++ suite too, and runs it. Everything --fast leaves out runs in the whole command.
# A failing stage does not stop the others (the stages that need a failed build are not run); the
# command prints each stage's time and result, the slowest tests beside their time limits, and a
# closing line "tests: N passed, N failed[, N skipped]", and exits non-zero if anything failed.
#
# Usage: scripts/test.sh [--fast]   (--fast: no sanitizers, fuzzers, container or Firefox)
# Env: JOBS (build parallelism, 2), CCACHE_DIR (default ~/.cache/bombcheckers-ccache),
#      BC_SKIP_CONTAINER=1 (no container stage), BC_FUZZ_SECONDS (per target, 20).
set -uo pipefail
cd "$(dirname "$0")/.."

fast=0
for arg in "$@"; do
  case "$arg" in
    --fast) fast=1 ;;
    *) echo "test.sh: unknown option $arg" >&2; exit 2 ;;
  esac
done

JOBS=${JOBS:-2}
export JOBS
# The C++ suites wait on sockets, servers and leases about half their time (release suite at -j2 on
# 2 cores: 190 core-s busy, 176 idle; at -j4, 124 s instead of 185; at -j4 still 74 of 224 core-s
# idle, at -j6 23 of 164: 83 and 87 s instead of 113 and 98): more of them at once than cores.
# Under the sanitizers, where the CPU is the limit, a job or two more than cores (below).
ctest_jobs=$((JOBS * 3))
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/bombcheckers-ccache}
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-5G}
# Paths relative to the checkout, so a fresh clone elsewhere (CI) still hits the cache; and the
# working directory left out of the hash of objects with debug info (the sanitizer and fuzzer
# trees' -g1/-g): with it, a clone in another folder missed every one of them.
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$PWD}
export CCACHE_NOHASHDIR=${CCACHE_NOHASHDIR:-1}
# ccache hashes the locale variables: the same ones as docker/Dockerfile's build stage, so that the
# image's build reuses the release build's objects.
export LANG=C.UTF-8
unset LC_ALL LC_CTYPE LC_MESSAGES

logs="$PWD/build/test-logs"
rm -rf "$logs"
mkdir -p "$logs"
stages="$logs/stages.tsv"
: >"$stages"
declare -A stage_rc=()

# stage NAME KIND [--needs STAGE] [--ctest-dir DIR] -- COMMAND...
# Runs COMMAND with its output shown and kept in $logs, and records its time and exit code; KIND
# tells scripts/test_report.py how to count its tests. A stage whose --needs stage failed is not run.
stage() {
  local name=$1 kind=$2 needs="" ctest_dir=""
  shift 2
  while [ "$1" != -- ]; do
    case "$1" in
      --needs) needs=$2; shift 2 ;;
      --ctest-dir) ctest_dir=$2; shift 2 ;;
      *) echo "stage: unknown option $1" >&2; exit 2 ;;
    esac
  done
  shift
  local log="$logs/$(echo "$name" | tr -c 'A-Za-z0-9+\n' '_').log"
  printf '\n==== %s (%s)\n' "$name" "$(date +%T)"
  if [ -n "$needs" ] && [ "${stage_rc[$needs]:-1}" != 0 ]; then
    echo "not run: the stage \"$needs\" failed" | tee "$log"
    printf '%s\tskipped\t0\t1\t%s\t\n' "$name" "$log" >>"$stages"
    stage_rc[$name]=1
    return
  fi
  local t0=$SECONDS rc
  "$@" 2>&1 | tee "$log"
  rc=${PIPESTATUS[0]}
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$kind" "$((SECONDS - t0))" "$rc" "$log" "$ctest_dir" >>"$stages"
  stage_rc[$name]=$rc
  printf -- '---- %s: %s in %ss\n' "$name" "$([ "$rc" = 0 ] && echo passed || { [ "$rc" = 77 ] && echo SKIPPED || echo "FAILED (exit $rc)"; })" "$((SECONDS - t0))"
}

# stage_bg NAME KIND -- COMMAND...: a stage run in the background (its output kept in its log, shown
# when stage_wait NAME collects it), for work that mostly waits on downloads while others compile.
declare -A bg_pid=() bg_log=() bg_kind=()
stage_bg() {
  local name=$1 kind=$2
  shift 3
  local log="$logs/$(echo "$name" | tr -c 'A-Za-z0-9+\n' '_').log"
  printf '\n==== %s (%s, in the background)\n' "$name" "$(date +%T)"
  {
    local t0=$SECONDS rc=0
    "$@" || rc=$?
    echo "$rc $((SECONDS - t0))" >"$log.done"
  } >"$log" 2>&1 &
  bg_pid[$name]=$! bg_log[$name]=$log bg_kind[$name]=$kind
}
stage_wait() {  # stage_wait NAME
  local name=$1 log=${bg_log[$1]} rc secs
  wait "${bg_pid[$name]}"
  read -r rc secs <"$log.done" 2>/dev/null || { rc=1 secs=0; }
  printf '\n==== %s (ran in the background)\n' "$name"
  cat "$log"
  printf '%s\t%s\t%s\t%s\t%s\t\n' "$name" "${bg_kind[$name]}" "$secs" "$rc" "$log" >>"$stages"
  stage_rc[$name]=$rc
  printf -- '---- %s: %s in %ss\n' "$name" "$([ "$rc" = 0 ] && echo passed || { [ "$rc" = 77 ] && echo SKIPPED || echo "FAILED (exit $rc)"; })" "$secs"
}

[ "$fast" = 1 ] && export BC_SKIP_CONTAINER=1 BC_BROWSERS=${BC_BROWSERS:-chromium}
deps_args=()
if [ "${BC_SKIP_CONTAINER:-0}" != 1 ]; then deps_args+=(--container); fi
stage "dependencies" build -- scripts/install-deps.sh "${deps_args[@]}"
# The container stage's downloads (a Debian base image, the Dockerfile's apt-get stages, the
# cluster's services image) while the release tree compiles; the stage itself then builds on them.
if [ "${BC_SKIP_CONTAINER:-0}" != 1 ] && [ "${stage_rc[dependencies]}" = 0 ]; then
  stage_bg "container preparation" build -- tests/docker/run.sh --prepare
fi
stage "formatting" single -- scripts/check-format.sh
# The JavaScript's format, lint and import cycles (Prettier, ESLint, scripts/web-imports.mjs).
stage "JavaScript checks" single --needs dependencies -- scripts/check-web.sh
# The page's rules core (web/engine/core.wasm) is committed: it must be what core/ builds now.
stage "WebAssembly core" single --needs dependencies -- scripts/build-wasm.sh --check

# The release tree: the server as shipped, the load tools and the binaries of the heavy tests (the
# game code's exhaustive and random sweeps, labelled in tests/CMakeLists.txt: a tenth of their ASan
# time here); with --fast, the whole C++ suite. The full command runs every other C++ test under the
# sanitizers instead: every C++ test runs once.
release_targets=(--target bombcheckers bc_load_tools core_tests ai_tests persist_tests)
[ "$fast" = 1 ] && release_targets=()
stage "release build" build --needs dependencies -- bash -c '
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DBC_TESTS=ON >/dev/null &&
  cmake --build build -j"$JOBS" "$@"' release-build "${release_targets[@]}"
if [ "$fast" = 1 ]; then
  stage "C++ tests (release)" ctest --needs "release build" --ctest-dir build -- \
    ctest --test-dir build --output-on-failure -j"$ctest_jobs" --timeout 600
else
  stage "load smoke test (release)" ctest --needs "release build" --ctest-dir build -- \
    ctest --test-dir build -L load --output-on-failure --timeout 600
  stage "heavy C++ tests (release)" ctest --needs "release build" --ctest-dir build -- \
    ctest --test-dir build -L heavy --output-on-failure -j"$JOBS" --timeout 600
fi

stage "browser tests" node --needs "release build" -- \
  env SCREENSHOT_DIR="$PWD/build/screenshots" tests/browser/run.sh "$PWD/build/bombcheckers"

# exit 77: not root, or no network namespaces here.
stage "LAN play" single --needs "release build" -- tests/lan/run.sh "$PWD/build/bombcheckers"

if [ "$fast" = 0 ]; then
  # Only what the sanitizers check: the test binaries and the server they start (no load tools).
  # clang compiles the sanitized Beast code about twice as fast as g++; -O1 as sanitizers advise.
  sanitized() {  # sanitized DIR SANITIZERS [TARGETS...]
    local dir=$1 san=$2
    shift 2
    cmake -S . -B "$dir" -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=Sanitize \
      -DBC_SANITIZE="$san" -DBC_LOAD_TOOLS=OFF >/dev/null &&
      cmake --build "$dir" -j"$JOBS" ${1:+--target "$@"}
  }
  stage "ASan+UBSan build" build --needs dependencies -- sanitized build-asan address,undefined
  # Two more tests than cores: at 3 jobs the stage left 110 of 495 core-s idle (249 s), at 4 19 of
  # 419 (211 s); its slowest test then took 58 s of its 240.
  stage "C++ tests (ASan+UBSan)" ctest --needs "ASan+UBSan build" --ctest-dir build-asan -- \
    env ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
    ctest --test-dir build-asan -LE heavy --output-on-failure -j"$((JOBS + 2))" --timeout 900

  # The server's threads, and the cluster's (its Redis threads beside the I/O threads: real nodes
  # built with TSan, which stop on a race, so their tests fail).
  stage "TSan build" build --needs dependencies -- sanitized build-tsan thread \
    server_unit_tests server_integration_tests bombcheckers cluster_tests cluster_binary_tests
  # One more test than cores: at 2 jobs the stage left 88 of 266 core-s idle (135 s), at 3 25 of
  # 194 (98 s), its slowest test 47 s of its 240 either way.
  stage "server and cluster tests (TSan)" ctest --needs "TSan build" --ctest-dir build-tsan -- \
    env TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
    ctest --test-dir build-tsan -L "server|cluster" --output-on-failure -j"$((JOBS + 1))" --timeout 900

  stage "fuzzers" counted --needs dependencies -- tests/fuzz/run.sh "${BC_FUZZ_SECONDS:-20}"
fi

# exit 77: no container engine can run here.
if [ "${BC_SKIP_CONTAINER:-0}" != 1 ]; then
  [ -n "${bg_pid[container preparation]:-}" ] && stage_wait "container preparation"
  stage "container image" single --needs dependencies -- tests/docker/run.sh
fi

python3 scripts/test_report.py "$stages" "$SECONDS"
