#!/usr/bin/env bash
# The emulated Pi: a Debian bookworm arm64 root (the userland of 64-bit Raspberry Pi OS
# Lite) with Debian's own arm64 kernel and systemd, gpio-sim compiled for that kernel,
# and the test's agent. Tavola itself is NOT in it: the tests install it with
# systemd/install.sh, as a user would. The Pi's board identity is added at boot, in the
# device tree (tests/system/guest.py).
#
#   tests/system/build-image.sh          print the image's directory, building it if missing
#   tests/system/build-image.sh --force  rebuild even when the cache holds it
#
# The image is cached outside the clone, in $TAVOLA_SYSTEM_CACHE (default
# ${XDG_CACHE_HOME:-~/.cache}/tavola/system)/arm64-KEY, KEY a hash of everything that
# defines it (this script, lib.sh and tests/system/guest/). Building needs root and
# Debian's archive; on an x86 host the arm64 programs run under qemu-user. Output:
# vmlinuz, initrd.img, rootfs.img (the guest's disk), root.tar (the same root, for
# chroot tests) and build-info.txt.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
GUEST="$HERE/guest"
# shellcheck source=tests/system/lib.sh
source "$HERE/lib.sh"
SUITE=bookworm
IMG_SIZE=3G
# A base like Pi OS Lite's, as far as install.sh cares (systemd, udev, Python 3, sudo, CA
# certificates; no compiler, no python3-dev), Debian's kernel, and tools to read the guest.
PKGS=systemd,systemd-sysv,udev,kmod,dbus,python3,ca-certificates,sudo,iproute2,procps,linux-image-arm64,gpiod,less
FORCE=0
case "${1:-}" in
  --force) FORCE=1 ;;
  "") ;;
  -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
  *) echo "build-image.sh: unknown option $1 (try --help)" >&2; exit 2 ;;
esac

KEY=$( (cat "$0" "$HERE/lib.sh"; cd "$GUEST" && find . -type f | LC_ALL=C sort | xargs sha256sum) \
       | sha256sum | cut -c1-16)
OUT="$CACHE/arm64-$KEY"
if [[ $FORCE == 0 && -e "$OUT/build-info.txt" ]]; then
  echo "$OUT"
  exit 0
fi
if [[ $EUID -ne 0 ]]; then
  echo "build-image.sh: building the guest image needs root (debootstrap, chroot)" >&2
  exit 1
fi

WORK="$CACHE/work-arm64"
ROOT="$WORK/root"
trap chroot_umount EXIT
in_root() { in_chroot "$ROOT" "$@"; }

mkdir -p "$CACHE"
rm -rf "$WORK"
mkdir -p "$WORK"
binfmt_aarch64
step "debootstrap $SUITE arm64, first stage (minbase + $PKGS)"
debootstrap --foreign --variant=minbase --arch=arm64 --include="$PKGS" "$SUITE" "$ROOT" \
  "$MIRROR" > "$WORK/debootstrap.log" 2>&1 || { tail -20 "$WORK/debootstrap.log" >&2; exit 1; }
# A small initramfs (the guest's disk drivers only) is quicker to build and to boot than
# Debian's MODULES=most; set before the kernel's package makes the first one.
mkdir -p "$ROOT/etc/initramfs-tools/conf.d" "$ROOT/usr/share/initramfs-tools/modules.d"
echo MODULES=list > "$ROOT/etc/initramfs-tools/conf.d/tavola-test.conf"
printf '%s\n' virtio_pci virtio_blk ext4 crc32c_generic \
  > "$ROOT/usr/share/initramfs-tools/modules.d/tavola-test"
step "debootstrap second stage (arm64 programs under qemu-user)"
in_root /debootstrap/debootstrap --second-stage >> "$WORK/debootstrap.log" 2>&1 ||
  { tail -20 "$WORK/debootstrap.log" >&2; exit 1; }

chroot_mounts "$ROOT"
cp /etc/resolv.conf "$ROOT/etc/resolv.conf"
host_cas "$ROOT"
KVER=$(basename "$(find "$ROOT/lib/modules" -mindepth 1 -maxdepth 1 | sort -V | tail -1)")
KPKG=$(in_root dpkg-query -W -f='${Version}' "linux-image-$KVER")
step "kernel $KVER ($KPKG): gpio-sim out of tree"
in_root apt-get install -y -qq --no-install-recommends "linux-headers-$KVER" \
  "linux-source-${KVER%%.0-*}=$KPKG" make xz-utils >/dev/null
SRC="linux-source-${KVER%%.0-*}"
B="$ROOT/usr/src/gpio-sim"
mkdir -p "$B"
cp "$GUEST/gpio-sim/Kbuild" "$B/"
tar -xJf "$ROOT/usr/src/$SRC.tar.xz" -C "$B" --strip-components=3 \
  "$SRC/drivers/gpio/gpio-sim.c" "$SRC/drivers/gpio/gpiolib.h" "$SRC/kernel/irq/irq_sim.c"
mv "$B/gpio-sim.c" "$B/gpio-sim-core.c"
# irq_to_desc() is not exported to modules; generic_handle_irq() makes the same call
# (irq_sim_domain_map sets handle_simple_irq as the descriptor's handler).
grep -q 'handle_simple_irq(irq_to_desc(irqnum));' "$B/irq_sim.c"
sed -i 's/handle_simple_irq(irq_to_desc(irqnum));/generic_handle_irq(irqnum);/' "$B/irq_sim.c"
in_root make -s -C "/lib/modules/$KVER/build" M=/usr/src/gpio-sim modules
install -D -m 0644 "$B/gpio-sim.ko" "$ROOT/lib/modules/$KVER/updates/gpio-sim.ko"
in_root depmod -a "$KVER"
in_root apt-get purge -y -qq --autoremove "linux-headers-$KVER" "$SRC" make xz-utils >/dev/null
rm -rf "$B"

step "guest configuration"
echo tavola-pi > "$ROOT/etc/hostname"
printf '127.0.0.1\tlocalhost\n127.0.1.1\ttavola-pi\n' > "$ROOT/etc/hosts"
install -m 0644 "$GUEST/fstab" "$ROOT/etc/fstab"
mkdir -p "$ROOT/mnt/share"
install -D -m 0644 "$GUEST/20-wired.network" "$ROOT/etc/systemd/network/20-wired.network"
install -D -m 0644 "$GUEST/pip.conf" "$ROOT/etc/pip.conf"
install -D -m 0755 "$GUEST/agent.py" "$ROOT/usr/local/lib/tavola-test/agent.py"
install -D -m 0755 "$GUEST/gpio-header.sh" "$ROOT/usr/local/lib/tavola-test/gpio-header.sh"
install -m 0644 "$GUEST/tavola-test-agent.service" "$GUEST/tavola-test-gpio.service" \
  "$ROOT/etc/systemd/system/"
in_root systemctl enable systemd-networkd.service tavola-test-agent.service \
  tavola-test-gpio.service >/dev/null 2>&1
# Nothing may wait for a network that is not needed to boot, nor for a console login.
in_root systemctl mask systemd-networkd-wait-online.service getty@tty1.service >/dev/null 2>&1
in_root passwd -d root >/dev/null
printf 'nameserver 10.0.2.3\n' > "$ROOT/etc/resolv.conf"  # QEMU user networking's DNS
in_root apt-get clean
rm -rf "$ROOT"/var/lib/apt/lists/*_Packages "$ROOT"/var/cache/apt/*.bin
chroot_umount

step "ext4 image ($IMG_SIZE, sparse)"
STAGE="$WORK/out"
mkdir -p "$STAGE"
cp "$ROOT/boot/vmlinuz-$KVER" "$STAGE/vmlinuz"
cp "$ROOT/boot/initrd.img-$KVER" "$STAGE/initrd.img"
truncate -s "$IMG_SIZE" "$STAGE/rootfs.img"
mke2fs -q -F -t ext4 -L rootfs -E root_owner=0:0 -d "$ROOT" "$STAGE/rootfs.img"
tar -C "$ROOT" --numeric-owner -cf "$STAGE/root.tar" .
{
  echo "built: $(date -u +%FT%TZ) in $(elapsed) s"
  echo "debian: $SUITE ($MIRROR)"
  echo "kernel: $KVER ($KPKG)"
} > "$STAGE/build-info.txt"
rm -rf "$OUT"
mv "$STAGE" "$OUT"
rm -rf "$WORK"
# Older images (other keys) are stale: keep the cache to the one in use.
find "$CACHE" -mindepth 1 -maxdepth 1 -name 'arm64-*' ! -path "$OUT" -exec rm -rf {} +
step "done: $OUT"
echo "$OUT"
