#!/bin/sh
# bc-services: the entrypoint of docker/services.Dockerfile (PostgreSQL, Redis and HAProxy for
# docker/compose.cluster.yaml).
#   bc-services postgres [POSTGRES OPTIONS]   bc-services redis [REDIS OPTIONS]
#   bc-services haproxy [HAPROXY OPTIONS]     bc-services health [postgres|redis|haproxy]
# Started as root, it hands the service to the package's own user (setpriv); started as that user
# (compose's `user:`), it runs it as is. Every service ends with exec: the daemon is PID 1 and gets
# the stop signal itself.
set -eu

die() { echo "bc-services: $*" >&2; exit 1; }

# as USER COMMAND...: exec COMMAND as USER (from root), or as this user.
as() {
  user=$1
  shift
  if [ "$(id -u)" = 0 ]; then
    exec setpriv --reuid="$user" --regid="$user" --init-groups -- "$@"
  fi
  exec "$@"
}

postgres_main() {
  export PGDATA="${PGDATA:-/var/lib/postgresql/data}"
  if [ "$(id -u)" = 0 ]; then
    # A fresh volume or a host directory: make it the postgres user's, then go on as that user.
    mkdir -p "$PGDATA" /run/postgresql
    chown postgres:postgres "$PGDATA" /run/postgresql
    chmod 700 "$PGDATA"
    as postgres "$0" postgres "$@"
  fi
  if [ ! -s "$PGDATA/PG_VERSION" ]; then
    [ -n "${POSTGRES_PASSWORD:-}" ] || die "set POSTGRES_PASSWORD (the password of the role bc) for the first start"
    case "$POSTGRES_PASSWORD" in *"
"*) die "POSTGRES_PASSWORD must be one line" ;; esac
    echo "bc-services: first start: initdb in $PGDATA, role and database bc" >&2
    # Local (socket) connections: peer (the postgres user, for `podman exec -u postgres psql`);
    # other hosts: scram-sha-256, and only to the database bc as the role bc (below).
    initdb --pgdata="$PGDATA" --username=postgres --encoding=UTF8 --locale=C.UTF-8 \
      --auth-local=peer --auth-host=scram-sha-256 >/dev/null
    printf '\n# bombcheckers: the nodes, from any address of the private network\nhost bc bc all scram-sha-256\n' \
      >>"$PGDATA/pg_hba.conf"
    # The role and the database in single-user mode: no server listens before they exist, so a
    # node that connects early is refused rather than let in half made.
    pw=$(printf '%s' "$POSTGRES_PASSWORD" | sed "s/'/''/g")
    out=$(printf "CREATE ROLE bc LOGIN PASSWORD '%s';\nCREATE DATABASE bc OWNER bc;\n" "$pw" |
      postgres --single -D "$PGDATA" -c log_statement=none postgres 2>&1) || die "postgres --single: $out"
    case "$out" in *ERROR*|*FATAL*) die "creating the role and database bc: $out" ;; esac
  fi
  exec postgres -D "$PGDATA" -c listen_addresses='*' "$@"
}

redis_main() {
  # Redis keeps nothing that matters to the cluster (docs/CLUSTER.md): no snapshot, no AOF.
  # Only the compose network reaches it (no port is published): no protected mode.
  as redis redis-server --bind 0.0.0.0 --protected-mode no --save '' --appendonly no \
    --dir /var/lib/redis "$@"
}

haproxy_main() {
  export BC_LISTEN="${BC_LISTEN:-:8080}" BC_STATS="${BC_STATS:-:8404}"
  export BC_NODE_A="${BC_NODE_A:-node-a:8080}" BC_NODE_B="${BC_NODE_B:-node-b:8080}"
  export BC_NODE_C="${BC_NODE_C:-node-c:8080}"
  as haproxy haproxy -W -db -f /etc/haproxy/bombcheckers.cfg "$@"
}

# GET PATH from 127.0.0.1:PORT; true when the status is 200 (bash's /dev/tcp: no curl here).
http_ok() {
  bash -c 'exec 3<>"/dev/tcp/127.0.0.1/$1" &&
    printf "GET %s HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n" "$2" >&3 &&
    read -r -t 4 _ code _ <&3 && [ "$code" = 200 ]' _ "$1" "$2"
}

health_main() {
  what="${1:-$(cat /proc/1/comm)}"
  case "$what" in
    postgres) pg_isready -q -h 127.0.0.1 -p 5432 -d bc -U bc ;;
    redis|redis-server) [ "$(redis-cli -h 127.0.0.1 -p 6379 ping)" = PONG ] ;;
    haproxy) stats="${BC_STATS:-:8404}"; http_ok "${stats##*:}" / ;;
    *) die "health: no postgres, redis-server or haproxy runs as PID 1 (it is $what)" ;;
  esac
}

cmd="${1:-help}"
[ $# -gt 0 ] && shift
case "$cmd" in
  postgres) postgres_main "$@" ;;
  redis) redis_main "$@" ;;
  haproxy) haproxy_main "$@" ;;
  health) health_main "$@" ;;
  *)
    sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'
    [ "$cmd" = help ] || exit 2
    ;;
esac
