#!/usr/bin/env bash
# The store backends and the cluster side by side (NOT part of CI): the closed-loop load tool
# against one node on SQLite (a fresh --data-dir), one on PostgreSQL (a fresh database of a private
# PostgreSQL this script starts on 127.0.0.1 with fsync on, and stops), and three nodes on
# PostgreSQL and a private Redis behind a private HAProxy with docker/haproxy.cfg ("cluster3"), run
# after run in one go, several rounds, at several game counts. Reports actions/s, p50/p99 latency
# (act -> state, every receiver) and the CPU of the nodes, of PostgreSQL and of Redis plus HAProxy.
# Every run is bounded (DURATION seconds plus setup).
#
# Usage: tests/load/store_bench.sh [--rounds N] [--duration SEC] [--games "10 50 200 500"]
#                                  [--stores "sqlite postgres cluster3"] [--build DIR] [--out DIR]
# Needs Debian's postgresql (initdb, pg_ctl), and for cluster3 redis-server and haproxy; as root,
# PostgreSQL runs as the postgres user.
set -euo pipefail
cd "$(dirname "$0")/../.."

rounds=3 duration=8 games_list="10 50 200 500" stores="sqlite postgres" build=build out=""
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds=$2; shift 2 ;;
    --duration) duration=$2; shift 2 ;;
    --games) games_list=$2; shift 2 ;;
    --stores) stores=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    *) echo "store_bench: unknown option $1" >&2; exit 2 ;;
  esac
done
out=${out:-$build/store-bench-$(date -u +%Y%m%dT%H%M%S)}
mkdir -p "$out"
: >"$out/runs.jsonl"
server_bin=$build/bombcheckers
load_bin=$build/tests/load/bc_loadtest
[ -x "$server_bin" ] && [ -x "$load_bin" ] || { echo "store_bench: build $server_bin and $load_bin first" >&2; exit 2; }
pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -x "$pg_bin/initdb" ] || { echo "store_bench: needs PostgreSQL (apt-get install postgresql)" >&2; exit 2; }
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

work=$(mktemp -d)
as_pg=()
if [ "$(id -u)" = 0 ]; then chown postgres: "$work"; as_pg=(runuser -u postgres --); fi
pid="" extra_pids=""
stop_server() {
  local p
  for p in $extra_pids $pid; do kill "$p" 2>/dev/null || true; done
  for p in $extra_pids $pid; do
    for _ in $(seq 1 200); do kill -0 "$p" 2>/dev/null || break; sleep 0.05; done
    kill -9 "$p" 2>/dev/null || true
    wait "$p" 2>/dev/null || true
  done
  pid="" extra_pids=""
}
cleanup() {
  stop_server
  "${as_pg[@]}" "$pg_bin/pg_ctl" -D "$work/pg" -m fast -w -t 30 stop >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

pg_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"${as_pg[@]}" "$pg_bin/initdb" -D "$work/pg" -U postgres -A trust -E UTF8 --no-locale >/dev/null
"${as_pg[@]}" "$pg_bin/pg_ctl" -D "$work/pg" -l "$work/pg.log" -w -t 60 \
  -o "-p $pg_port -c listen_addresses=127.0.0.1 -c unix_socket_directories=$work -c fsync=on -c synchronous_commit=on" \
  start >/dev/null
postmaster=$(head -1 "$work/pg/postmaster.pid")
psql=("$pg_bin/psql" -h 127.0.0.1 -p "$pg_port" -U postgres -d postgres -qAt)
echo "store_bench: PostgreSQL $("${psql[@]}" -c 'SHOW server_version') on 127.0.0.1:$pg_port (fsync $("${psql[@]}" -c 'SHOW fsync'))," \
  "$(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"

# CPU seconds (user+system) of PostgreSQL: the postmaster, its reaped children and its live ones.
pg_cpu() {
  python3 - "$postmaster" <<'PY'
import os, sys
hz = os.sysconf("SC_CLK_TCK")
def stat(p):
    with open(f"/proc/{p}/stat") as f:
        return f.read().rsplit(")", 1)[1].split()
pm = sys.argv[1]
s = stat(pm)
total = sum(int(x) for x in s[11:15])
for p in os.listdir("/proc"):
    if p.isdigit():
        try:
            t = stat(p)
            if t[1] == pm:
                total += int(t[11]) + int(t[12])
        except OSError:
            pass
print(total / hz)
PY
}

# CPU seconds (user+system) of the given processes.
procs_cpu() {
  python3 - "$@" <<'PY'
import os, sys
hz = os.sysconf("SC_CLK_TCK")
total = 0
for p in sys.argv[1:]:
    try:
        with open(f"/proc/{p}/stat") as f:
            total += sum(int(x) for x in f.read().rsplit(")", 1)[1].split()[11:13])
    except OSError:
        pass
print(total / hz)
PY
}

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# Starts a node with the given arguments: its pid in node_pid, its port in node_port (empty if it
# did not start). Not in a subshell, so that the node is this shell's child.
start_node() {
  local log=$1; shift
  : >"$log.out"
  "$server_bin" serve --host 127.0.0.1 --port 0 --threads 2 "${unlimited[@]}" "$@" \
    --log-level warn >"$log.out" 2>"$log.err" &
  node_pid=$! node_port=""
  for _ in $(seq 1 200); do
    node_port=$(sed -n 's|.*listening on http://127.0.0.1:\([0-9]*\).*|\1|p' "$log.out" | head -1)
    [ -n "$node_port" ] && break
    sleep 0.05
  done
}

unlimited=(--max-connections-per-address 0 --max-rooms-per-address 0 --max-messages-per-address 0
           --max-joins-per-address 0 --max-spectators-per-address 0 --max-creates-per-address 0)
n=0
run_one() {
  local store=$1 games=$2 r=$3
  n=$((n + 1))
  local where=()
  if [ "$store" = sqlite ]; then
    where=(--data-dir "$(mktemp -d -p "$work")")
  elif [ "$store" = cluster3 ]; then
    "${psql[@]}" -c "CREATE DATABASE bench$n"
    where=(--data-dir "$(mktemp -d -p "$work")" --store "postgresql://postgres@127.0.0.1:$pg_port/bench$n")
  else
    "${psql[@]}" -c "CREATE DATABASE bench$n"
    where=(--store "postgresql://postgres@127.0.0.1:$pg_port/bench$n")
  fi
  local port="" nodes_cpu_pids="" redis_pid="" haproxy_pid=""
  if [ "$store" = cluster3 ]; then
    # Three nodes on the same database, a private Redis, and HAProxy in front (docker/haproxy.cfg).
    local rport; rport=$(free_port)
    redis-server --port "$rport" --bind 127.0.0.1 --save '' --appendonly no --loglevel warning \
      --dir "$work" >/dev/null 2>&1 &
    redis_pid=$! extra_pids="$extra_pids $!"
    for _ in $(seq 1 100); do redis-cli -p "$rport" ping >/dev/null 2>&1 && break; sleep 0.05; done
    local ports=() id
    for id in a b c; do
      start_node "$work/node-$id" "${where[@]}" --cluster "redis://127.0.0.1:$rport" --node-id "$id"
      extra_pids="$extra_pids $node_pid" nodes_cpu_pids="$nodes_cpu_pids $node_pid"
      [ -n "$node_port" ] || { echo "store_bench: node $id did not start" >&2; cat "$work/node-$id.err" >&2; exit 1; }
      ports+=("$node_port")
    done
    port=$(free_port)
    BC_LISTEN=127.0.0.1:$port BC_STATS=127.0.0.1:$(free_port) BC_NODE_A=127.0.0.1:${ports[0]} \
      BC_NODE_B=127.0.0.1:${ports[1]} BC_NODE_C=127.0.0.1:${ports[2]} \
      /usr/sbin/haproxy -db -f docker/haproxy.cfg >"$work/haproxy.log" 2>&1 &
    haproxy_pid=$! extra_pids="$extra_pids $!"
    for _ in $(seq 1 100); do
      python3 -c "import socket,sys; socket.create_connection(('127.0.0.1',$port),1)" 2>/dev/null && break
      sleep 0.05
    done
    sleep 1.5  # its health checks see the three nodes up
    pid=""
  else
    start_node "$work/server" "${where[@]}"
    pid=$node_pid port=$node_port nodes_cpu_pids=$node_pid
    [ -n "$port" ] || { echo "store_bench: server ($store) did not start" >&2; cat "$work/server.err" >&2; exit 1; }
  fi
  local cpu0 json cpu1 ncpu0 ncpu1 rcpu0 rcpu1 hcpu0 hcpu1 pidarg=()
  [ -n "$pid" ] && pidarg=(--server-pid "$pid")
  cpu0=$(pg_cpu) ncpu0=$(procs_cpu $nodes_cpu_pids) rcpu0=$(procs_cpu $redis_pid) hcpu0=$(procs_cpu $haproxy_pid)
  json=$(timeout $((duration + 120)) "$load_bin" --port "$port" "${pidarg[@]}" --games "$games" \
           --duration "$duration" --seed "$r" --json || true)
  cpu1=$(pg_cpu) ncpu1=$(procs_cpu $nodes_cpu_pids) rcpu1=$(procs_cpu $redis_pid) hcpu1=$(procs_cpu $haproxy_pid)
  stop_server
  [ -n "$json" ] || json='{"errors_total":1}'
  python3 - "$json" "$store" "$games" "$r" "$cpu0" "$cpu1" "$out/runs.jsonl" "$ncpu0" "$ncpu1" \
    "$rcpu0" "$rcpu1" "$hcpu0" "$hcpu1" <<'PY'
import json, sys
r = json.loads(sys.argv[1])
r.update(store=sys.argv[2], games=int(sys.argv[3]), run=int(sys.argv[4]))
r["pg_cpu_s"] = float(sys.argv[6]) - float(sys.argv[5]) if sys.argv[2] != "sqlite" else 0.0
r["nodes_cpu_s"] = float(sys.argv[9]) - float(sys.argv[8])
r["redis_cpu_s"] = float(sys.argv[11]) - float(sys.argv[10])
r["haproxy_cpu_s"] = float(sys.argv[13]) - float(sys.argv[12])
with open(sys.argv[7], "a") as f:
    f.write(json.dumps(r) + "\n")
lat = r.get("latency_all", {})
print(f"  round {r['run']} {r['store']:<8} {r['games']:>4} games: {r.get('actions_per_s', 0):8.0f} actions/s"
      f"  p50 {lat.get('p50_ms', 0):6.2f}  p99 {lat.get('p99_ms', 0):6.2f} ms"
      f"  nodes cpu {r['nodes_cpu_s']:5.1f} s  postgres cpu {r['pg_cpu_s']:5.1f} s"
      f"  redis cpu {r['redis_cpu_s']:4.1f} s  haproxy cpu {r['haproxy_cpu_s']:4.1f} s"
      f"  errors {r.get('errors_total')}  load {r.get('load_average_end', '')}", flush=True)
PY
}

for r in $(seq 1 "$rounds"); do
  for games in $games_list; do
    for store in $stores; do run_one "$store" "$games" "$r"; done
  done
done

python3 - "$out/runs.jsonl" "$duration" >"$out/summary.md" <<'PY'
import json, statistics, sys
rows = {}
for line in open(sys.argv[1]):
    r = json.loads(line)
    rows.setdefault((r["games"], r["store"]), []).append(r)
med = lambda v: statistics.median(v) if v else 0
print("| games (connections) | setup | runs | actions/s | p50 ms | p99 ms | nodes' CPU % of a core | PostgreSQL CPU % | Redis CPU % | HAProxy CPU % | errors |")
print("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
for (games, store), rs in sorted(rows.items()):
    lat = lambda k: med([r.get("latency_all", {}).get(k, 0) for r in rs])
    pct = lambda k: med([100 * r.get(k, 0) / float(sys.argv[2]) for r in rs])
    pg = pct("pg_cpu_s") if store != "sqlite" else None
    redis = pct("redis_cpu_s") if store == "cluster3" else None
    haproxy = pct("haproxy_cpu_s") if store == "cluster3" else None
    print(f"| {games} ({2 * games}) | {store} | {len(rs)} | {med([r.get('actions_per_s', 0) for r in rs]):,.0f} | "
          f"{lat('p50_ms'):.2f} | {lat('p99_ms'):.2f} | {pct('nodes_cpu_s'):.0f} | "
          f"{'-' if pg is None else f'{pg:.0f}'} | {'-' if redis is None else f'{redis:.0f}'} | "
          f"{'-' if haproxy is None else f'{haproxy:.0f}'} | "
          f"{sum(r.get('errors_total', 0) for r in rs)} |")
PY
cat "$out/summary.md"
echo "store_bench: results in $out"
