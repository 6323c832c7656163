#!/usr/bin/env bash
# `make system-test`: the host's packages, the guest image (built once, then cached
# outside the clone), then the system tests against it. Exit status: pytest's.
#
#   tests/system/run.sh [PYTEST ARGS...]     e.g. -k install, or -x
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
PYTHON="${PYTHON:-$REPO/.venv/bin/python}"
bash "$HERE/host-deps.sh"
t0=$EPOCHREALTIME
TAVOLA_SYSTEM_IMAGE="$(bash "$HERE/build-image.sh" | tail -1)"
export TAVOLA_SYSTEM_IMAGE
printf 'system-test: image %s (ready in %.0f s)\n' "$TAVOLA_SYSTEM_IMAGE" \
  "$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { print b - a }')"
cd "$REPO"
exec "$PYTHON" -m pytest tests/system -p no:cacheprovider "$@"
