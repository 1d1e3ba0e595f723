# The other services of docker/compose.cluster.yaml in one image, from Debian 12's own packages on
# the same base as docker/Dockerfile (no image from Docker Hub): PostgreSQL 15, Redis 7.0 and
# HAProxy 2.6. Build context: this folder (docker/).
#   podman build --format docker -f docker/services.Dockerfile -t bombcheckers-services docker
#   docker build -f docker/services.Dockerfile -t bombcheckers-services docker
# The command picks the service (docker/services-entrypoint.sh, installed as bc-services):
#   postgres   first start: initdb into $PGDATA (the volume), role and database "bc" with the
#              password $POSTGRES_PASSWORD (scram-sha-256 from other hosts); then postgres in the
#              foreground, listening on every address of the container (stop it with SIGINT)
#   redis      redis-server on every address, no protected mode, nothing saved
#   haproxy    haproxy -W -db -f /etc/haproxy/bombcheckers.cfg (docker/haproxy.cfg, baked in; the
#              addresses come from BC_LISTEN, BC_NODE_A/B/C, BC_STATS)
#   health     the HEALTHCHECK: whichever of the three runs as PID 1 answers
# Each runs as its Debian package's own user (postgres, redis, haproxy), not as root.
# (No "# syntax=" line and no RUN heredocs: podman 4.3 / buildah 1.28 must build this file.)

ARG BASE_IMAGE=debian:bookworm-slim
FROM ${BASE_IMAGE}
ENV DEBIAN_FRONTEND=noninteractive
# No "main" cluster made by the package (initdb runs at the first start, into the volume), and no
# service started by the packages' scripts during the build.
RUN mkdir -p /etc/postgresql-common/createcluster.d \
 && echo 'create_main_cluster = false' >/etc/postgresql-common/createcluster.d/bombcheckers.conf \
 && printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d && chmod 755 /usr/sbin/policy-rc.d \
 && apt-get update \
 && apt-get install -y --no-install-recommends postgresql-15 redis-server haproxy \
 && rm -f /usr/sbin/policy-rc.d \
 && rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin /var/cache/apt/archives/*.deb \
 && mkdir -p /var/lib/postgresql/data /run/postgresql \
 && chown postgres:postgres /var/lib/postgresql/data /run/postgresql \
 && chmod 700 /var/lib/postgresql/data \
 && chmod 2775 /run/postgresql
COPY haproxy.cfg /etc/haproxy/bombcheckers.cfg
COPY services-entrypoint.sh /usr/local/bin/bc-services
RUN chmod 755 /usr/local/bin/bc-services \
 && haproxy -v | head -n 1 && redis-server --version \
 && /usr/lib/postgresql/15/bin/postgres --version
ENV PATH=/usr/lib/postgresql/15/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    PGDATA=/var/lib/postgresql/data
# 5432 PostgreSQL, 6379 Redis, 8080 HAProxy's frontend, 8404 its stats page.
EXPOSE 5432 6379 8080 8404
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 CMD ["bc-services", "health"]
ENTRYPOINT ["bc-services"]
CMD ["help"]
