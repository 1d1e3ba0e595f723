#!/usr/bin/env bash
# The /metrics flood of issue 31 (a low finding): what one address requesting /metrics as fast as
# it can does to other players' moves, with the per-address /metrics limit off (--metrics-rate 0,
# as before the limit) and on (the default, 20 a second in bursts of 100). For each of three runs
# (no flood, flood without the limit, flood with it) a fresh server in memory on 127.0.0.1 gets
# bc_loadtest's paced games for --seconds while, in the flood runs, curl fetches /metrics over
# keep-alive connections; prints the players' move round trips (p50, p99) and how many /metrics
# requests were answered 200 and 429 a second. Bounded: each run stops after --seconds.
#
#   tests/load/metrics_flood.sh BOMBCHECKERS BC_LOADTEST [--seconds 10] [--rate 400] [--curls 3]
set -euo pipefail
server_bin=$1 load_bin=$2
shift 2
seconds=10 rate=400 curls=3
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds=$2; shift 2 ;;
    --rate) rate=$2; shift 2 ;;
    --curls) curls=$2; shift 2 ;;
    *) echo "metrics_flood: unknown option $1" >&2; exit 2 ;;
  esac
done
work=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

run() {  # run NAME FLOOD(0|1) SERVER-ARGS...
  local name=$1 flood=$2
  shift 2
  "$server_bin" serve --host 127.0.0.1 --port 0 --memory --log-level warn \
    --max-messages-per-address 0 --max-joins-per-address 0 "$@" >"$work/$name.out" 2>&1 &
  local spid=$!
  pids+=("$spid")
  local port=""
  for _ in $(seq 1 200); do
    port=$(sed -n 's|.*listening on http://127.0.0.1:\([0-9]*\).*|\1|p' "$work/$name.out" | head -1)
    [ -n "$port" ] && break
    sleep 0.05
  done
  [ -n "$port" ] || { echo "metrics_flood: the server did not start" >&2; exit 1; }
  local cpids=()
  if [ "$flood" = 1 ]; then
    # Each curl: one keep-alive connection, requests one after another, until killed.
    for k in $(seq 1 "$curls"); do
      (while :; do
        curl -s -o /dev/null -w '%{http_code}\n' "http://127.0.0.1:$port/metrics?[1-2000]"
      done) >"$work/$name.curl$k" 2>/dev/null &
      cpids+=($!)
    done
  fi
  "$load_bin" --port "$port" --games 20 --mode rate --rate "$rate" --duration "$seconds" \
    --json >"$work/$name.json" || true
  for p in "${cpids[@]}"; do kill "$p" 2>/dev/null || true; pkill -P "$p" curl 2>/dev/null || true; done
  for p in "${cpids[@]}"; do wait "$p" 2>/dev/null || true; done
  kill "$spid"
  wait "$spid" 2>/dev/null || true
  local ok=0 limited=0
  if [ "$flood" = 1 ]; then
    ok=$(cat "$work/$name".curl* | grep -c '^200$' || true)
    limited=$(cat "$work/$name".curl* | grep -c '^429$' || true)
  fi
  python3 - "$work/$name.json" "$name" "$ok" "$limited" "$seconds" <<'EOF'
import json, sys
path, name, ok, limited, seconds = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5])
try:
    r = json.load(open(path))
except Exception:
    print(f"{name:28s} loadtest gave no figures"); sys.exit(0)
lat = r.get("latency_mover", {})
print(f"{name:28s} move p50 {lat.get('p50_ms', 0):.2f} ms, p99 {lat.get('p99_ms', 0):.2f} ms, "
      f"{r.get('actions_per_s', 0):.0f} actions/s, errors {r.get('errors')}; "
      f"/metrics answered 200: {ok / seconds:.0f}/s, 429: {limited / seconds:.0f}/s")
EOF
}

echo "bc_loadtest: 20 games, $rate actions/s paced, $seconds s a run; flood: $curls curl keep-alive connections"
run "no flood" 0
run "flood, no limit (rate 0)" 1 --metrics-rate 0
run "flood, limit (default)" 1
