#!/usr/bin/env bash
# LAN test: two network namespaces on this machine stand for two machines on a LAN. The server runs
# in one ("host", 10.231.77.1/24 and fd77:231::1/64 on a veth), the players in the other ("guest",
# .2 and ::2), and they play by the URL the server printed at start.
#
#   tests/lan/run.sh BINARY    exit 0: passed; 77: SKIPPED (not root, or no network namespaces
#                              here); anything else: failed
#
# Steps: start `BINARY serve --host 0.0.0.0` in the host namespace and wait for /healthz there
# (127.0.0.1); read the LAN URLs from its log ("or http://...:PORT/ from another device on the
# network"): they must include http://10.231.77.1:PORT/, name no loopback address and no address
# outside the namespace; then, from the guest namespace only and by that printed URL, fetch the
# web client (/ and /r/ROOM), /healthz and /api/server, and play a bomb game over WebSocket: fire
# creates, water joins by the room id, a spectator watches, several actions, every connection
# sees every state (tests/lan/lan_play.py). If the IPv6 pair works, a second server on `--host ::`
# must print the IPv6 URL too, and the guest fetches /healthz by it (and by its IPv4 URL: dual
# stack). Each server must stop with status 0 on SIGTERM. Only the namespaces' own addresses and
# 127.0.0.1 are contacted. The namespaces, the veth pair and the servers are removed on exit.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"

t_start=$SECONDS
log() { printf '[lan %s +%ss] %s\n' "$(date +%T)" "$((SECONDS - t_start))" "$*"; }
skip() { echo "SKIPPED: $*"; exit 77; }
die() { echo "lan test: FAILED: $*" >&2; exit 1; }

[ $# -eq 1 ] || { echo "usage: tests/lan/run.sh BINARY" >&2; exit 2; }
bin="$(realpath -e "$1" 2>/dev/null)" || die "no such binary: $1"
[ -x "$bin" ] || die "not executable: $bin"
web_root="$root/web"
[ -f "$web_root/index.html" ] || die "$web_root/index.html is missing"
command -v python3 >/dev/null || die "python3 is needed"

[ "$(id -u)" = 0 ] || skip "not root: creating network namespaces needs root"
export PATH="$PATH:/usr/sbin:/sbin"
command -v ip >/dev/null || skip "no ip command (iproute2)"

# Names unique to this run. Interface names stay under 16 characters.
hns="bclan-host-$$"
gns="bclan-guest-$$"
vh="bclh$$"
vg="bclg$$"
h4=10.231.77.1 g4=10.231.77.2
h6=fd77:231::1 g6=fd77:231::2
work="$(mktemp -d "${TMPDIR:-/tmp}/bc-lan.XXXXXX")"
server_pid=""
made_ns=()

# stop_server: SIGTERM, then up to 10 s for it to exit (SIGKILL after); sets stop_rc and stop_s.
stop_server() {
  local pid=$server_pid t0
  server_pid=""
  stop_rc=0
  t0=$(date +%s%N)
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$pid" 2>/dev/null; then kill -KILL "$pid" 2>/dev/null || true; stop_rc=137; fi
  wait "$pid" 2>/dev/null || stop_rc=$?
  stop_s=$(( ($(date +%s%N) - t0) / 1000000 ))
}

ns_exists() { ip netns list 2>/dev/null | awk '{print $1}' | grep -qxF "$1"; }

cleanup() {
  local rc=$? ns pid
  trap - EXIT INT TERM
  set +e
  [ -n "$server_pid" ] && stop_server
  for ns in "${made_ns[@]}"; do
    if ns_exists "$ns"; then
      for pid in $(timeout 10 ip netns pids "$ns" 2>/dev/null); do kill -KILL "$pid" 2>/dev/null; done
      timeout 10 ip netns del "$ns" || echo "lan test: could not delete namespace $ns" >&2
    fi
  done
  if [ "$rc" != 0 ] && [ "$rc" != 77 ]; then
    for f in "$work"/server*.log; do
      [ -f "$f" ] && { echo "--- $(basename "$f") (last 30 lines) ---" >&2; tail -n 30 "$f" >&2; }
    done
  fi
  rm -rf "$work"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# ---- the two namespaces and the veth between them ----------------------------------------------
if ! err=$(timeout 10 ip netns add "$hns" 2>&1); then
  skip "ip netns add failed: $err"
fi
made_ns+=("$hns")
timeout 10 ip netns add "$gns" || die "ip netns add $gns failed"
made_ns+=("$gns")
H() { timeout 10 ip netns exec "$hns" "$@"; }
G() { timeout 10 ip netns exec "$gns" "$@"; }
# Both ends are made inside the namespaces: the veth never appears in this machine's own namespace.
timeout 10 ip link add "$vh" netns "$hns" type veth peer name "$vg" netns "$gns" ||
  die "could not make the veth pair"
H ip link set lo up
G ip link set lo up
H ip addr add "$h4/24" dev "$vh"
G ip addr add "$g4/24" dev "$vg"
ipv6=1
if ! { H ip -6 addr add "$h6/64" dev "$vh" nodad && G ip -6 addr add "$g6/64" dev "$vg" nodad; } 2>"$work/ipv6.err"; then
  ipv6=0
  log "IPv6 pair not available ($(tr '\n' ' ' <"$work/ipv6.err")): IPv4 only"
fi
H ip link set "$vh" up
G ip link set "$vg" up
log "namespaces $hns ($h4$([ $ipv6 = 1 ] && echo ", $h6")) and $gns ($g4$([ $ipv6 = 1 ] && echo ", $g6")), veth $vh-$vg"

# ---- helpers -------------------------------------------------------------------------------------
free_port() {  # a free TCP port in the host namespace (nothing else runs there)
  H python3 -c 'import socket; s=socket.socket(socket.AF_INET6); s.bind(("::",0)); print(s.getsockname()[1])' 2>/dev/null ||
    H python3 -c 'import socket; s=socket.socket(); s.bind(("0.0.0.0",0)); print(s.getsockname()[1])'
}
help=$("$bin" serve --help 2>&1 || true)
has_flag() { grep -q -- "$1" <<<"$help"; }
# start_server NAME HOST PORT: the server in the host namespace, logging to $work/NAME.log.
start_server() {
  local name=$1 host=$2 port=$3 args
  args=(serve --host "$host" --port "$port" --web-root "$web_root" --log-level info --threads 2)
  if has_flag --memory; then args+=(--memory); else mkdir -p "$work/data-$name"; args+=(--data-dir "$work/data-$name"); fi
  has_flag --log-format && args+=(--log-format text)
  # No QR code (stderr is a file anyway); an upper bound on the server's life if this script dies.
  # --foreground: timeout passes our one SIGTERM to the server only (without it, it signals its
  # whole process group, itself included, and sometimes ends with 143 although the server exits 0).
  ip netns exec "$hns" env BOMBCHECKERS_QR=0 timeout --foreground -k 5 300 "$bin" "${args[@]}" >"$work/$name.log" 2>&1 &
  server_pid=$!
  log "started $(basename "$bin") ${args[*]} in $hns (pid $server_pid)"
}
# wait_healthy NAME URL SECONDS: /healthz from inside the host namespace.
wait_healthy() {
  local name=$1 url=$2 limit=$3 t0=$SECONDS
  until H python3 - "$url" <<'PY' >"$work/healthz.out" 2>&1
import sys, urllib.request
with urllib.request.urlopen(sys.argv[1], timeout=2) as r:
    body = r.read(300).decode()
    assert r.status == 200 and '"status":"ok"' in body, body
    print(body)
PY
  do
    kill -0 "$server_pid" 2>/dev/null || die "the server ($name) exited before /healthz answered"
    [ $((SECONDS - t0)) -lt "$limit" ] || die "$url did not answer within ${limit}s: $(tail -n 1 "$work/healthz.out")"
    sleep 0.2
  done
  log "$name: $url (in $hns): $(cat "$work/healthz.out")"
}
# lan_urls NAME: the URLs the server printed for other devices, one a line.
lan_urls() {
  grep -E 'from another device on the network' "$work/$1.log" | grep -oE 'http://[^ ]+' || true
}
# check_urls NAME PORT EXPECTED...: every expected URL printed, no loopback, nothing but our addresses.
check_urls() {
  local name=$1 port=$2 u
  shift 2
  local urls
  urls=$(lan_urls "$name")
  log "$name printed: $(grep -E 'open http|from another device' "$work/$name.log" | sed -E 's/^\[[^]]*\] \[[^]]*\] \[[^]]*\] //' | paste -sd';' | sed 's/;/; /g')"
  [ -n "$urls" ] || die "$name printed no LAN URL"
  for u in "$@"; do
    grep -qxF "$u" <<<"$urls" || die "$name did not print $u as a LAN URL (printed: $(paste -sd" " <<<"$urls"))"
  done
  while read -r u; do
    case "$u" in
      http://127.*|http://\[::1\]*|http://localhost*|http://\[::ffff:127.*)
        die "$name printed the loopback address $u as a LAN URL" ;;
      "http://$h4:$port/"|"http://[$h6]:$port/") ;;
      *) die "$name printed $u, which is no address of its namespace (or not port $port)" ;;
    esac
  done <<<"$urls"
}

# ---- the server on 0.0.0.0, played from the guest ------------------------------------------------
port=$(free_port)
start_server server "0.0.0.0" "$port"
wait_healthy server "http://127.0.0.1:$port/healthz" 20
check_urls server "$port" "http://$h4:$port/"
url=$(lan_urls server | grep -xF "http://$h4:$port/" | head -n 1)
log "from $gns by the printed URL $url"
timeout 90 ip netns exec "$gns" python3 "$here/lan_play.py" play "$url" "$web_root/index.html" \
  --moves 8 --timeout 60 || die "playing over $url from $gns failed"
stop_server
[ "$stop_rc" = 0 ] || die "the server exited with $stop_rc after SIGTERM"
log "server stopped on SIGTERM in ${stop_s} ms, status 0"

# ---- IPv6: a second server on :: (an IPv4 listener cannot be reached over IPv6) ------------------
if [ "$ipv6" = 1 ]; then
  port6=$(free_port)
  start_server server6 "::" "$port6"
  wait_healthy server6 "http://127.0.0.1:$port6/healthz" 20
  check_urls server6 "$port6" "http://[$h6]:$port6/" "http://$h4:$port6/"
  for u in $(lan_urls server6); do
    timeout 30 ip netns exec "$gns" python3 "$here/lan_play.py" healthz "$u" --timeout 15 ||
      die "GET ${u}healthz from $gns failed"
  done
  stop_server
  [ "$stop_rc" = 0 ] || die "the server on :: exited with $stop_rc after SIGTERM"
  log "server on :: stopped on SIGTERM in ${stop_s} ms, status 0"
fi

log "passed in $((SECONDS - t_start))s"
