# Shared by the system test's scripts (sourced, not run): the cache, steps, chroots.
# shellcheck shell=bash
CACHE="${TAVOLA_SYSTEM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tavola/system}"
MIRROR="${TAVOLA_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
_t0=$EPOCHREALTIME

step() { printf '=== [%6.1fs] %s\n' "$(elapsed)" "$*" >&2; }
elapsed() { awk -v a="$_t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }'; }

# An arm64 root runs its programs through qemu-user. Hosts without systemd-binfmt
# (containers, CI runners) need binfmt_misc mounted and qemu-aarch64 registered by hand;
# the F flag of Debian's entry keeps the interpreter working inside chroots.
binfmt_aarch64() {
  [[ $(uname -m) == aarch64 ]] && return 0
  [[ -e /proc/sys/fs/binfmt_misc/register ]] ||
    mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
  [[ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ]] ||
    cat /usr/lib/binfmt.d/qemu-aarch64.conf > /proc/sys/fs/binfmt_misc/register
  grep -q '^enabled' /proc/sys/fs/binfmt_misc/qemu-aarch64
}

_mounted=()
chroot_mounts() {  # chroot_mounts ROOT: proc, sys, dev for a chroot; undone by chroot_umount
  local root=$1
  mount -t proc proc "$root/proc"; _mounted+=("$root/proc")
  mount -t sysfs sys "$root/sys"; _mounted+=("$root/sys")
  mount --bind /dev "$root/dev"; _mounted+=("$root/dev")
  mount --bind /dev/pts "$root/dev/pts"; _mounted+=("$root/dev/pts")
}
chroot_umount() {
  local i
  for ((i = ${#_mounted[@]} - 1; i >= 0; i--)); do umount -l "${_mounted[i]}" 2>/dev/null || true; done
  _mounted=()
}

in_chroot() {  # in_chroot ROOT CMD...: a clean environment, as a root login would have
  local root=$1; shift
  chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
    DEBIAN_FRONTEND=noninteractive "$@"
}

host_cas() {  # host_cas ROOT: a host behind a TLS-inspecting proxy adds its CA; so must ROOT
  local root=$1
  if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null; then
    cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/"
    in_chroot "$root" update-ca-certificates >/dev/null
  fi
}
