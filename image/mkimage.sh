#!/usr/bin/env bash
# mkimage.sh IMAGE EFI [CONFIG [REPORT_TEMPLATE [ICOUNT_REFERENCE]]]
# A GPT disk with one FAT32 EFI system partition holding
# \EFI\BOOT\BOOTX64.EFI (and \EFI\irqlab\irqlab.cfg, the report
# page's template \EFI\irqlab\report.tpl and the icount reference
# \EFI\irqlab\icount.ref, when given). Built
# with sfdisk and mtools on a plain file: no root, no loop devices.
set -euo pipefail

image=$1
efi=$2
config=${3:-}
report_template=${4:-}
icount_reference=${5:-}
size_mib=${IMAGE_SIZE_MIB:-64}	# FAT32 needs >= 65525 clusters: 64 MiB is ample

export MTOOLS_SKIP_CHECK=1
rm -f "$image"
truncate -s "${size_mib}M" "$image"
# Start at 1 MiB; no size, so sfdisk leaves room for the backup GPT.
printf 'label: gpt\nstart=2048, type=C12A7328-F81F-11D2-BA4B-00A0C93EC93B, name="irqlab ESP"\n' |
	sfdisk --quiet "$image"
sectors=$(sfdisk --dump "$image" | sed -n 's/.*size= *\([0-9]*\).*/\1/p' | head -n 1)
part="$image@@1M"
mformat -i "$part" -T "$sectors" -F -v IRQLAB ::
mmd -i "$part" ::/EFI ::/EFI/BOOT ::/EFI/irqlab
mcopy -i "$part" "$efi" ::/EFI/BOOT/BOOTX64.EFI
if [ -n "$config" ]; then
	mcopy -i "$part" "$config" ::/EFI/irqlab/irqlab.cfg
fi
if [ -n "$report_template" ]; then
	mcopy -i "$part" "$report_template" ::/EFI/irqlab/report.tpl
fi
if [ -n "$icount_reference" ]; then
	mcopy -i "$part" "$icount_reference" ::/EFI/irqlab/icount.ref
fi
