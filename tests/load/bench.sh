#!/usr/bin/env bash
# The load benchmark of issue 8 (NOT part of CI; scripts/test.sh does not call it). Builds Release,
# then for each configuration starts a fresh `bombcheckers serve` on 127.0.0.1 (port 0) and runs
# bc_loadtest against it: closed loop at 2, 200 and 2,000 concurrent games, without and with one
# spectator per game, durability on (a data dir) and off (--memory), in full states and at 2,000
# games also in compact states with short actions (what the web page asks for); a fixed Poisson
# rate of 1,000 and of 4,000 actions/s over 2,000 games; and the bc_echo_server baseline with the
# same connection counts.
# Every run is bounded (DURATION seconds of measurement plus setup). Medians over RUNS runs.
#
# Usage: tests/load/bench.sh [--runs N] [--duration SEC] [--build DIR] [--only REGEX] [--out DIR]
#                           [--baseline BIN]
#   --baseline BIN: every server configuration runs with BIN too (an earlier build), interleaved
#   run by run with this build's, labelled "(baseline)": before and after in one run.
#   env JOBS (default 2) for the build.
# Output: one JSON object per run in OUT/runs.jsonl, and OUT/summary.md (a Markdown table).
set -euo pipefail
cd "$(dirname "$0")/../.."

runs=3 duration=10 build=build-load only=. out="" baseline=""
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs=$2; shift 2 ;;
    --duration) duration=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --baseline) baseline=$2; shift 2 ;;
    *) echo "bench.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
out=${out:-$build/bench-$(date -u +%Y%m%dT%H%M%S)}
mkdir -p "$out"
: >"$out/runs.jsonl"

cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DBC_TESTS=ON >/dev/null
cmake --build "$build" --target bombcheckers bc_loadtest bc_echo_server -j"${JOBS:-2}"
server_bin=$build/bombcheckers
load_bin=$build/tests/load/bc_loadtest
echo_bin=$build/tests/load/bc_echo_server

# Room for 2,000 games with spectators: 6,000 sockets on each side.
hard=$(ulimit -Hn)
ulimit -n "$hard" 2>/dev/null || true
echo "bench: ulimit -n $(ulimit -n) (hard $hard); $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg)"
if [ "$(ulimit -n)" != unlimited ] && [ "$(ulimit -n)" -lt 6100 ]; then
  echo "bench: WARNING: ulimit -n $(ulimit -n) is below the 6,000 connections of the largest runs" >&2
fi
memory_flag=(--memory)
# The help is read once: `serve --help | grep -q` can fail under pipefail when grep exits
# before the (over 4 KiB) help is written, and the server then gets SIGPIPE.
serve_help=$("$server_bin" serve --help 2>&1 || true)
if ! grep -q -- --memory <<<"$serve_help"; then
  echo "bench: this server has no --memory; 'memory' runs use a fresh temporary data dir instead" >&2
  memory_flag=()
fi

work=$(mktemp -d)
pid=""
data=""
# Each run's data dir goes with its server: durable runs later in the benchmark must not pay for
# the files (and the disk's writeback) of the ones before them.
stop_server() {
  if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; pid=""; fi
  if [ -n "$data" ]; then rm -rf "$data"; data=""; fi
}
trap 'stop_server; rm -rf "$work"' EXIT

# Thousands of connections and rooms from 127.0.0.1: the per-address limits are off here.
unlimited=()
if grep -q -- --max-rooms-per-address <<<"$serve_help"; then
  unlimited=(--max-connections-per-address 0 --max-rooms-per-address 0)
fi
if grep -q -- --max-messages-per-address <<<"$serve_help"; then
  unlimited+=(--max-messages-per-address 0 --max-joins-per-address 0 --max-spectators-per-address 0)
fi
if grep -q -- --max-creates-per-address <<<"$serve_help"; then
  unlimited+=(--max-creates-per-address 0)
fi

# start_server memory|disk|echo [BIN]: starts a fresh server (BIN: another build of it); sets $pid
# and $port.
start_server() {
  local server_bin=${2:-$server_bin}
  : >"$work/server.out"
  case "$1" in
    echo) "$echo_bin" --port 0 >"$work/server.out" 2>"$work/server.err" & ;;
    memory)
      if [ ${#memory_flag[@]} -gt 0 ]; then
        "$server_bin" serve --host 127.0.0.1 --port 0 "${unlimited[@]}" --memory --log-level warn >"$work/server.out" 2>"$work/server.err" &
      else
        data=$(mktemp -d -p "$work")
        "$server_bin" serve --host 127.0.0.1 --port 0 "${unlimited[@]}" --data-dir "$data" --log-level warn >"$work/server.out" 2>"$work/server.err" &
      fi ;;
    disk)
      data=$(mktemp -d -p "$work")
      "$server_bin" serve --host 127.0.0.1 --port 0 "${unlimited[@]}" --data-dir "$data" --log-level warn >"$work/server.out" 2>"$work/server.err" & ;;
  esac
  pid=$!
  for _ in $(seq 1 200); do
    port=$(sed -n 's|.*listening on http://127.0.0.1:\([0-9]*\).*|\1|p' "$work/server.out" | head -1)
    [ -n "$port" ] && return 0
    sleep 0.05
  done
  echo "bench: server ($1) did not start" >&2; cat "$work/server.err" >&2; exit 1
}

# run LABEL STORE [bc_loadtest options...]: RUNS runs; with --baseline, each run of a server
# configuration is followed by one of the baseline build.
run() {
  local label=$1 store=$2; shift 2
  [[ "$label" =~ $only ]] || return 0
  for r in $(seq 1 "$runs"); do
    run_one "$label" "$store" "$r" "" "$@"
    if [ -n "$baseline" ] && [ "$store" != echo ]; then run_one "$label (baseline)" "$store" "$r" "$baseline" "$@"; fi
  done
}

# run_one LABEL STORE RUN BIN [bc_loadtest options...]
run_one() {
  local label=$1 store=$2 r=$3 bin=$4; shift 4
  start_server "$store" $bin
  local json
  json=$(timeout $((duration + 240)) "$load_bin" --port "$port" --server-pid "$pid" --duration "$duration" \
           --seed "$r" --json "$@" || true)
  stop_server
  if [ -z "$json" ]; then json='{"errors_total":1,"problems":["bc_loadtest produced no report"]}'; fi
  python3 -c 'import json,sys; r=json.loads(sys.argv[1]); r["label"]=sys.argv[2]; r["store"]=sys.argv[3]; r["run"]=int(sys.argv[4]); print(json.dumps(r))' \
    "$json" "$label" "$store" "$r" >>"$out/runs.jsonl"
  python3 - "$json" "$label" "$r" <<'PY'
import json, sys
r = json.loads(sys.argv[1])
rate = r.get("actions_per_s", r.get("round_trips_per_s", 0))
lat = r.get("latency_all", r.get("rtt", {}))
print(f"  {sys.argv[2]:<45} run {sys.argv[3]}: {rate:9.0f}/s  p50 {lat.get('p50_ms', 0):6.2f}  p99 {lat.get('p99_ms', 0):7.2f}  "
      f"max {lat.get('max_ms', 0):7.2f} ms  tool cpu {r.get('tool_cpu_pct', 0):4.0f}%  server cpu {r.get('server', {}).get('cpu_pct', 0):4.0f}%  "
      f"errors {r.get('errors_total')}  load {r.get('load_average_end', '')}", flush=True)
PY
}

for games in 2 200 2000; do
  for spec in 0 1; do
    run "echo g$games s$spec" echo --echo --games "$games" --spectators "$spec"
    run "closed memory g$games s$spec" memory --games "$games" --spectators "$spec"
    run "closed disk g$games s$spec" disk --games "$games" --spectators "$spec"
  done
done
run "closed memory g2000 s0 compact" memory --games 2000 --compact
run "closed disk g2000 s0 compact" disk --games 2000 --compact
run "rate1000 memory g2000 s0" memory --mode rate --rate 1000 --games 2000
run "rate1000 disk g2000 s0" disk --mode rate --rate 1000 --games 2000
run "rate4000 memory g2000 s0" memory --mode rate --rate 4000 --games 2000
run "rate4000 disk g2000 s0" disk --mode rate --rate 4000 --games 2000

python3 - "$out/runs.jsonl" >"$out/summary.md" <<'PY'
import json, math, statistics, sys
rows = {}
for line in open(sys.argv[1]):
    r = json.loads(line)
    rows.setdefault(r["label"], []).append(r)
def med(rs, f):
    v = [x for x in (f(r) for r in rs) if x is not None]
    return statistics.median(v) if v else None
def fmt(v, spec="{:.0f}"):
    return "-" if v is None else spec.format(v)
print("| configuration | runs | actions or round trips /s | p50 ms | p99 ms | p99.9 ms | max ms | server B/conn | server CPU % | server CPU µs each | tool CPU % | errors | load avg (end) |")
print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
echo = {}
for label, rs in rows.items():
    lat = lambda r, k: r.get("latency_all", r.get("rtt", {})).get(k)
    rate = med(rs, lambda r: r.get("actions_per_s", r.get("round_trips_per_s")))
    if label.startswith("echo"):
        echo[label.split(" ", 1)[1]] = rate
    print(f"| {label} | {len(rs)} | {fmt(rate)} | {fmt(med(rs, lambda r: lat(r, 'p50_ms')), '{:.2f}')} | "
          f"{fmt(med(rs, lambda r: lat(r, 'p99_ms')), '{:.2f}')} | {fmt(med(rs, lambda r: lat(r, 'p999_ms')), '{:.2f}')} | "
          f"{fmt(med(rs, lambda r: lat(r, 'max_ms')), '{:.2f}')} | "
          f"{fmt(med(rs, lambda r: r.get('server', {}).get('bytes_per_connection')))} | "
          f"{fmt(med(rs, lambda r: r.get('server', {}).get('cpu_pct')))} | "
          f"{fmt(med(rs, lambda r: r.get('server', {}).get('cpu_pct', 0) * 1e4 / max(1, r.get('actions_per_s', r.get('round_trips_per_s', 0)))), '{:.1f}')} | "
          f"{fmt(med(rs, lambda r: r.get('tool_cpu_pct')))} | "
          f"{sum(r.get('errors_total', 0) for r in rs)} | {rs[-1].get('load_average_end', '')} |")
print()
print("| closed loop vs echo (same connections) | ours /s | echo /s | ratio |")
print("| --- | --- | --- | --- |")
for label, rs in rows.items():
    if not label.startswith("closed"):
        continue
    key = label.split(" ", 2)[2].replace(" (baseline)", "").replace(" compact", "")
    ours = med(rs, lambda r: r.get("actions_per_s"))
    base = echo.get(key)
    ratio = ours / base if ours and base else None
    print(f"| {label} | {fmt(ours)} | {fmt(base)} | {fmt(ratio, '{:.2f}')} |")
# With --baseline: each run against the baseline's run of the same number, which ran right after
# it. Run pairs share the machine's mood, which moves medians by a fifth here; the geometric mean
# of the pairs' ratios is the steadier before-and-after.
pairs = [(label, rs, rows[label + " (baseline)"]) for label, rs in rows.items()
         if label + " (baseline)" in rows]
if pairs:
    def cpu(r):
        rate = r.get("actions_per_s", 0)
        return r.get("server", {}).get("cpu_pct", 0) * 1e4 / rate if rate else None
    print()
    print("| against the baseline, run by run | pairs | server CPU per action (geometric mean) | each pair |")
    print("| --- | --- | --- | --- |")
    for label, rs, bs in pairs:
        base_of = {b["run"]: b for b in bs}
        ratios = [cpu(r) / cpu(base_of[r["run"]]) for r in rs
                  if r["run"] in base_of and cpu(r) and cpu(base_of[r["run"]])]
        if not ratios:
            continue
        g = math.exp(sum(math.log(x) for x in ratios) / len(ratios))
        print(f"| {label} | {len(ratios)} | x{g:.3f} | {', '.join(f'{x:.2f}' for x in ratios)} |")
PY
cat "$out/summary.md"
echo "bench: results in $out"
