#!/usr/bin/env bash
# usb.sh IMAGE DEVICE [CONFIG]: writes the irqlab disk image to a whole
# stick (e.g. /dev/sdX), destroying what is on it, then moves the backup
# GPT header to the end of the device. With CONFIG, that file is the
# stick's irqlab.cfg in place of the image's. Asks before writing. Refuses:
#   anything that is not a whole disk (a partition, a file);
#   a disk that is neither removable nor on a USB transport (many USB SSDs
#   and card readers report removable 0, but lsblk's TRAN says usb);
#   the disk holding /, and any disk with a mounted partition.
# USB_TEST_ALLOW_LOOP=1 also accepts loop devices: the tests write to one.
set -euo pipefail

image=${1:?usage: usb.sh IMAGE DEVICE [CONFIG]}
device=${2:-}
config=${3:-}
refuse() { echo "irqlab: $device: $*; nothing written" >&2; exit 1; }

if [ -z "$device" ]; then
	echo "usage: make usb DEVICE=/dev/sdX" >&2
	# Only what could be a stick: removable, or on USB (the refusal
	# below), never the system's own disks. Picked from lsblk -P, one
	# KEY="value" a column, where an empty TRAN cannot shift the next.
	sticks=$(lsblk -d -n -P -o NAME,RM,TRAN 2>/dev/null |
		grep -E 'RM="1"|TRAN="usb"' |
		sed -n 's|^NAME="\([^"]*\)".*|/dev/\1|p' || true)
	if [ -z "$sticks" ]; then
		echo "irqlab: no removable or USB disk found: plug the stick" \
		     "in, then name it with DEVICE=" >&2
		exit 2
	fi
	echo "sticks here (removable or on USB):" >&2
	# shellcheck disable=SC2086 # one device a word
	lsblk -d -o NAME,RM,TRAN,SIZE,MODEL $sticks >&2 || true
	exit 2
fi
[ -b "$device" ] || refuse "not a block device"
if [ -n "$config" ] && [ ! -f "$config" ]; then
	echo "irqlab: CONFIG=$config: no such file; nothing written" >&2
	exit 1
fi
device=$(realpath "$device")
[ "$(lsblk -dno TYPE "$device")" != part ] ||
	refuse "a partition: give the whole disk"
type=$(lsblk -dno TYPE "$device")
removable=$(lsblk -dno RM "$device" | tr -d ' ')
transport=$(lsblk -dno TRAN "$device" | tr -d ' ')
if [ "$type" = loop ] && [ -n "${USB_TEST_ALLOW_LOOP:-}" ]; then
	transport=loop
elif [ "$type" != disk ]; then
	refuse "a $type device, not a whole disk"
elif [ "$removable" != 1 ] && [ "$transport" != usb ]; then
	refuse "neither removable nor on USB (transport: ${transport:-none})"
fi
root_source=$(findmnt -no SOURCE / 2>/dev/null || true)
if [ -b "$root_source" ]; then
	root_disk=/dev/$(lsblk -no PKNAME "$root_source" | head -n 1)
	[ "$root_disk" != "$device" ] && [ "$root_source" != "$device" ] ||
		refuse "it holds / (the running system)"
fi
if lsblk -nro MOUNTPOINT "$device" | grep -q .; then
	refuse "mounted on $(lsblk -nro MOUNTPOINT "$device" | grep . |
		tr '\n' ' ')- unmount it first"
fi

model=$(lsblk -dno MODEL "$device" | sed 's/ *$//')
size=$(lsblk -dno SIZE "$device" | tr -d ' ')
echo "irqlab: $device: ${model:-unknown model}, $size, transport ${transport:-none}"
read -r -p "Erase $device and write irqlab? Type yes: " answer
[ "$answer" = yes ] || { echo "irqlab: not written"; exit 1; }
if [ -n "$config" ]; then
	# The image with this config on its ESP, written in its place.
	with_config=$(mktemp --suffix=.img)
	trap 'rm -f "$with_config"' EXIT
	cp "$image" "$with_config"
	MTOOLS_SKIP_CHECK=1 mcopy -o -i "$with_config@@1M" "$config" \
		::/EFI/irqlab/irqlab.cfg
	image=$with_config
	echo "irqlab: the stick's irqlab.cfg is $config"
fi
dd if="$image" of="$device" bs=4M conv=fsync status=progress
# The image's backup GPT header sits at the image's end, not the
# device's: firmware and tools then warn of a damaged table.
sfdisk --quiet --relocate gpt-bak-std "$device"
sync
echo "irqlab: written. Boot the target machine from $device once (Secure Boot off)."
