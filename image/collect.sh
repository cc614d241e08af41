#!/usr/bin/env bash
# collect.sh [DISK] [RESULTS_DIR]: copies \EFI\irqlab\results\* out of an
# irqlab disk image (default: the last `make run`'s) with mtools.
set -euo pipefail

disk=${1:-build/run/disk.img}
dest=${2:-results}
export MTOOLS_SKIP_CHECK=1
mkdir -p "$dest"
if ! mdir -i "$disk@@1M" ::/EFI/irqlab/results >/dev/null 2>&1; then
	echo "irqlab: no results folder on $disk" >&2
	exit 1
fi
mcopy -s -n -o -i "$disk@@1M" '::/EFI/irqlab/results/*' "$dest/"
