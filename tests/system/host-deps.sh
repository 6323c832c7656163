#!/usr/bin/env bash
# Host packages for `make system-test`: QEMU to boot the arm64 guest (TCG), qemu-user to
# run arm64 programs while building its root and in the Pi OS chroot, debootstrap and
# e2fsprogs to build the image, dtc to give the guest a Pi's device tree, and the
# virtio-net boot ROM QEMU loads for the guest's network card (efi-virtio.rom: ipxe-qemu,
# only recommended by qemu-system-arm, so an install without recommends lacks it).
set -euo pipefail
exec bash "$(dirname "${BASH_SOURCE[0]}")/../../scripts/system-deps.sh" \
  qemu-system-aarch64=qemu-system-arm qemu-aarch64-static=qemu-user-static \
  debootstrap=debootstrap mke2fs=e2fsprogs dtc=device-tree-compiler \
  /usr/lib/ipxe/qemu/efi-virtio.rom=ipxe-qemu
