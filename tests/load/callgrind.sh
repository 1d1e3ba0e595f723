#!/usr/bin/env bash
# Userland instructions per action of the server, counted by callgrind (NOT part of CI). Unlike
# CPU time, the count does not move with what else the machine runs, so it can tell a change of a
# few percent that bench.sh's run-to-run noise (up to a fifth here) hides. It misses what the
# kernel does (about half of a move's cycles) and what cache misses cost.
#
# Each server runs twice under callgrind, `serve --memory` on 127.0.0.1, against bc_loadtest's
# closed loop: once for FEW actions and once for MANY; the difference of the two totals over the
# difference of the counts is the cost of an action without the setup (connections, rooms).
#
# Usage: tests/load/callgrind.sh [--baseline BIN] [--games N] [--few N] [--many N] [--out DIR]
#                                [BIN] [-- bc_loadtest options, e.g. --compact]
#   BIN defaults to build-load/bombcheckers; bc_loadtest is build-load's (bench.sh builds both).
set -euo pipefail
cd "$(dirname "$0")/../.."

bin=build-load/bombcheckers baseline="" games=40 few=2000 many=6000 out=""
extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --baseline) baseline=$2; shift 2 ;;
    --games) games=$2; shift 2 ;;
    --few) few=$2; shift 2 ;;
    --many) many=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --) shift; extra=("$@"); break ;;
    -*) echo "callgrind.sh: unknown option $1" >&2; exit 2 ;;
    *) bin=$1; shift ;;
  esac
done
load_bin=build-load/tests/load/bc_loadtest
command -v valgrind >/dev/null || { echo "callgrind.sh: valgrind is not installed" >&2; exit 2; }
[ -x "$load_bin" ] || { echo "callgrind.sh: no $load_bin (run tests/load/bench.sh once)" >&2; exit 2; }
out=${out:-$(mktemp -d)}
mkdir -p "$out"

# total BIN ACTIONS TAG: the server's whole instruction count for a run of ACTIONS actions.
total() {
  local server=$1 actions=$2 tag=$3
  local log=$out/$tag.server.log
  valgrind --tool=callgrind --callgrind-out-file="$out/$tag.callgrind" "$server" serve \
    --host 127.0.0.1 --port 0 --memory --log-level warn --max-connections-per-address 0 \
    --max-rooms-per-address 0 --max-messages-per-address 0 --max-joins-per-address 0 \
    --max-spectators-per-address 0 --max-creates-per-address 0 >"$log" 2>"$out/$tag.valgrind.log" &
  local pid=$! port=""
  for _ in $(seq 1 300); do
    port=$(sed -n 's|.*listening on http://127.0.0.1:\([0-9]*\).*|\1|p' "$log" | head -1)
    [ -n "$port" ] && break
    sleep 0.1
  done
  if [ -z "$port" ]; then
    kill "$pid" 2>/dev/null || true
    echo "callgrind.sh: $server did not start" >&2
    exit 1
  fi
  timeout 600 "$load_bin" --port "$port" --games "$games" --max-actions "$actions" --duration 300 \
    "${extra[@]}" --json >"$out/$tag.load.json" || true
  kill -INT "$pid"
  wait "$pid" || true
  grep -o 'summary: [0-9]*' "$out/$tag.callgrind" | awk '{print $2}'
}

report() {
  local server=$1 label=$2
  local a b
  a=$(total "$server" "$few" "$label-few")
  b=$(total "$server" "$many" "$label-many")
  python3 -c 'import sys; a,b,f,m=map(int,sys.argv[1:5]); print(f"{sys.argv[5]:<10} {(b-a)/(m-f):8.0f} instructions an action ({m-f} actions between two runs; {a/f:.0f} with setup at {f})")' \
    "$a" "$b" "$few" "$many" "$label"
}

echo "callgrind.sh: $games games, $few and $many actions, bc_loadtest ${extra[*]:-(full states)}; files in $out"
report "$bin" this
if [ -n "$baseline" ]; then report "$baseline" baseline; fi
