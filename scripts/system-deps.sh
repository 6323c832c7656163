#!/usr/bin/env bash
# Debian packages the test suite needs beyond Python: systemd-analyze (unit checks),
# socat (pairs of real ptys) and Node.js with npm (MicroPython's WebAssembly port). Idempotent and quiet when everything is there.
set -euo pipefail
need=()
command -v systemd-analyze >/dev/null 2>&1 || need+=(systemd)
command -v socat >/dev/null 2>&1 || need+=(socat)
command -v node >/dev/null 2>&1 || need+=(nodejs)
command -v npm >/dev/null 2>&1 || need+=(npm)
if ((${#need[@]})); then
  if [[ $EUID -ne 0 ]]; then
    echo "system-deps: please install ${need[*]} (sudo apt-get install ${need[*]})" >&2
    exit 1
  fi
  echo "system-deps: installing ${need[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi
