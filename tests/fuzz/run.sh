#!/usr/bin/env bash
# Builds the libFuzzer targets with clang under ASan+UBSan and runs each for a bounded time,
# starting from the committed seed corpus (tests/fuzz/corpus/<target>); new inputs it finds go to
# build-fuzz/corpus/<target>. Failing inputs (crash-*, leak-*, timeout-*) are kept in
# build-fuzz/failed-<target>/ and fail the run, after every target has run. The targets run side
# by side, JOBS (2) at a time.
# Usage: tests/fuzz/run.sh [SECONDS_PER_TARGET]   (default 20; use 600+ for a real campaign)
set -euo pipefail
cd "$(dirname "$0")/../.."
secs=${1:-20}
CC=clang CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DBC_FUZZ=ON -DBC_TESTS=OFF -DBC_SANITIZE=address,undefined >/dev/null
cmake --build build-fuzz --target fuzz_protocol fuzz_position fuzz_rules -j"${JOBS:-2}"
# The targets run side by side, JOBS at a time (each is one process on one core).
fuzz_one() {  # fuzz_one TARGET: its summary in build-fuzz/TARGET.out; exit 1 on a failing input
  local target=$1 dir="build-fuzz/run-$1"
  rm -rf "$dir" && mkdir -p "$dir" "build-fuzz/corpus/$target"
  (cd "$dir" && "../tests/fuzz/fuzz_$target" -max_total_time="$secs" -timeout=10 \
    -rss_limit_mb=2048 -print_final_stats=1 "../corpus/$target" "../../tests/fuzz/corpus/$target" \
    2>&1 | grep -E '^(#[0-9]+ +DONE|stat::number_of_executed_units|stat::peak_rss_mb|==[0-9]+==ERROR|SUMMARY|Test unit written)' || true) \
    >"build-fuzz/$target.out"
  # Failing inputs (crash-*, leak-*, timeout-*) are written in the target's own folder.
  if ls "$dir"/crash-* "$dir"/leak-* "$dir"/timeout-* >/dev/null 2>&1; then
    mkdir -p "build-fuzz/failed-$target"
    mv "$dir"/crash-* "$dir"/leak-* "$dir"/timeout-* "build-fuzz/failed-$target/" 2>/dev/null || true
    return 1
  fi
}
targets=(protocol position rules)
declare -A pid=()
running=0
for target in "${targets[@]}"; do
  if [ "$running" -ge "${JOBS:-2}" ]; then wait -n || true; running=$((running - 1)); fi
  echo "fuzz_$target: ${secs}s"
  fuzz_one "$target" &
  pid[$target]=$!
  running=$((running + 1))
done
passed=0 failed=0
# Each target is a test of its own: a failing one does not keep the others from running.
for target in "${targets[@]}"; do
  if wait "${pid[$target]}"; then
    passed=$((passed + 1))
  else
    echo "fuzz_$target: found a failing input (build-fuzz/failed-$target/)" >&2
    failed=$((failed + 1))
  fi
  sed "s/^/fuzz_$target: /" "build-fuzz/$target.out"
done
echo "fuzzers: $passed passed, $failed failed"
[ "$failed" = 0 ]
