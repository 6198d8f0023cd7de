#!/usr/bin/env bash
# Makes a container engine usable on a Debian machine with no image registry, idempotently:
# podman (runc, since crun fails on hybrid cgroups here), a Docker-API socket for
# testcontainers and `docker compose`, and the base image the Dockerfile's FROM names,
# built from a debootstrap rootfs plus this machine's node, npm, Node headers and CA
# bundle (no registry is reachable to pull it). Each step is skipped when already done.
#
#   bash scripts/setup-podman.sh        prints `export DOCKER_HOST=…` lines on its last lines
# Exit status 0: engine ready. 2: no engine can be set up here (not root, no apt-get).
set -euo pipefail

BASE_IMAGE="${BASE_IMAGE:-docker.io/library/node:20-bookworm-slim}"
SOCK="${PODMAN_SOCK:-/run/podman/podman.sock}"
CACHE="${LENDCHECK_CACHE:-$HOME/.cache/lendcheck}"
log() { echo "setup-podman: $*" >&2; }
mkdir -p "$CACHE"

if ! command -v podman >/dev/null || ! command -v runc >/dev/null || ! command -v debootstrap >/dev/null || ! command -v docker-compose >/dev/null; then
  if [ "$(id -u)" != "0" ] || ! command -v apt-get >/dev/null; then
    log "podman is missing and cannot be installed here (needs root and apt-get)"; exit 2
  fi
  log "installing podman, runc, debootstrap, docker-compose (apt)"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq podman runc debootstrap uidmap docker-compose >/dev/null
fi

# runc instead of crun; rlimits the kernel lets a container keep (raising them is refused).
conf=/etc/containers/containers.conf
if ! grep -q '^runtime *= *"runc"' "$conf" 2>/dev/null; then
  log "writing $conf"
  mkdir -p /etc/containers
  cat >"$conf" <<'CONF'
[containers]
default_ulimits = ["nofile=1024:1024", "nproc=1000:1000"]

[engine]
runtime = "runc"
CONF
fi

if ! podman image exists "$BASE_IMAGE"; then
  rootfs="$CACHE/bookworm-rootfs"
  if [ ! -x "$rootfs/bin/sh" ] || [ ! -f "$rootfs/.complete" ]; then
    log "debootstrap bookworm (minbase) into $rootfs"
    rm -rf "$rootfs"; mkdir -p "$rootfs"
    debootstrap --variant=minbase bookworm "$rootfs" http://deb.debian.org/debian >/dev/null
    touch "$rootfs/.complete"
  fi
  log "adding this machine's node $(node --version), npm, headers and CA bundle"
  node_bin="$(readlink -f "$(command -v node)")"
  npm_dir="$(dirname "$(readlink -f "$(command -v npm)")")/.."
  npm_dir="$(readlink -f "$npm_dir")"
  install -D -m 0755 "$node_bin" "$rootfs/usr/local/bin/node"
  rm -rf "$rootfs/usr/local/lib/node_modules/npm"
  mkdir -p "$rootfs/usr/local/lib/node_modules"
  cp -a "$npm_dir" "$rootfs/usr/local/lib/node_modules/npm"
  ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
  ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"
  rm -rf "$rootfs/usr/local/include/node"; mkdir -p "$rootfs/usr/local/include"
  cp -a /usr/include/node "$rootfs/usr/local/include/node"
  install -D -m 0644 /etc/ssl/certs/ca-certificates.crt "$rootfs/etc/ssl/certs/ca-certificates.crt"
  # The official image has a `node` user (uid 1000); the Dockerfile runs as it.
  if ! grep -q '^node:' "$rootfs/etc/passwd"; then
    echo 'node:x:1000:1000::/home/node:/bin/sh' >>"$rootfs/etc/passwd"
    echo 'node:x:1000:' >>"$rootfs/etc/group"
    mkdir -p "$rootfs/home/node" && chown 1000:1000 "$rootfs/home/node"
  fi
  log "podman import as $BASE_IMAGE"
  tar -C "$rootfs" -c . | podman import \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'ENV npm_config_nodedir=/usr/local' \
    --change 'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt' \
    --change 'CMD ["node"]' - "$BASE_IMAGE" >/dev/null
fi

# The Docker API for testcontainers and `docker compose`. The service outlives the run, and
# conmon starts each container from the service's working directory: a service started in a
# clone that was deleted since answers /_ping but cannot start a container ("write child:
# broken pipe"), so such a service is replaced, and a new one starts from /.
for pid in $(pgrep -f "podman system service.*unix://$SOCK" || true); do
  if [[ "$(readlink "/proc/$pid/cwd" 2>/dev/null)" == *" (deleted)" ]]; then
    log "the podman service (pid $pid) runs in a deleted directory; replacing it"
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    rm -f "$SOCK"
  fi
done
if ! curl -fsS --unix-socket "$SOCK" http://d/_ping >/dev/null 2>&1; then
  log "starting podman system service on $SOCK"
  mkdir -p "$(dirname "$SOCK")"
  # exec, so no shell is left holding the caller's stdout: a caller that reads this script's
  # output through $(…) waits for every writer of that pipe to close.
  (cd / && exec nohup podman system service --time=0 "unix://$SOCK" </dev/null >"$CACHE/podman-service.log" 2>&1) &
  for _ in $(seq 1 50); do curl -fsS --unix-socket "$SOCK" http://d/_ping >/dev/null 2>&1 && break; sleep 0.2; done
  curl -fsS --unix-socket "$SOCK" http://d/_ping >/dev/null || { log "the podman service did not answer /_ping"; exit 1; }
fi
log "ready: $(podman --version), base image $BASE_IMAGE"
echo "export DOCKER_HOST=unix://$SOCK"
echo "export TESTCONTAINERS_RYUK_DISABLED=true"
# testcontainers takes a machine with /.dockerenv for a container and would reach the mapped
# ports through the bridge gateway; the ports are published on the host, so use loopback.
echo "export TESTCONTAINERS_HOST_OVERRIDE=127.0.0.1"
