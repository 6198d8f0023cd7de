#!/usr/bin/env bash
# Builds lendcheck-k6:local (docker-compose.yml's k6 image) from the pinned k6 on this machine.
#   ENGINE=podman|docker (default: podman when present)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
engine="${ENGINE:-$(command -v podman >/dev/null && echo podman || echo docker)}"
k6="$(node "$here/../ensure-k6.mjs" --print-path)"
ctx="$(mktemp -d)"
trap 'rm -rf "$ctx"' EXIT
cp "$here/Dockerfile" "$ctx/Dockerfile"
cp "$k6" "$ctx/k6"
"$engine" build -q -t lendcheck-k6:local "$ctx" >/dev/null
echo "lendcheck-k6:local ($("$engine" run --rm lendcheck-k6:local version | head -1))"
