# shellcheck shell=bash disable=SC2154  # run.sh's variables (work, image, base_image, here...)
# The container test's cluster part, sourced by tests/docker/run.sh (its helpers, variables and
# cleanup trap): docker/compose.cluster.yaml with three nodes of the test image behind HAProxy,
# PostgreSQL and Redis from docker/services.Dockerfile. Builds the services image (or finds it in
# podman's store: it is kept there, tagged by a hash of its files), brings the cluster up, waits
# for HAProxy and the three nodes, plays a game through HAProxy and kills the room's owner
# mid-game (tests/docker/cluster_play.py), then `down -v`.

t_cluster=$SECONDS

# ---- the services image (run.sh's make_services_image; --prepare may have made it) --------------
t0=$SECONDS
make_services_image
services_s=$((SECONDS - t0))

# ---- up ----------------------------------------------------------------------------------------
t0=$SECONDS
pport=$(free_port)
sport=$(free_port)
ccompose=(timeout --kill-after=10 300 podman-compose -p "$project" -f docker/compose.cluster.yaml)
POSTGRES_PASSWORD="bc-$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')"
export BOMBCHECKERS_IMAGE="$image" BOMBCHECKERS_SERVICES_IMAGE="$services_image" \
  BOMBCHECKERS_PUBLISH="127.0.0.1:$pport" BOMBCHECKERS_STATS_PUBLISH="127.0.0.1:$sport" \
  POSTGRES_PASSWORD
log "podman-compose -f docker/compose.cluster.yaml up -d (HAProxy on 127.0.0.1:$pport, stats 127.0.0.1:$sport)"
# In two steps, PostgreSQL first, to pin the network bridge's MAC address in between: netavark
# 1.4 (Debian 12) leaves it to the kernel, which gives a bridge the lowest MAC of its ports, so it
# changes as containers come and go (a node killed, say). Containers that had talked to the
# gateway then send to its old MAC: their DNS (aardvark-dns on the gateway) and the published
# ports' replies are lost until their ARP entry is renewed, 30 s to a minute or two (seen here: a
# node stuck 40 s in its first lookup of "postgres"). Set once by hand, the MAC stays (later
# netavark versions set one themselves).
"${ccompose[@]}" up -d --no-build postgres >"$work/cluster-up.log" 2>&1 || {
  cat "$work/cluster-up.log" >&2; die "podman-compose up of the cluster's postgres failed"; }
bridge=$(pm 30 network inspect -f '{{.NetworkInterface}}' "${project}_default")
if [ "$(cat "/sys/class/net/$bridge/addr_assign_type" 2>/dev/null)" != 3 ]; then
  if ip link set dev "$bridge" address "$(cat "/sys/class/net/$bridge/address")"; then
    log "bridge $bridge: MAC address $(cat "/sys/class/net/$bridge/address") pinned"
  else
    log "warning: could not pin the MAC address of bridge $bridge: DNS in the cluster may stall"
  fi
fi
"${ccompose[@]}" up -d --no-build >>"$work/cluster-up.log" 2>&1 || {
  cat "$work/cluster-up.log" >&2; die "podman-compose up of the cluster failed"; }
ctr() { echo "${project}_$1_1"; }   # podman-compose 1.0's container names
n=$(pm 30 ps -a -q --filter "label=io.podman.compose.project=$project" | grep -c .)
[ "$n" = 6 ] || die "the cluster compose made $n containers, not 6"

# Only HAProxy is published, on 127.0.0.1: the game's port and its status page.
for s in postgres redis node-a node-b node-c; do
  [ -z "$(pm 30 port "$(ctr "$s")")" ] || die "$s is published: $(pm 30 port "$(ctr "$s")" | tr '\n' ' ')"
done
ports=$(pm 30 port "$(ctr haproxy)" | sort | tr '\n' ' ')
[ "$ports" = "8080/tcp -> 127.0.0.1:$pport 8404/tcp -> 127.0.0.1:$sport " ] ||
  die "haproxy is published on more than 127.0.0.1: $ports"
log "published: haproxy $ports(nothing else)"

# haproxy_up: the servers of HAProxy's backend "nodes" that are UP, from its status page's CSV.
haproxy_up() {
  python3 - "http://127.0.0.1:$sport/;csv" <<'PY'
import csv, io, sys, urllib.request
try:
    text = urllib.request.urlopen(sys.argv[1], timeout=3).read().decode().lstrip("# ")
except Exception:
    text = ""
rows = csv.DictReader(io.StringIO(text))
print(" ".join(r["svname"] for r in rows
               if r["pxname"] == "nodes" and r["svname"] not in ("FRONTEND", "BACKEND")
               and r["status"].startswith("UP")))
PY
}
# Ready: HAProxy answers /healthz from a node, the nodes see all three alive (a node started
# before PostgreSQL or Redis answered exits, and its restart policy starts it again), and HAProxy
# has all three up.
while :; do
  out=$(http_get "http://127.0.0.1:$pport/healthz")
  up=$(haproxy_up)
  case "$out" in
    "200 "*'"status":"ok"'*'"nodes":3'*) [ "$up" = "a b c" ] && break ;;
  esac
  [ $((SECONDS - t0)) -lt 120 ] || die "the cluster was not ready within 120s (/healthz: $out; HAProxy has up: ${up:-none})"
  if [ $((SECONDS - t0)) -ge $((${next_note:=30})) ]; then
    log "waiting for the cluster: /healthz: $out; HAProxy has up: ${up:-none}"
    next_note=$((next_note + 15))
  fi
  sleep 0.5
done
restarts=""
for s in node-a node-b node-c; do
  restarts+="$s $(pm 30 inspect -f '{{.RestartCount}}' "$(ctr "$s")"), "
done
log "/healthz through HAProxy: ${out#200 }"
log "ready in $((SECONDS - t0))s: HAProxy has nodes a, b, c up; restarts while waiting for PostgreSQL/Redis: ${restarts%, }"

# The services: healthy, and not root.
for s in postgres redis haproxy; do
  pm 60 healthcheck run "$(ctr "$s")" >/dev/null || die "the $s container's health check fails"
  uid=$(pm 30 exec "$(ctr "$s")" awk '/^Uid:/{print $2}' /proc/1/status)
  [ "$uid" != 0 ] || die "$s runs as root"
done
restart=$(pm 30 inspect -f '{{.HostConfig.RestartPolicy.Name}}' "$(ctr node-a)")
[ "$restart" = unless-stopped ] || die "the nodes' restart policy is '$restart', not unless-stopped"
mounts=$(pm 30 inspect -f '{{range .Mounts}}{{.Type}}:{{.Name}}:{{.Destination}} {{end}}' "$(ctr postgres)")
case "$mounts" in *"volume:${project}_pgdata:/var/lib/postgresql/data"*) ;; *) die "PostgreSQL's data is not in the named volume: $mounts" ;; esac
others=$(for c in $(pm 30 ps -a -q --filter "label=io.podman.compose.project=$project"); do
  pm 30 inspect -f '{{range .Mounts}}{{if eq .Type "volume"}}{{.Name}} {{end}}{{end}}' "$c"; done |
  tr ' ' '\n' | grep . | grep -vx "${project}_pgdata" || true)
[ -z "$others" ] || die "the cluster has volumes besides ${project}_pgdata: $others"
log "services healthy, not root; PostgreSQL in volume ${project}_pgdata, no other volume"
up_s=$((SECONDS - t0))

# ---- play, kill the room's owner, play on --------------------------------------------------------
t0=$SECONDS
timeout 150 python3 "$here/cluster_play.py" 127.0.0.1 "$pport" --timeout 120 \
  --stats "http://127.0.0.1:$sport/" \
  --owner "podman exec $(ctr redis) redis-cli GET bc:owner:{room}" \
  --kill "podman kill ${project}_node-{node}_1" | tee "$work/cluster-play.out" ||
  die "the game through HAProxy with the owner killed failed"
play_s=$((SECONDS - t0))
failover=$(sed -n 's/.*failover as the clients saw it: \([0-9.]*\) s.*/\1/p' "$work/cluster-play.out")

# ---- down --------------------------------------------------------------------------------------
t0=$SECONDS
ts=$(date +%s.%N)
pm 60 stop -t 10 "$(ctr haproxy)" >/dev/null
hstop=$(python3 -c "import time; print(round(time.time() - $ts, 2))")
code=$(pm 30 inspect -f '{{.State.ExitCode}}' "$(ctr haproxy)")
[ "$code" = 0 ] || die "HAProxy exited with $code on SIGTERM"
log "HAProxy stopped on SIGTERM in ${hstop}s, exit 0; podman-compose down -v"
compose_down cluster "${ccompose[@]}" -- "${project}_pgdata"
down_s=$((SECONDS - t0))
cluster_s=$((SECONDS - t_cluster))
log "cluster: services image ${services_s}s, up ${up_s}s, play ${play_s}s (failover ${failover}s as the clients saw it), down ${down_s}s: ${cluster_s}s"
