#!/usr/bin/env bash
# CI smoke test (ctest -L load): a 3-second bc_loadtest run, 5 games plus spectators, against a
# real server on 127.0.0.1 (in memory), which must finish with exit 0 and no protocol errors; then a
# 2-second echo run against bc_echo_server.
# Usage: smoke_test.sh BOMBCHECKERS BC_LOADTEST BC_ECHO_SERVER
set -euo pipefail
server_bin=$1 load_bin=$2 echo_bin=$3
work=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

# Starts "$@" with stdout in $work/$name.out and waits for its "listening on" line; sets $port.
start() {
  local name=$1; shift
  "$@" >"$work/$name.out" 2>"$work/$name.err" &
  pids+=($!)
  for _ in $(seq 1 200); do
    if grep -q 'listening on' "$work/$name.out"; then
      port=$(sed -n 's|.*listening on http://127.0.0.1:\([0-9]*\).*|\1|p' "$work/$name.out" | head -1)
      return 0
    fi
    sleep 0.05
  done
  echo "smoke: $name did not start" >&2; cat "$work/$name.err" >&2; exit 1
}

# The help is read once: `serve --help | grep -q` can fail under pipefail when grep exits
# before the (over 4 KiB) help is written, and the server then gets SIGPIPE.
serve_help=$("$server_bin" serve --help 2>&1 || true)
if grep -q -- --memory <<<"$serve_help"; then store=(--memory); else store=(--data-dir "$work/data"); fi
# Every game's connections come from 127.0.0.1: the per-address message and join budgets are off.
unlimited=()
if grep -q -- --max-messages-per-address <<<"$serve_help"; then
  unlimited=(--max-messages-per-address 0 --max-joins-per-address 0)
fi
if grep -q -- --max-creates-per-address <<<"$serve_help"; then
  unlimited+=(--max-creates-per-address 0)
fi
start server "$server_bin" serve --host 127.0.0.1 --port 0 "${store[@]}" "${unlimited[@]}" --log-level warn --threads 1
server_pid=${pids[-1]}
"$load_bin" --port "$port" --games 5 --spectators 1 --duration 3 --seed 7 --check-scan \
  --server-pid "$server_pid" --json >"$work/load.json" || { cat "$work/load.json"; echo "smoke: bc_loadtest failed" >&2; exit 1; }
cat "$work/load.json"
# Checks on the one-line JSON report with grep: the build stage of the container image runs
# this test too, and has no scripting language but bash.
num() { # num FILE KEY [OBJECT]: the number under KEY (inside "OBJECT":{...} when given)
  local text; text=$(cat "$1")
  if [ $# -ge 3 ]; then text=$(grep -o "\"$3\":{[^}]*}" <<<"$text"); fi
  grep -o "\"$2\":[0-9.]*" <<<"$text" | head -1 | cut -d: -f2
}
expect() { # expect DESCRIPTION TEST...: fails the smoke test with the report when TEST fails
  local what=$1; shift
  "$@" || { echo "smoke: expected $what" >&2; exit 1; }
}
r=$work/load.json
expect "no protocol errors" [ "$(num "$r" errors_total)" = 0 ]
expect "5 games ready" [ "$(num "$r" games_ready)" = 5 ]
expect "accepted actions" [ "$(num "$r" actions_accepted)" -gt 0 ]
expect "every sent action accepted" [ "$(num "$r" actions_accepted)" = "$(num "$r" actions_sent)" ]
expect "broadcasts timed at the other members" [ "$(num "$r" count latency_others)" -gt 0 ]

# Compact states with short actions (docs/PROTOCOL.md), as the page asks for them: checkers hops and
# Kaboom's drops and detonations played from deltas alone, every one accepted.
for variant in bomb kaboom; do
  "$load_bin" --port "$port" --games 5 --spectators 1 --duration 2 --seed 7 --compact \
    --variant "$variant" --json >"$work/compact.json" || { cat "$work/compact.json"; echo "smoke: compact $variant failed" >&2; exit 1; }
  cat "$work/compact.json"
  c=$work/compact.json
  expect "no protocol errors (compact $variant)" [ "$(num "$c" errors_total)" = 0 ]
  expect "deltas (compact $variant)" [ "$(num "$c" deltas_received)" -gt 0 ]
  expect "every sent action accepted (compact $variant)" [ "$(num "$c" actions_accepted)" = "$(num "$c" actions_sent)" ]
done

start echo "$echo_bin" --port 0
"$load_bin" --port "$port" --echo --games 5 --duration 2 --json >"$work/echo.json" || { cat "$work/echo.json"; exit 1; }
cat "$work/echo.json"
expect "no echo errors" [ "$(num "$work/echo.json" errors_total)" = 0 ]
expect "echo round trips" [ "$(num "$work/echo.json" round_trips)" -gt 0 ]
echo "load smoke: ok"
