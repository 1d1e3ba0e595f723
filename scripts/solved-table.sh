#!/usr/bin/env bash
# Prints the table of docs/SOLVED.md: small Kaboom boards solved from the start by
# `bombcheckers solve`, one row per board that finishes within the time limit (the others are
# listed after the table).
# Usage: scripts/solved-table.sh [BINARY] [--time-ms T] [--max-positions P]
#        (defaults: build/bombcheckers, 60000 ms, 40000000 positions, about 1 GB of memo)
set -euo pipefail
cd "$(dirname "$0")/.."

bin=build/bombcheckers
time_ms=60000
max_positions=40000000
while [ $# -gt 0 ]; do
  case "$1" in
    --time-ms) time_ms=$2; shift 2 ;;
    --max-positions) max_positions=$2; shift 2 ;;
    -*) echo "solved-table.sh: unknown option $1" >&2; exit 2 ;;
    *) bin=$1; shift ;;
  esac
done
[ -x "$bin" ] || { echo "solved-table.sh: no binary at $bin (build it first)" >&2; exit 2; }

# width height connect bombs [misere] [superbomb]
boards=(
  "3 3 3 0" "3 3 3 1" "3 3 3 2" "3 3 3 0 misere" "3 3 3 1 misere" "3 3 3 1 superbomb"
  "4 3 3 0" "4 3 3 1" "4 3 3 2" "4 3 3 1 misere" "4 3 3 1 superbomb"
  "3 4 3 0" "3 4 3 1" "3 4 3 2"
  "5 3 3 0" "5 3 3 1" "3 5 3 0" "3 5 3 1"
  "4 4 3 0" "4 4 3 1" "4 4 3 2" "4 4 3 1 misere" "4 4 3 1 superbomb" "4 4 3 1 misere superbomb"
  "4 4 4 0" "4 4 4 1" "4 4 4 2" "4 4 4 1 misere" "4 4 4 1 superbomb"
  "5 4 3 0" "5 4 3 1" "5 4 3 2"
  "5 4 4 0" "5 4 4 1" "4 5 4 0" "4 5 4 1"
  "6 4 4 0" "4 6 4 0"
)

echo "| Board | Connect | Bombs | Rules | Value (x moves first) | Best first turns | Positions stored | Seconds (wall / CPU) |"
echo "| --- | ---: | ---: | --- | --- | --- | ---: | ---: |"
unsolved=()
for b in "${boards[@]}"; do
  read -r w h n bombs rest <<<"$b"
  flags=(--width "$w" --height "$h" --connect "$n" --bombs "$bombs")
  rules=plain
  if [ -n "${rest:-}" ]; then
    rules=${rest// /, }
    for r in $rest; do flags+=("--$r"); done
  fi
  if out=$("$bin" solve "${flags[@]}" --time-ms "$time_ms" --max-positions "$max_positions" 2>/dev/null); then
    value=$(sed -n 's/^value: //p' <<<"$out")
    best=$(sed -n 's/^best: //p' <<<"$out")
    positions=$(sed -n 's/^positions: //p' <<<"$out")
    secs=$(sed -n 's/^time: \(.*\) s (cpu \(.*\) s)$/\1 \/ \2/p' <<<"$out")
    echo "| ${w}x${h} | $n | $bombs | $rules | $value | $best | $positions | $secs |"
  else
    unsolved+=("${w}x${h}, connect $n, bombs $bombs, $rules")
  fi
done
if [ "${#unsolved[@]}" -gt 0 ]; then
  echo
  echo "Not solved within ${time_ms} ms and ${max_positions} positions:"
  for u in "${unsolved[@]}"; do echo "- $u"; done
fi
