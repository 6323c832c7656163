#!/usr/bin/env bash
# MicroPython's WebAssembly port, from the npm registry: the real MicroPython in which
# the firmware tests and `make bench` run the Pico's shared modules (under Node.js).
# Installed into .venv/micropython (or $1); idempotent and quiet when it is there.
set -euo pipefail
PKG=@micropython/micropython-webassembly-pyscript
VERSION=1.27.0
dir="${1:-.venv/micropython}"
have="$dir/node_modules/$PKG/package.json"
if [[ -f "$have" ]] && grep -q "\"version\": \"$VERSION\"" "$have"; then
  exit 0
fi
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "micropython: Node.js and npm are needed (sudo apt-get install nodejs npm)" >&2
  exit 1
fi
echo "micropython: installing $PKG@$VERSION into $dir"
mkdir -p "$dir"
npm install --silent --no-audit --no-fund --no-save --prefix "$dir" "$PKG@$VERSION"
