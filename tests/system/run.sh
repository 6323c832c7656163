#!/usr/bin/env bash
# `make system-test`: the host's packages, the guest image (built once, then cached
# outside the clone), then the system tests against it. Exit status: pytest's.
#
#   tests/system/run.sh [PYTEST ARGS...]     e.g. -k install, or -x
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
PYTHON="${PYTHON:-$REPO/.venv/bin/python}"
# One emulated Pi at a time on a machine: a second run (another clone, another CI job)
# waits here for the first, instead of two guests sharing two cores and the image cache.
LOCK="${TAVOLA_SYSTEM_LOCK:-/tmp/tavola-system-test.lock}"
exec {lock_fd}>"$LOCK"
if ! flock -n "$lock_fd"; then
  echo "system-test: another run holds $LOCK; waiting for it"
  flock "$lock_fd"
fi
bash "$HERE/host-deps.sh"
t0=$EPOCHREALTIME
TAVOLA_SYSTEM_IMAGE="$(bash "$HERE/build-image.sh" | tail -1)"
TAVOLA_SYSTEM_IMAGE_S="$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.0f", b - a }')"
export TAVOLA_SYSTEM_IMAGE TAVOLA_SYSTEM_IMAGE_S
echo "system-test: image $TAVOLA_SYSTEM_IMAGE (ready in $TAVOLA_SYSTEM_IMAGE_S s)"
cd "$REPO"
exec "$PYTHON" -m pytest tests/system -p no:cacheprovider "$@"
