#!/usr/bin/env bash
# collect.sh [SOURCE] [DEST]: copies irqlab's result folders
# (\EFI\irqlab\results\*, each with the ACPI and SMBIOS tables its run
# read in acpi\) to DEST (default: results). SOURCE (default: the last `make run`'s disk) is
#   an image file      a disk image as mkimage.sh builds it, or any GPT or
#                      MBR image with an EFI system partition;
#   a block device     the stick: a whole disk (its ESP is found in the
#                      partition table) or the partition itself; if it is
#                      mounted, the mount point is read instead;
#   a directory        a mounted stick (the ESP's root).
# A folder already in DEST is never overwritten: it is named and skipped.
# Prints every folder it copies.
set -euo pipefail

source=${1:-build/run/disk.img}
dest=${2:-results}
export MTOOLS_SKIP_CHECK=1
ESP_TYPE=c12a7328-f81f-11d2-ba4b-00a0c93ec93b

say() { echo "collect: $*"; }
die() { echo "collect: $*" >&2; exit 1; }

# The byte offset of the EFI system partition in an image or on a disk,
# or 0 when it has no partition table (a partition itself).
esp_offset() {
	local dump start
	if ! dump=$(sfdisk --dump "$1" 2>/dev/null); then
		echo 0
		return
	fi
	start=$(echo "$dump" | grep -i "type=$ESP_TYPE\|type=ef\b" |
		sed -n 's/.*start= *\([0-9]*\).*/\1/p' | head -n 1)
	[ -n "$start" ] || die "$1 has no EFI system partition"
	echo $((start * 512))
}

# Lists the entries of an ESP directory, one name per line.
list() {
	if [ -n "$root" ]; then
		[ -d "$root/$1" ] && ls -1 "$root/$1"
	else
		mdir -b -i "$image@@$offset" "::/$1" 2>/dev/null |
			sed 's#/$##; s#.*/##' | grep -v '^\.\.\?$'
	fi
	return 0
}

# Copies ESP directory $1 to the new directory $2.
copy() {
	if [ -n "$root" ]; then
		cp -r "$root/$1" "$2"
	else
		mkdir -p "$2"
		mcopy -s -n -i "$image@@$offset" "::/$1/*" "$2/"
	fi
}

root= image= offset=0
if [ -d "$source" ]; then
	root=$source
elif [ -b "$source" ]; then
	mnt=$(lsblk -nro MOUNTPOINT "$source" | grep -m1 . || true)
	if [ -n "$mnt" ]; then
		say "$source is mounted on $mnt: reading it there"
		root=$mnt
	else
		image=$source
		offset=$(esp_offset "$source")
	fi
elif [ -f "$source" ]; then
	image=$source
	offset=$(esp_offset "$source")
else
	die "no such image, device or directory: $source"
fi
# FAT is case-insensitive; a mounted one may show EFI as efi.
if [ -n "$root" ] && [ ! -d "$root/EFI" ] && [ -d "$root/efi" ]; then
	top=efi/irqlab
else
	top=EFI/irqlab
fi

runs=$(list "$top/results")
[ -n "$runs" ] || die "no irqlab results on $source"
mkdir -p "$dest"
copied=0 skipped=0
for run in $runs; do
	if [ -e "$dest/$run" ]; then
		say "$dest/$run already exists: not overwritten (move it away to copy it again)"
		skipped=$((skipped + 1))
		continue
	fi
	copy "$top/results/$run" "$dest/$run"
	say "copied $run -> $dest/$run"
	copied=$((copied + 1))
done
say "$copied folder(s) copied, $skipped already there, from $source"
