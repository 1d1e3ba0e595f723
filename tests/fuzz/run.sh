#!/usr/bin/env bash
# Builds the libFuzzer targets with clang under ASan+UBSan and runs each for a bounded time,
# starting from the committed seed corpus (tests/fuzz/corpus/<target>); new inputs it finds go to
# build-fuzz/corpus/<target>. Failing inputs (crash-*, leak-*, timeout-*) are kept in
# build-fuzz/failed-<target>/ and fail the run, after every target has run.
# Usage: tests/fuzz/run.sh [SECONDS_PER_TARGET]   (default 20; use 600+ for a real campaign)
set -euo pipefail
cd "$(dirname "$0")/../.."
secs=${1:-20}
CC=clang CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DBC_FUZZ=ON -DBC_TESTS=OFF -DBC_SANITIZE=address,undefined >/dev/null
cmake --build build-fuzz --target fuzz_protocol fuzz_position fuzz_rules -j"${JOBS:-2}"
passed=0 failed=0
for target in protocol position rules; do
  mkdir -p "build-fuzz/corpus/$target"
  echo "fuzz_$target: ${secs}s"
  (cd build-fuzz && "tests/fuzz/fuzz_$target" -max_total_time="$secs" -timeout=10 \
    -rss_limit_mb=2048 -print_final_stats=1 "corpus/$target" "../tests/fuzz/corpus/$target" \
    2>&1 | grep -E '^(#[0-9]+ +DONE|stat::number_of_executed_units|stat::peak_rss_mb|==[0-9]+==ERROR|SUMMARY|Test unit written)' || true)
  # Each target is a test of its own: a failing one does not keep the others from running.
  if ls build-fuzz/crash-* build-fuzz/leak-* build-fuzz/timeout-* >/dev/null 2>&1; then
    mkdir -p "build-fuzz/failed-$target"
    mv build-fuzz/crash-* build-fuzz/leak-* build-fuzz/timeout-* "build-fuzz/failed-$target/" 2>/dev/null || true
    echo "fuzz_$target: found a failing input (build-fuzz/failed-$target/)" >&2
    failed=$((failed + 1))
  else
    passed=$((passed + 1))
  fi
done
echo "fuzzers: $passed passed, $failed failed"
[ "$failed" = 0 ]
