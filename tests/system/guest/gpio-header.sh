#!/bin/bash
# Create the simulated header: a 58-line gpio-sim bank labelled like a Pi 4's
# (pinctrl-bcm2711, lines GPIO0..GPIO57, offset = BCM number), every line pulled up.
# /run/tavola-test/gpio.env names the chip and its sysfs directory for the tests.
set -euo pipefail
modprobe gpio-sim
grep -q ' /sys/kernel/config ' /proc/mounts || mount -t configfs none /sys/kernel/config
C=/sys/kernel/config/gpio-sim/header
mkdir "$C" "$C/bank0"
echo 58 > "$C/bank0/num_lines"
echo pinctrl-bcm2711 > "$C/bank0/label"
for i in $(seq 0 57); do
  mkdir "$C/bank0/line$i"
  echo "GPIO$i" > "$C/bank0/line$i/name"
done
echo 1 > "$C/live"
chip=$(cat "$C/bank0/chip_name")
sysfs=/sys/devices/platform/$(cat "$C/dev_name")/$chip
for i in $(seq 0 57); do echo pull-up > "$sysfs/sim_gpio$i/pull"; done
mkdir -p /run/tavola-test
printf 'CHIP=%s\nSYSFS=%s\n' "$chip" "$sysfs" > /run/tavola-test/gpio.env
echo "simulated header: /dev/$chip ($sysfs)"
