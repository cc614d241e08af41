#!/usr/bin/env bash
# usb.sh IMAGE DEVICE: writes the irqlab disk image to a whole USB stick
# (e.g. /dev/sdX), destroying what is on it. Refuses anything that is not
# a removable whole disk, and asks before writing.
set -euo pipefail

image=${1:?usage: usb.sh IMAGE DEVICE}
device=${2:-}
if [ -z "$device" ]; then
	echo "usage: make usb DEVICE=/dev/sdX   (lsblk -d -o NAME,RM,SIZE,MODEL lists sticks)" >&2
	exit 2
fi
name=$(basename "$device")
if [ ! -b "$device" ] || [ ! -e "/sys/block/$name" ]; then
	echo "irqlab: $device is not a whole block device" >&2
	exit 1
fi
if [ "$(cat "/sys/block/$name/removable")" != 1 ]; then
	echo "irqlab: $device is not removable; refusing to overwrite it" >&2
	exit 1
fi
if grep -q "^/dev/$name" /proc/mounts; then
	echo "irqlab: $device has mounted partitions; unmount them first" >&2
	exit 1
fi
model=$(cat "/sys/block/$name/device/model" 2>/dev/null || echo unknown)
size=$(($(cat "/sys/block/$name/size") / 2048))
read -r -p "Erase $device ($model, $size MiB) and write irqlab? Type yes: " answer
[ "$answer" = yes ] || { echo "not written"; exit 1; }
dd if="$image" of="$device" bs=4M conv=fsync status=progress
sync
echo "irqlab: written. Boot the target machine from $device (Secure Boot off)."
