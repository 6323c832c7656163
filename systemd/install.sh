#!/usr/bin/env bash
# Install Tavola as a service on Raspberry Pi OS (Debian bookworm or newer). Idempotent:
# running it again upgrades the code and keeps the config and the game journal.
#
#   sudo systemd/install.sh              install or upgrade, enable and start
#   sudo systemd/install.sh --pwm        also the PWM LED backend: rpi-ws281x (compiled here,
#                                        with gcc and python3-dev) and its root drop-in
#   sudo systemd/install.sh --web        also the phone page: aiohttp, the drop-in that lets
#                                        the service listen on the LAN and write its config,
#                                        and the page announced over mDNS (avahi)
#   sudo systemd/install.sh --uninstall  stop and remove the service and the code;
#                                        keeps /var/lib/tavola (games) and /etc/tavola (config)
#
# For tests and image builds: TAVOLA_ROOT installs under another root, TAVOLA_SKIP lists
# steps to skip (apt, user, systemctl, udev), TAVOLA_PIP_ARGS adds pip options and
# TAVOLA_EXTRAS replaces the Pi extras ("pi": lgpio and spidev; ",pwm" with --pwm,
# ",web" with --web).
set -euo pipefail

ROOT="${TAVOLA_ROOT:-}"
SKIP=",${TAVOLA_SKIP:-},"
SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PREFIX="$ROOT/opt/tavola"
ETC="$ROOT/etc/tavola"
UNIT_DIR="$ROOT/etc/systemd/system"
RULES_DIR="$ROOT/etc/udev/rules.d"
AVAHI_DIR="$ROOT/etc/avahi/services"
STATE="$ROOT/var/lib/tavola"
PWM=0
WEB=0
ACTION=install

for arg in "$@"; do
  case "$arg" in
    --pwm) PWM=1 ;;
    --web) WEB=1 ;;
    --uninstall) ACTION=uninstall ;;
    -h|--help) awk 'NR == 1 {next} /^#/ {print; next} {exit}' "$0"; exit 0 ;;
    *) echo "install.sh: unknown option $arg (try --help)" >&2; exit 2 ;;
  esac
done

skip() { [[ "$SKIP" == *",$1,"* ]]; }
say() { echo "tavola install: $*"; }

if [[ -z "$ROOT" && $EUID -ne 0 ]]; then
  echo "install.sh: run as root (sudo $0 $*)" >&2
  exit 1
fi

if [[ $ACTION == uninstall ]]; then
  skip systemctl || { systemctl disable --now tavola.service 2>/dev/null || true; }
  rm -f "$UNIT_DIR/tavola.service"
  rm -rf "$UNIT_DIR/tavola.service.d"
  rm -f "$AVAHI_DIR/tavola.service"
  rm -f "$RULES_DIR/99-tavola.rules"
  rm -rf "$PREFIX"
  skip systemctl || systemctl daemon-reload
  skip udev || { udevadm control --reload-rules && udevadm trigger; } || true
  say "removed the service and /opt/tavola; kept $STATE (games) and $ETC (config)"
  exit 0
fi

if ! skip apt; then
  say "installing Debian packages"
  apt-get update -qq
  # spidev has no wheel for the Pi: the distribution's build saves compiling it. lgpio
  # is Raspberry Pi OS's python3-lgpio where the archive has it, else PyPI's wheel.
  # evdev (keyboard-mode card scanners) compiles too: the distribution's build as well.
  packages=(python3 python3-venv python3-spidev python3-evdev)
  if apt-cache policy python3-lgpio 2>/dev/null | grep -q 'Candidate: [0-9]'; then
    packages+=(python3-lgpio)
  fi
  # rpi-ws281x (the PWM backend) is published as source only: it compiles on the Pi.
  if [[ $PWM == 1 ]]; then packages+=(gcc libc6-dev python3-dev); fi
  # the phone page's web server: the distribution's aiohttp (the venv sees it)
  if [[ $WEB == 1 ]]; then packages+=(python3-aiohttp); fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    "${packages[@]}" >/dev/null
fi

if ! skip user; then
  for group in gpio spi dialout input; do
    getent group "$group" >/dev/null || groupadd --system "$group"
  done
  if ! id tavola >/dev/null 2>&1; then
    useradd --system --user-group --home-dir /var/lib/tavola --no-create-home \
      --shell /usr/sbin/nologin tavola
    say "created the system user tavola"
  fi
  usermod -a -G gpio,spi,dialout,input tavola
fi

say "installing the code into $PREFIX/venv"
mkdir -p "$PREFIX"
[[ -x "$PREFIX/venv/bin/python" ]] || python3 -m venv --system-site-packages "$PREFIX/venv"
EXTRAS=pi
if [[ $PWM == 1 ]]; then EXTRAS="$EXTRAS,pwm"; fi
if [[ $WEB == 1 ]]; then EXTRAS="$EXTRAS,web"; fi
EXTRAS="${TAVOLA_EXTRAS-$EXTRAS}"
# shellcheck disable=SC2086
"$PREFIX/venv/bin/python" -m pip install --quiet ${TAVOLA_PIP_ARGS:-} "$SRC${EXTRAS:+[$EXTRAS]}"

install -d -m 0755 "$ETC"
if [[ ! -e "$ETC/tavola.toml" ]]; then
  install -m 0644 "$SRC/systemd/tavola.toml" "$ETC/tavola.toml"
  say "wrote the default config $ETC/tavola.toml"
else
  say "kept your config $ETC/tavola.toml"
fi
install -d -m 0750 "$STATE"

install -D -m 0644 "$SRC/systemd/tavola.service" "$UNIT_DIR/tavola.service"
if [[ $PWM == 1 ]]; then
  install -D -m 0644 "$SRC/systemd/tavola-pwm-root.conf" "$UNIT_DIR/tavola.service.d/pwm-root.conf"
  say "installed the PWM drop-in: the service runs as root"
fi
if [[ $WEB == 1 ]]; then
  install -D -m 0644 "$SRC/systemd/tavola-web.conf" "$UNIT_DIR/tavola.service.d/web.conf"
  # the settings page replaces tavola.toml (a temporary file, then a rename): the service
  # must be able to write the directory, not the rest of /etc
  chmod 0775 "$ETC"
  skip user || chgrp tavola "$ETC"
  say "installed the web drop-in: the service may listen on the LAN and write $ETC"
  if [[ -d "$ROOT/etc/avahi" ]]; then
    port="$("$PREFIX/venv/bin/python" -c '
import sys, tomllib
try:
    port = tomllib.load(open(sys.argv[1], "rb")).get("web", {}).get("port", 8080)
except (OSError, ValueError):
    port = 8080
print(port if isinstance(port, int) and not isinstance(port, bool) else 8080)
' "$ETC/tavola.toml")"
    install -d -m 0755 "$AVAHI_DIR"
    sed "s#<port>8080</port>#<port>$port</port>#" "$SRC/systemd/tavola-avahi.service" \
      > "$AVAHI_DIR/tavola.service"
    chmod 0644 "$AVAHI_DIR/tavola.service"
    say "announced the page over mDNS on port $port ($AVAHI_DIR/tavola.service)"
  else
    say "no avahi here (apt-get install avahi-daemon): the page is not announced over mDNS"
  fi
  say "turn the page on with [web] enabled = true in $ETC/tavola.toml (docs/install.md)"
fi
install -D -m 0644 "$SRC/systemd/99-tavola.rules" "$RULES_DIR/99-tavola.rules"

skip user || chown -R tavola:tavola "$STATE"
# The service opens the GPIO chip as soon as it starts: let udev give it to the gpio
# group first, or the first start fails on a root-only /dev/gpiochip0.
skip udev || { udevadm control --reload-rules && udevadm trigger && udevadm settle; }
if ! skip systemctl; then
  systemctl daemon-reload
  systemctl enable tavola.service
  if ! systemctl restart tavola.service 2>/dev/null; then
    # Installed, but the table cannot start yet (SPI off, a strip unplugged, a config
    # error): say why, from its own log, and what to do next.
    echo "install.sh: installed, but the service did not start:" >&2
    journalctl -u tavola.service -b -p err -n 3 -o cat --no-pager >&2 || true
    echo "install.sh: fix that (the config is $ETC/tavola.toml), then run:" \
      "sudo systemctl restart tavola" >&2
    exit 1
  fi
  say "started: follow it with journalctl -u tavola -f"
fi
say "done"
