#!/usr/bin/env bash
# Debian packages the tests need beyond Python. With no arguments, what `make test` uses:
# systemd-analyze (unit checks), socat (pairs of real ptys), Node.js with npm
# (MicroPython's WebAssembly port), Chromium (the phone page's browser tests) and tmux
# (`tavola sim` played in a real terminal, tests/apps/test_sim_screen.py).
# Arguments name other COMMAND=PACKAGE pairs (tests/system/host-deps.sh); a COMMAND that
# is an absolute path is a file the package brings. Idempotent and
# quiet when every command is there; installs without recommended packages.
set -euo pipefail
(($#)) || set -- systemd-analyze=systemd socat=socat node=nodejs npm=npm chromium=chromium tmux=tmux
need=()
for pair in "$@"; do
  what="${pair%%=*}"
  if [[ $what == /* ]]; then  # a file the package brings (a ROM, a data file)
    [[ -e $what ]] || need+=("${pair#*=}")
  else
    command -v "$what" >/dev/null 2>&1 || need+=("${pair#*=}")
  fi
done
if ((${#need[@]})); then
  if [[ $EUID -ne 0 ]]; then
    echo "system-deps: please install ${need[*]} (sudo apt-get install ${need[*]})" >&2
    exit 1
  fi
  echo "system-deps: installing ${need[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" \
    >/dev/null
fi
