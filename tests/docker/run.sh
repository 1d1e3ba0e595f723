#!/usr/bin/env bash
# Container test: builds docker/Dockerfile with podman, runs the image with its port on 127.0.0.1
# only, waits for /healthz, plays one move over WebSocket (tests/docker/ws_play.py), stops it with
# SIGTERM (it must exit within 10 s), then brings docker/compose.yaml up and down the same way,
# then the three-node cluster of docker/compose.cluster.yaml behind HAProxy: a game through it
# with the room's owner killed mid-game (tests/docker/cluster.sh, tests/docker/cluster_play.py).
#
#   tests/docker/run.sh        exit 0: passed; 77: SKIPPED (no container engine can run here);
#                              anything else: failed
#
# The base image debian:bookworm-slim is made here, not pulled (no registry but Debian's is
# reachable): `debootstrap --variant=minbase bookworm` from this machine's own Debian mirror, kept
# as a tarball in $BC_CONTAINER_CACHE (default ~/.cache/bombcheckers) and imported once into
# podman's store as localhost/debian:bookworm-slim. The cluster's services image
# (docker/services.Dockerfile) is kept there too, tagged by a hash of its files. Everything else
# this script creates (containers, the test image, volumes, the compose network) is removed when
# it exits.
# Env: BC_CONTAINER_CACHE, BC_DEBIAN_MIRROR (overrides the mirror found in /etc/apt),
#      BC_KEEP_IMAGE=1 (keep the built test image, for debugging), JOBS (build parallelism, 2),
#      BC_TEST_IMAGE=localhost/NAME:TAG (use this image, e.g. one kept by BC_KEEP_IMAGE=1, instead
#      of building one; it is not removed), BC_CLUSTER_ONLY=1 (only the cluster part after the
#      build: no `podman run`, no docker/compose.yaml).
set -euo pipefail

prepare=0
for arg in "$@"; do
  case "$arg" in
    --prepare) prepare=1 ;;
    *) echo "run.sh: unknown option $arg" >&2; exit 2 ;;
  esac
done

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cd "$root"

t_start=$SECONDS
log() { printf '[container %s +%ss] %s\n' "$(date +%T)" "$((SECONDS - t_start))" "$*"; }
skip() { echo "SKIPPED: $*"; exit 77; }
die() { echo "container test: FAILED: $*" >&2; exit 1; }

cache="${BC_CONTAINER_CACHE:-${HOME:-/root}/.cache/bombcheckers}"
base_image="localhost/debian:bookworm-slim"
base_tar="$cache/debian-bookworm-minbase.tar"
run_id="bctest$$"
image="${BC_TEST_IMAGE:-localhost/bombcheckers-test:$run_id}"
cname="$run_id-serve"
project="$run_id"
work="$(mktemp -d "${TMPDIR:-/tmp}/bc-container.XXXXXX")"
trap 'rm -rf "$work"' EXIT   # replaced by the full cleanup below, once podman is there

# ---- the tools -------------------------------------------------------------------------------
need=(podman runc podman-compose debootstrap)
missing=0
for t in "${need[@]}"; do
  PATH="$PATH:/usr/sbin:/sbin" command -v "$t" >/dev/null || missing=1
done
if [ "$missing" = 1 ]; then
  if [ "$(id -u)" != 0 ] && ! command -v sudo >/dev/null; then
    skip "podman, runc, podman-compose or debootstrap is missing and this user cannot install them"
  fi
  log "installing the container tools (scripts/install-deps.sh --no-browser --container)"
  timeout 900 scripts/install-deps.sh --no-browser --container ||
    die "scripts/install-deps.sh --container could not install the container tools"
fi
export PATH="$PATH:/usr/sbin:/sbin"

# ---- podman's configuration ------------------------------------------------------------------
# runc (crun refuses this machine's cgroup v1 setup), cgroupfs (no systemd), file events, and
# ulimits pinned at or under this shell's hard limits (podman's defaults are above them here,
# and runc then fails with "error setting rlimit type 7: operation not permitted").
if [ -z "${CONTAINERS_CONF:-}" ]; then
  clamp() { if [ "$1" = unlimited ] || [ "$1" -gt "$2" ]; then echo "$2"; else echo "$1"; fi; }
  nofile=$(clamp "$(ulimit -Hn)" 65536)
  nproc=$(clamp "$(ulimit -Hu)" 4096)
  cat >"$work/containers.conf" <<EOF
[containers]
default_ulimits = ["nofile=$nofile:$nofile", "nproc=$nproc:$nproc"]

[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"

[network]
network_backend = "netavark"
EOF
  export CONTAINERS_CONF="$work/containers.conf"
fi
export BUILDAH_FORMAT=docker   # keep HEALTHCHECK and STOPSIGNAL (the OCI format drops HEALTHCHECK)

# podman with a time limit. Without systemd, podman 4.3 logs an error for the HEALTHCHECK timer it
# cannot make at every start and stop of a container; that line is dropped (the check itself is run
# by hand below), everything else on stderr is kept.
pm() {
  timeout --kill-after=10 "$1" podman "${@:2}" 2> >(grep -v 'unable to get systemd connection' >&2)
}

# Removes a debootstrap folder, never what may still be mounted in it (an interrupted debootstrap
# can leave /proc, /sys or a bind-mounted /dev there).
remove_rootfs() {
  [ -d "$1" ] || return 0
  awk -v r="$1/" 'index($2, r) == 1 {print $2}' /proc/mounts | sort -r | while read -r m; do
    umount -l "$m" 2>/dev/null || true
  done
  rm -rf --one-file-system "$1"
}

cleanup() {
  local rc=$?
  set +e
  if [ "$rc" != 0 ] && [ "$rc" != 77 ] && [ -n "${cname:-}" ] && pm 30 container exists "$cname" 2>/dev/null; then
    echo "--- container log (last 40 lines) ---" >&2
    pm 30 logs --tail 40 "$cname" >&2
  fi
  if [ "$rc" != 0 ] && [ "$rc" != 77 ]; then
    for c in $(pm 30 ps -a --format '{{.Names}}' --filter "label=io.podman.compose.project=$project" 2>/dev/null); do
      echo "--- $c: $(pm 30 inspect -f '{{.State.Status}} exit {{.State.ExitCode}}, {{.RestartCount}} restarts' "$c") (log, last 25 lines) ---" >&2
      pm 30 logs --tail 25 "$c" >&2
    done
  fi
  pm 60 rm -f -v -t 0 "$cname" >/dev/null 2>&1
  for c in $(pm 30 ps -a -q --filter "label=io.podman.compose.project=$project" 2>/dev/null); do
    pm 60 rm -f -v -t 0 "$c" >/dev/null 2>&1
  done
  for v in $(pm 30 volume ls -q --filter "label=io.podman.compose.project=$project" 2>/dev/null); do
    pm 60 volume rm -f "$v" >/dev/null 2>&1
  done
  pm 30 network exists "${project}_default" 2>/dev/null && pm 60 network rm -f "${project}_default" >/dev/null 2>&1
  if [ "${BC_KEEP_IMAGE:-0}" != 1 ] && [ -z "${BC_TEST_IMAGE:-}" ]; then
    pm 120 rmi -f "$image" >/dev/null 2>&1
    # Build-stage images of this run (labelled at build time), if the engine kept any.
    for i in $(pm 30 images -a -q --filter "label=bombcheckers.test-run=$run_id" 2>/dev/null); do
      pm 120 rmi -f "$i" >/dev/null 2>&1
    done
  fi
  remove_rootfs "$cache/rootfs.$$"
  rm -rf "$work" "$base_tar.tmp"
  log "cleaned up (exit $rc)"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---- can an engine run here at all? ----------------------------------------------------------
if ! pm 120 info >"$work/info.out" 2>"$work/info.err"; then
  skip "podman info fails here: $(grep -v '^$' "$work/info.err" | tail -n 1)"
fi
log "podman $(podman --version | awk '{print $3}'), runtime $(grep -A1 'ociRuntime:' "$work/info.out" | awk '/name:/{print $2}')"

# ---- the base image --------------------------------------------------------------------------
# Prints "MIRROR SUITES..." for Debian bookworm from this machine's apt sources (deb822 .sources
# first, then one-line sources.list), and a second line for bookworm-security if there is one.
find_mirror() {
  python3 - <<'PY'
import glob, re
stanzas = []
for path in sorted(glob.glob("/etc/apt/sources.list.d/*.sources")):
    try:
        text = open(path).read()
    except OSError:
        continue
    for block in re.split(r"\n\s*\n", text):
        f = {}
        for line in block.splitlines():
            if line.startswith("#") or ":" not in line or line[:1].isspace():
                continue
            k, v = line.split(":", 1)
            f[k.strip().lower()] = v.strip()
        if f.get("enabled", "yes").lower() == "no" or "deb" not in f.get("types", "").split():
            continue
        for uri in f.get("uris", "").split():
            stanzas.append((uri, f.get("suites", "").split()))
for path in ["/etc/apt/sources.list"] + sorted(glob.glob("/etc/apt/sources.list.d/*.list")):
    try:
        lines = open(path).read().splitlines()
    except OSError:
        continue
    for line in lines:
        line = re.sub(r"\[[^]]*\]", "", line.split("#", 1)[0]).split()
        if len(line) >= 3 and line[0] == "deb":
            stanzas.append((line[1], [line[2]]))
main = sec = None
for uri, suites in stanzas:
    if not uri.startswith(("http://", "https://")):
        continue
    if main is None and "bookworm" in suites:
        main = (uri, [s for s in suites if s in ("bookworm", "bookworm-updates")])
    if sec is None and "bookworm-security" in suites:
        sec = (uri, ["bookworm-security"])
print(" ".join([main[0]] + main[1]) if main else "")
print(" ".join([sec[0]] + sec[1]) if sec else "")
PY
}

make_base_tar() {
  local mirror_line sec_line mirror suites rootfs
  mapfile -t lines < <(find_mirror)
  mirror_line="${lines[0]:-}"
  sec_line="${lines[1]:-}"
  mirror="${BC_DEBIAN_MIRROR:-${mirror_line%% *}}"
  [ -n "$mirror" ] || mirror="http://deb.debian.org/debian"
  suites="bookworm"
  [ -n "$mirror_line" ] && [ "${mirror_line#* }" != "$mirror_line" ] && suites="${mirror_line#* }"
  rootfs="$cache/rootfs.$$"
  mkdir -p "$cache"
  remove_rootfs "$rootfs"
  log "debootstrap --variant=minbase bookworm from $mirror (about a minute)"
  if ! timeout 1200 debootstrap --variant=minbase bookworm "$rootfs" "$mirror" >"$work/debootstrap.log" 2>&1; then
    tail -n 20 "$work/debootstrap.log" >&2
    remove_rootfs "$rootfs"
    die "debootstrap failed"
  fi
  # Make it look like debian:bookworm-slim: deb822 sources with updates and security, no docs,
  # man pages or apt lists.
  rm -f "$rootfs/etc/apt/sources.list"
  {
    printf 'Types: deb\nURIs: %s\nSuites: %s\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
      "$mirror" "$suites"
    if [ -n "$sec_line" ]; then
      printf '\nTypes: deb\nURIs: %s\nSuites: bookworm-security\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
        "${sec_line%% *}"
    fi
  } >"$rootfs/etc/apt/sources.list.d/debian.sources"
  cat >"$rootfs/etc/dpkg/dpkg.cfg.d/slim" <<'EOF'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/info/*
path-exclude /usr/share/locale/*
EOF
  printf 'APT::Install-Recommends "false";\n' >"$rootfs/etc/apt/apt.conf.d/90slim"
  find "$rootfs/usr/share/doc" -xdev -mindepth 2 ! -name copyright ! -type d -delete 2>/dev/null || true
  rm -rf --one-file-system "$rootfs"/usr/share/man/* "$rootfs"/usr/share/info/* "$rootfs"/usr/share/locale/* \
    "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/*.bin "$rootfs"/var/cache/apt/archives/*.deb \
    "$rootfs"/var/log/*.log "$rootfs"/var/log/apt/* "$rootfs"/tmp/* "$rootfs"/debootstrap
  tar --numeric-owner -C "$rootfs" -cf "$base_tar.tmp" .
  mv "$base_tar.tmp" "$base_tar"
  remove_rootfs "$rootfs"
}

t0=$SECONDS
if pm 60 image exists "$base_image"; then
  log "base image $base_image: cached in podman's store"
else
  if [ ! -s "$base_tar" ]; then
    make_base_tar
  else
    log "base tarball cached: $base_tar"
  fi
  log "importing $base_tar as $base_image"
  pm 600 import --change 'CMD ["bash"]' "$base_tar" "$base_image" >"$work/import.log" 2>&1 || {
    cat "$work/import.log" >&2; die "podman import failed"; }
fi
base_s=$((SECONDS - t0))

# A container that starts at all (the runtime, cgroups and ulimits can refuse even when info works).
if ! pm 120 run --rm --network none "$base_image" true 2>"$work/run.err"; then
  skip "podman cannot start a container here: $(grep -v '^$' "$work/run.err" | tail -n 1)"
fi

# ---- the services image of the cluster part -----------------------------------------------------
# make_services_image: sets services_image, built unless podman's store has it (kept there, tagged
# by a hash of its files).
make_services_image() {
  local t0=$SECONDS size
  services_hash=$(cat docker/services.Dockerfile docker/services-entrypoint.sh docker/haproxy.cfg |
    sha256sum | cut -c1-12)
  services_image="localhost/bombcheckers-services:$services_hash"
  if pm 60 image exists "$services_image"; then
    log "services image $services_image: cached in podman's store"
  else
    log "building docker/services.Dockerfile (PostgreSQL, Redis, HAProxy from Debian's packages)"
    if ! pm 900 build --format docker --pull=never --layers=false --force-rm \
        --build-arg BASE_IMAGE="$base_image" -f docker/services.Dockerfile -t "$services_image" \
        docker >"$work/services-build.log" 2>&1; then
      echo "--- podman build services (last 40 lines) ---" >&2
      tail -n 40 "$work/services-build.log" >&2
      die "the services image did not build"
    fi
    # One services image is kept: the ones of earlier versions of these files go.
    for old in $(pm 30 images --format '{{.Repository}}:{{.Tag}}' localhost/bombcheckers-services); do
      [ "$old" = "$services_image" ] || pm 120 rmi -f "$old" >/dev/null 2>&1 || true
    done
    size=$(pm 60 image inspect -f '{{.Size}}' "$services_image")
    log "built $services_image in $((SECONDS - t0))s ($((size / 1024 / 1024)) MB)"
  fi
}

# ---- --prepare ------------------------------------------------------------------------------
# What the image's build needs before any source: the toolchain and runtime stages of
# docker/Dockerfile (kept as tagged layers, which the build below then reuses: apt-get is most of
# their time) and the services image; scripts/test.sh runs this while it compiles.
if [ "$prepare" = 1 ]; then
  for stage in toolchain runtime; do
    t0=$SECONDS
    if ! pm 1800 build --format docker --pull=never --layers=true --target "$stage" \
        --build-arg BASE_IMAGE="$base_image" -f docker/Dockerfile -t "localhost/bombcheckers-$stage:cache" \
        . >"$work/prepare-$stage.log" 2>&1; then
      echo "--- podman build --target $stage (last 40 lines) ---" >&2
      tail -n 40 "$work/prepare-$stage.log" >&2
      die "the $stage stage did not build"
    fi
    log "stage $stage of docker/Dockerfile ready in $((SECONDS - t0))s (localhost/bombcheckers-$stage:cache)"
  done
  make_services_image
  log "prepared in $((SECONDS - t_start))s"
  exit 0
fi

# ---- build -----------------------------------------------------------------------------------
t0=$SECONDS
if [ -n "${BC_TEST_IMAGE:-}" ]; then
  pm 60 image exists "$image" || die "BC_TEST_IMAGE=$image is not in podman's store"
  log "BC_TEST_IMAGE: using $image, not building docker/Dockerfile"
else
  # The host's compiler cache, when there is one: the image's release build then reuses what
  # scripts/test.sh's release build compiled (same compiler, flags and relative paths).
  cache_mount=()
  if [ -n "${CCACHE_DIR:-}" ] && [ -d "$CCACHE_DIR" ]; then
    cache_mount=(--volume "$CCACHE_DIR:/ccache:rw")
    log "building docker/Dockerfile (the Release binary; the compiler cache $CCACHE_DIR mounted)"
  else
    log "building docker/Dockerfile (the Release binary; no compiler cache: a few minutes)"
  fi
  # --layers: the toolchain and runtime stages come from podman's store when --prepare (or an
  # earlier run) made them; this run's own layers carry its label and go with it (cleanup).
  if ! pm 3600 build --format docker --pull=never --layers=true --force-rm "${cache_mount[@]}" \
      --build-arg BASE_IMAGE="$base_image" --build-arg JOBS="${JOBS:-2}" \
      --label "bombcheckers.test-run=$run_id" \
      -f docker/Dockerfile -t "$image" . >"$work/build.log" 2>&1; then
    echo "--- podman build (last 60 lines) ---" >&2
    tail -n 60 "$work/build.log" >&2
    die "the image did not build"
  fi
  size=$(pm 60 image inspect -f '{{.Size}}' "$image")
  log "built $image in $((SECONDS - t0))s ($((size / 1024 / 1024)) MB)"
fi
build_s=$((SECONDS - t0))

# The image's configuration.
cfg=$(pm 60 image inspect -f 'user={{.Config.User}} stop={{.Config.StopSignal}} health={{if .Config.Healthcheck}}{{index .Config.Healthcheck.Test 0}}{{end}} ports={{range $p, $_ := .Config.ExposedPorts}}{{$p}} {{end}}vols={{range $v, $_ := .Config.Volumes}}{{$v}} {{end}}' "$image")
log "image config: $cfg"
case "$cfg" in *"user=10001:10001 "*) ;; *) die "the image does not run as user 10001: $cfg" ;; esac
case "$cfg" in *"stop=SIGTERM "*|*"stop=15 "*) ;; *) die "STOPSIGNAL is not SIGTERM: $cfg" ;; esac
case "$cfg" in *"health=CMD"*) ;; *) die "the image has no HEALTHCHECK: $cfg" ;; esac
case "$cfg" in *"8080/tcp"*) ;; *) die "the image does not expose 8080: $cfg" ;; esac
case "$cfg" in *"vols=/data "*) ;; *) die "/data is not a volume: $cfg" ;; esac

# ---- helpers for a running server ------------------------------------------------------------
free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}
# http_get URL: prints "STATUS BODY" (BODY cut to 200 characters); STATUS 0 when nothing answers.
http_get() {
  python3 - "$1" <<'PY'
import sys, urllib.request, urllib.error
try:
    with urllib.request.urlopen(sys.argv[1], timeout=3) as r:
        print(r.status, r.read(200).decode("utf-8", "replace").replace("\n", " "))
except urllib.error.HTTPError as e:
    print(e.code, "")
except Exception as e:
    print(0, type(e).__name__)
PY
}
# wait_healthy PORT CONTAINER SECONDS
wait_healthy() {
  local port=$1 c=$2 limit=$3 t0=$SECONDS out
  while :; do
    out=$(http_get "http://127.0.0.1:$port/healthz")
    case "$out" in "200 "*'"status":"ok"'*) log "/healthz: ${out#200 }"; return 0 ;; esac
    if [ "$(pm 30 inspect -f '{{.State.Running}}' "$c" 2>/dev/null)" != true ]; then
      pm 30 logs --tail 40 "$c" >&2 || true
      die "container $c stopped before /healthz answered"
    fi
    [ $((SECONDS - t0)) -lt "$limit" ] || die "/healthz did not answer 200 within ${limit}s (last: $out)"
    sleep 0.5
  done
}
check_loopback_only() {  # check_loopback_only CONTAINER PORT
  local ports
  ports=$(pm 30 port "$1")
  log "published: $(echo "$ports" | tr '\n' ' ')"
  [ "$ports" = "8080/tcp -> 127.0.0.1:$2" ] || die "container $1 is published on more than 127.0.0.1:$2: $ports"
}
# compose_down NAME COMPOSE_COMMAND... -- VOLUME: `down -v`, then nothing of the project may be
# left (no container, not VOLUME); its log in $work/NAME-down.log.
compose_down() {
  local name=$1; shift
  local cmd=()
  while [ "$1" != -- ]; do cmd+=("$1"); shift; done
  local volume=$2
  "${cmd[@]}" down -v >"$work/$name-down.log" 2>&1 || {
    cat "$work/$name-down.log" >&2; die "podman-compose down ($name) failed"; }
  [ -z "$(pm 30 ps -a -q --filter "label=io.podman.compose.project=$project")" ] || die "compose down ($name) left a container"
  if pm 30 volume exists "$volume"; then die "compose down -v ($name) left the volume $volume"; fi
  pm 60 network rm -f "${project}_default" >/dev/null 2>&1 || true   # podman-compose 1.0 leaves it
}

if [ "${BC_CLUSTER_ONLY:-0}" = 1 ]; then
  log "BC_CLUSTER_ONLY: no podman run, no docker/compose.yaml"
  run_s=0 compose_s=0
else
  # ---- docker run ------------------------------------------------------------------------------
  port=$(free_port)
  t0=$SECONDS
  log "podman run -p 127.0.0.1:$port:8080 $image"
  pm 120 run -d --name "$cname" -p "127.0.0.1:$port:8080" "$image" >/dev/null
  check_loopback_only "$cname" "$port"
  wait_healthy "$port" "$cname" 60
  [ "$(pm 30 exec "$cname" id -u)" = 10001 ] || die "the server does not run as uid 10001"
  pm 30 exec "$cname" sh -c 'touch /data/.bc-write-test && rm /data/.bc-write-test' ||
    die "uid 10001 cannot write to the /data volume"
  index=$(http_get "http://127.0.0.1:$port/")
  case "$index" in "200 "*"<"*) ;; *) die "GET / did not serve the web client: $index" ;; esac
  pm 60 healthcheck run "$cname" >/dev/null || die "the image's HEALTHCHECK says unhealthy"
  log "HEALTHCHECK: healthy"
  timeout 90 python3 "$here/ws_play.py" 127.0.0.1 "$port" 60 || die "the WebSocket game through the container failed"

  log "podman stop (STOPSIGNAL SIGTERM, 10 s before SIGKILL)"
  ts=$(date +%s.%N)
  pm 60 stop -t 10 "$cname" >/dev/null
  stop_s=$(python3 -c "import time; print(round(time.time() - $ts, 2))")
  code=$(pm 30 inspect -f '{{.State.ExitCode}}' "$cname")
  log "stopped in ${stop_s}s, exit code $code"
  pm 30 logs --tail 3 "$cname" 2>&1 | sed 's/^/  server: /'
  python3 -c "import sys; sys.exit(0 if $stop_s < 10 else 1)" || die "the server took ${stop_s}s to stop on SIGTERM"
  [ "$code" = 0 ] || [ "$code" = 143 ] || die "the server exited with $code after SIGTERM"
  pm 60 rm -v "$cname" >/dev/null
  run_s=$((SECONDS - t0))

# ---- compose ---------------------------------------------------------------------------------
  t0=$SECONDS
  cport=$(free_port)
  compose=(timeout --kill-after=10 300 podman-compose -p "$project" -f docker/compose.yaml)
  export BOMBCHECKERS_IMAGE="$image" BOMBCHECKERS_PUBLISH="127.0.0.1:$cport"
  log "podman-compose up -d (project $project, BOMBCHECKERS_PUBLISH=127.0.0.1:$cport)"
  "${compose[@]}" up -d --no-build >"$work/compose-up.log" 2>&1 || {
    cat "$work/compose-up.log" >&2; die "podman-compose up failed"; }
  ccont=$(pm 30 ps -a -q --filter "label=io.podman.compose.project=$project")
  [ "$(echo "$ccont" | grep -c .)" = 1 ] || die "compose made $(echo "$ccont" | grep -c .) containers, not 1"
  check_loopback_only "$ccont" "$cport"
  restart=$(pm 30 inspect -f '{{.HostConfig.RestartPolicy.Name}}' "$ccont")
  [ "$restart" = unless-stopped ] || die "compose restart policy is '$restart', not unless-stopped"
  mounts=$(pm 30 inspect -f '{{range .Mounts}}{{.Type}}:{{.Name}}:{{.Destination}} {{end}}' "$ccont")
  case "$mounts" in *"volume:${project}_data:/data"*) ;; *) die "compose did not mount the named volume on /data: $mounts" ;; esac
  log "restart policy $restart; mounts $mounts"
  pm 30 exec "$ccont" sh -c 'touch /data/.bc-write-test && rm /data/.bc-write-test' ||
    die "uid 10001 cannot write to the named volume on /data"
  wait_healthy "$cport" "$ccont" 60
  timeout 90 python3 "$here/ws_play.py" 127.0.0.1 "$cport" 60 || die "the WebSocket game through compose failed"
  log "podman-compose down -v"
  compose_down compose "${compose[@]}" -- "${project}_data"
  compose_s=$((SECONDS - t0))
fi

# ---- the cluster (tests/docker/cluster.sh) ----------------------------------------------------
# shellcheck source=tests/docker/cluster.sh
. "$here/cluster.sh"

log "passed: base ${base_s}s, build ${build_s}s, run ${run_s}s, compose ${compose_s}s, cluster ${cluster_s}s, total $((SECONDS - t_start))s"
