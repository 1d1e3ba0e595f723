#!/usr/bin/env bash
# The peer benchmark (issue 30; NOT part of CI, never run by scripts/test.sh): the same load
# against bombcheckers (compact=2 and full states) and against a Colyseus room with an equivalent
# minimal board game, interleaved run by run, each server fresh per run. Builds nothing.
#
# Usage: tests/load/peer/peer_bench.sh [SERVER_BIN] [--clients N] [--duration SEC] [--warmup SEC]
#                                      [--runs N] [--rate R] [--only REGEX] [--out DIR]
#                                      [--baseline BIN]
#   SERVER_BIN  our server (default build-load/bombcheckers of this checkout)
#   --clients   connections, two per room (default 2000)
#   --duration  measured seconds per run (default 10); --warmup seconds before it (default 3)
#   --runs      rounds of (ours compact=2, ours full, colyseus) (default 2)
#   --rate R    paced mode: R moves/s over all rooms (default: closed loop)
#   --only RE   run only the targets whose label matches RE (labels: ours-compact2, ours-full, colyseus)
#   --out DIR   where runs.jsonl goes (default a fresh temporary directory, printed at the end)
#   --baseline BIN  another build of ours (the build before a change), run in each round too
#               (labels ours-compact2-baseline, ours-full-baseline): before and after side by side
#   env LOADGEN_ARGS: more loadgen.mjs options (e.g. "--think-ms 50" or "--pace-rate 0").
# Needs `npm install` in tests/load/peer first.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)

server_bin=$repo/build-load/bombcheckers
clients=2000 duration=10 warmup=3 runs=2 rate="" only=. out="" baseline=""
while [ $# -gt 0 ]; do
  case "$1" in
    --clients) clients=$2; shift 2 ;;
    --duration) duration=$2; shift 2 ;;
    --warmup) warmup=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --rate) rate=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --baseline) baseline=$2; shift 2 ;;
    -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
    -*) echo "peer_bench: unknown option $1" >&2; exit 2 ;;
    *) server_bin=$1; shift ;;
  esac
done
[ -x "$server_bin" ] || { echo "peer_bench: no server binary at $server_bin" >&2; exit 2; }
[ -z "$baseline" ] || [ -x "$baseline" ] || { echo "peer_bench: no baseline binary at $baseline" >&2; exit 2; }
[ -d "$here/node_modules/@colyseus/core" ] || { echo "peer_bench: run 'npm install' in $here first" >&2; exit 2; }

ulimit -n 20000 2>/dev/null || ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
work=$(mktemp -d)
out=${out:-$work}
mkdir -p "$out"
: >"$out/runs.jsonl"
echo "peer_bench: $(nproc) cores, ulimit -n $(ulimit -n), node $(node --version), load average $(cut -d' ' -f1-3 /proc/loadavg)"
mode="closed loop"; [ -z "$rate" ] || mode="paced $rate moves/s"
echo "peer_bench: $clients clients ($((clients / 2)) rooms), $mode, warm-up $warmup s, window $duration s, $runs run(s)"

pid=""
stop_server() {
  if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; pid=""; fi
}
trap 'stop_server; [ "$out" = "$work" ] || rm -rf "$work"' EXIT

# Our server with every per-address limit off (all clients are 127.0.0.1). The per-connection
# message rate (20/s, burst 40) has no flag: loadgen paces every client, of both targets, to 95 % of it.
unlimited=(--max-connections-per-address 0 --max-rooms-per-address 0 --max-messages-per-address 0
           --max-joins-per-address 0 --max-spectators-per-address 0 --max-creates-per-address 0)

# start_server ours|baseline|colyseus: sets $pid and $port.
start_server() {
  : >"$work/server.out"
  local bin=$server_bin
  [ "$1" != baseline ] || bin=$baseline
  case "$1" in
    ours|baseline) "$bin" serve --host 127.0.0.1 --port 0 --memory --log-level warn "${unlimited[@]}" \
            >"$work/server.out" 2>"$work/server.err" & ;;
    colyseus) node "$here/colyseus_server.mjs" --port 0 >"$work/server.out" 2>"$work/server.err" & ;;
  esac
  pid=$!
  port=""
  for _ in $(seq 1 200); do
    port=$(sed -n 's|.*listening on http://127.0.0.1:\([0-9]*\).*|\1|p' "$work/server.out" | head -1)
    [ -n "$port" ] && return 0
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.05
  done
  echo "peer_bench: server ($1) did not start" >&2; cat "$work/server.err" >&2; exit 1
}

# run_one LABEL SERVER RUN [loadgen options...]
run_one() {
  local label=$1 server=$2 r=$3; shift 3
  [[ "$label" =~ $only ]] || return 0
  start_server "$server"
  local json
  # shellcheck disable=SC2086
  json=$(timeout $((duration + warmup + 200)) node "$here/loadgen.mjs" --port "$port" --server-pid "$pid" \
           --clients "$clients" --duration "$duration" --warmup "$warmup" --seed "$r" ${rate:+--rate "$rate"} \
           ${LOADGEN_ARGS:-} "$@" 2>"$work/loadgen.err" | tail -1 || true)
  local server_status=alive
  kill -0 "$pid" 2>/dev/null || server_status=dead
  stop_server
  [ -n "$json" ] || json='{"problem":"loadgen produced no report"}'
  python3 - "$json" "$label" "$r" "$server_status" "$out/runs.jsonl" <<'PY'
import json, sys
r = json.loads(sys.argv[1]); r["label"] = sys.argv[2]; r["run"] = int(sys.argv[3]); r["server_status"] = sys.argv[4]
open(sys.argv[5], "a").write(json.dumps(r) + "\n")
f = lambda v, s="{:.0f}": "-" if v is None else s.format(v)
lat = r.get("latency_ms", {})
errs = sum(r.get("errors", {}).values()) + r.get("connect_failures", 0) + r.get("closed_by_server", 0)
print(f"  {r['label']:<14} run {r['run']}: {f(r.get('moves_per_s')):>6} moves/s  server {f(r.get('server_cpu_us_per_move'), '{:.1f}'):>6} µs/move "
      f"({f(r.get('server_cpu_pct'))} % cpu)  p50 {f(lat.get('p50'), '{:.2f}')} p99 {f(lat.get('p99'), '{:.2f}')} ms  "
      f"tool {f(r.get('tool_cpu_pct'))} %  errors {errs} {r.get('errors') or ''}{r.get('notices') or ''}  "
      f"load {r.get('load_average_end', '')}{'  PROBLEM: ' + r['problem'] if 'problem' in r else ''}"
      f"{'  (server died)' if sys.argv[4] == 'dead' else ''}", flush=True)
PY
  if grep -q . "$work/loadgen.err" && ! grep -q "window done" "$work/loadgen.err"; then sed 's/^/    /' "$work/loadgen.err" | tail -5; fi
}

for r in $(seq 1 "$runs"); do
  run_one ours-compact2 ours "$r" --target ours --compact 2
  run_one ours-full ours "$r" --target ours --compact 0
  if [ -n "$baseline" ]; then
    run_one ours-compact2-baseline baseline "$r" --target ours --compact 2
    run_one ours-full-baseline baseline "$r" --target ours --compact 0
  fi
  run_one colyseus colyseus "$r" --target colyseus
done

python3 - "$out/runs.jsonl" <<'PY'
import json, statistics, sys
rows = {}
for line in open(sys.argv[1]):
    r = json.loads(line)
    rows.setdefault(r["label"], []).append(r)
def med(rs, f):
    v = [x for x in (f(r) for r in rs) if x is not None]
    return statistics.median(v) if v else None
def fmt(v, s="{:.0f}"):
    return "-" if v is None else s.format(v)
print()
print("| target | runs | moves/s | server CPU µs/move | server CPU % | p50 ms | p99 ms | server RSS end MiB | server RSS B/conn | tool CPU % | errors |")
print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
for label, rs in rows.items():
    errs = sum(sum(r.get("errors", {}).values()) + r.get("connect_failures", 0) + r.get("closed_by_server", 0) + (1 if "problem" in r else 0) for r in rs)
    print(f"| {label} | {len(rs)} | {fmt(med(rs, lambda r: r.get('moves_per_s')))} | "
          f"{fmt(med(rs, lambda r: r.get('server_cpu_us_per_move')), '{:.1f}')} | {fmt(med(rs, lambda r: r.get('server_cpu_pct')))} | "
          f"{fmt(med(rs, lambda r: r.get('latency_ms', {}).get('p50')), '{:.2f}')} | {fmt(med(rs, lambda r: r.get('latency_ms', {}).get('p99')), '{:.2f}')} | "
          f"{fmt(med(rs, lambda r: (r.get('server_rss') or {}).get('end') and r['server_rss']['end'] / 2**20), '{:.1f}')} | "
          f"{fmt(med(rs, lambda r: r.get('server_rss_bytes_per_connection')))} | {fmt(med(rs, lambda r: r.get('tool_cpu_pct')))} | {errs} |")
print("(medians over the runs; µs/move = server utime+stime over the window / moves seen by their movers)")
PY
echo "peer_bench: runs in $out/runs.jsonl; load average now $(cut -d' ' -f1-3 /proc/loadavg)"
