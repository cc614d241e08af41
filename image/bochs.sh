#!/usr/bin/env bash
# bochs.sh IMAGE: one irqlab run under Bochs + OVMF, a second emulator
# with FRED, LKGS and the TSC-deadline timer (docs/emulators.md).
# Bochs runs phases A and B; its reset does not bring OVMF back for
# phase C, so phase B prints the handoff's blob on COM1 (serial_results
# = 1). This runner cuts it out of the serial log.
# A run whose results outgrow one handoff stops at the end of its first
# part (docs/uefi-variables.md "Parts"), and phase C, which would start
# the next, never comes: so this runner starts Bochs again at the first
# row not measured (start_row), each part a run of its own, until the
# plan is done, reading where each part stopped from the parts so far,
# joined by irqlab-rescue --blob as phase C joins them. The same joins
# the whole run's parts and writes the files phase C would, into
# RESULTS_DIR/<run id>/; then the headline is printed.
#
#   BOCHS=PATH       the bochs binary (else make bochs's, build/bochs/bin/bochs,
#                    else the one on PATH); its firmware
#                    (OVMF-pure-efi.fd, VGABIOS-lgpl-latest.bin) is looked
#                    for in ../share beside it, or BOCHS_SHARE.
#   BOCHS_CPU=wildcat_lake   a model from `bochs --help cpu`.
#   BOCHS_CPUS=1     processors: more need a Bochs built with
#                    --enable-smp (docs/emulators.md).
#   BOCHS_CPU_OPTIONS=   more options for the bochsrc's cpu line, after
#                    its own, which they override: ignore_bad_msrs=0
#                    (every MSR Bochs does not know faults), or the
#                    counting build's pmu_preset="MSR=VALUE ..." (hex;
#                    the PMU as firmware leaves it, docs/emulators.md
#                    "The counting PMU").
#   CONFIG=FILE      an irqlab.cfg for the ESP (serial_results = 1 is added).
#   RUN_DIR=build/bochs      disk copy, bochsrc, serial log (every part's,
#                    in order; serial-part-<p>.log each part's own),
#                    blob-part-<p>.hex each part's blob,
#                    results-part-<p>.json the run as parts 1 to p give it,
#                    results.json (the whole run's, parts joined).
#   RESULTS_DIR=results      where the run's folder is written.
#   IRQLAB_RESCUE=build/irqlab-rescue  the image's own build of it
#                    (make run ENTRY=... sets it).
#   TIMEOUT=600      seconds before a part counts as hung.
# Exit 0 with RUN_DIR/results.json written; 3 when Bochs is not found.
set -euo pipefail

image=$1
top=$(cd "$(dirname "$0")/.." && pwd)
[ -n "${BOCHS:-}" ] || [ ! -x "$top/build/bochs/bin/bochs" ] ||
	BOCHS=$top/build/bochs/bin/bochs
BOCHS=${BOCHS:-$(command -v bochs || true)}
if [ -z "$BOCHS" ] || [ ! -x "$BOCHS" ]; then
	echo "bochs.sh: no Bochs: make bochs BOCHS_SOURCE=... builds one" \
	     "(docs/emulators.md \"Bochs for anyone\"), or set BOCHS" >&2
	exit 3
fi
BOCHS_SHARE=${BOCHS_SHARE:-$(dirname "$(realpath "$BOCHS")")/../share}
BOCHS_CPU=${BOCHS_CPU:-wildcat_lake}
BOCHS_CPUS=${BOCHS_CPUS:-1}
RUN_DIR=${RUN_DIR:-build/bochs}
TIMEOUT=${TIMEOUT:-600}
export MTOOLS_SKIP_CHECK=1

mkdir -p "$RUN_DIR"
disk=$RUN_DIR/disk.img
log=$RUN_DIR/serial.log
rm -rf "$disk.lock" "$RUN_DIR"/results*.json "$RUN_DIR"/blob*.hex \
	"$RUN_DIR"/serial-part-*.log "$RUN_DIR"/parts-1-to-*
cp "$image" "$disk"
config=$RUN_DIR/config-on-esp.cfg
if [ -n "${CONFIG:-}" ]; then
	cp "$CONFIG" "$config"
else
	mcopy -o -i "$disk@@1M" ::/EFI/irqlab/irqlab.cfg "$config"
fi
sed -i '/^[[:space:]]*\(serial_results\|finish\|start_row\)[[:space:]]*=/d' \
	"$config"
printf 'serial_results = 1\nfinish = shutdown\n' >>"$config"
# The row the config starts at, where it names one: the first part's.
start_row=$( { grep -E '^[[:space:]]*start_row[[:space:]]*=' \
	"${CONFIG:-/dev/null}" || true; } | tail -n 1 | tr -dc '0-9')

# One part: Bochs from a fresh boot with start_row = $1 on the ESP, its
# serial log into serial-part-$2.log; stopped once phase B has said its
# last, since Bochs' reset does not end it.
bochs_part() {
	local from=$1 p=$2 part_log=$RUN_DIR/serial-part-$2.log pid start
	# A fresh disk: phase A's marker on the ESP (docs/run.md) would
	# otherwise tell the next part that this one never handed over.
	cp "$image" "$disk"
	cp "$config" "$RUN_DIR/config-part-$p.cfg"
	[ "$from" -gt 0 ] && echo "start_row = $from" >>"$RUN_DIR/config-part-$p.cfg"
	mcopy -o -i "$disk@@1M" "$RUN_DIR/config-part-$p.cfg" \
		::/EFI/irqlab/irqlab.cfg
	cat >"$RUN_DIR/bochsrc" <<RC
romimage: file=$BOCHS_SHARE/OVMF-pure-efi.fd
vgaromimage: file=$BOCHS_SHARE/VGABIOS-lgpl-latest.bin
fw_cfg: enabled=1
pci: enabled=1, chipset=i440fx
cpu: model=$BOCHS_CPU, count=$BOCHS_CPUS, ips=200000000, reset_on_triple_fault=1, ignore_bad_msrs=1${BOCHS_CPU_OPTIONS:+, $BOCHS_CPU_OPTIONS}
memory: guest=512, host=512
ata0-master: type=disk, path=$disk, mode=flat
boot: disk
clock: sync=none
com1: enabled=1, mode=file, dev=$part_log
display_library: nogui
panic: action=report
error: action=report
info: action=ignore
log: $RUN_DIR/bochs.log
RC
	: >"$part_log"
	start=$SECONDS
	"$BOCHS" -q -f "$RUN_DIR/bochsrc" </dev/null >"$RUN_DIR/bochs.out" 2>&1 &
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		if grep -qa 'irqlab-results-blob-end\|irqlab will not measure' \
			"$part_log" || [ $((SECONDS - start)) -ge "$TIMEOUT" ]; then
			sleep 1
			kill "$pid" 2>/dev/null || true
			break
		fi
		sleep 1
	done
	wait "$pid" 2>/dev/null || true
	rm -f "$disk.lock"
	echo "bochs ($BOCHS_CPU): $((SECONDS - start)) s, serial log $part_log"
	cat "$part_log" >>"$log"
	# What phase B printed between the markers $1, into $2.
	cut_out() {
		tr -d '\r' <"$part_log" | sed -n "/$1-begin/,/$1-end/p" |
			sed '1d;$d' >"$2"
		[ -s "$2" ] || rm -f "$2"
	}
	cut_out irqlab-results-blob "$RUN_DIR/blob-part-$p.hex"
}

here=$(cd "$(dirname "$0")" && pwd)
build=$here/../build
rescue=${IRQLAB_RESCUE:-$build/irqlab-rescue}
# The files phase C would write from the blobs given (--blob FILE ...),
# into the folder $1, each run's in a folder of its own there.
files_from_blobs() {
	local dest=$1
	shift
	if ! "$rescue" "$@" --template "$build/report-template.html" \
		--reference "$build/icount.ref" "$dest" \
		>"$RUN_DIR/rescue.log" 2>&1; then
		cat "$RUN_DIR/rescue.log" >&2
		return 1
	fi
}

: >"$log"
blobs=()
p=1
from=${start_row:-0}
while :; do
	bochs_part "$from" "$p"
	json=$RUN_DIR/results-part-$p.json
	if [ ! -s "$RUN_DIR/blob-part-$p.hex" ]; then
		echo "bochs.sh: part $p left no blob on the serial log; see" \
		     "$RUN_DIR/serial-part-$p.log" >&2
		[ "$p" -eq 1 ] && exit 1
		break
	fi
	blobs+=(--blob "$RUN_DIR/blob-part-$p.hex")
	# The run as its parts so far give it: where the next part starts.
	if ! files_from_blobs "$RUN_DIR/parts-1-to-$p" "${blobs[@]}"; then
		echo "bochs.sh: parts 1 to $p's blobs gave no results" >&2
		exit 1
	fi
	cp "$RUN_DIR/parts-1-to-$p"/*/results.json "$json"
	next=$(sed -n 's/.*"unmeasured_from_row": \([0-9][0-9]*\).*/\1/p' \
		"$json" | head -n 1)
	# Each part measures at least one row: a part that did not would
	# repeat itself for ever.
	if [ -z "$next" ] || [ "$next" -le "$from" ]; then
		break
	fi
	echo "bochs.sh: part $p stopped before plan row $next: part" \
	     "$((p + 1)) starts Bochs again there"
	from=$next
	p=$((p + 1))
done
# The files phase C would write, from the parts' blobs, joined.
results=${RESULTS_DIR:-results}
folder=$(sed -n 's/.*"run_id": "\([0-9-]*\)".*/\1/p' \
	"$RUN_DIR/results-part-1.json" | head -n 1)
if ! files_from_blobs "$results" "${blobs[@]}"; then
	echo "bochs.sh: the blobs gave no results folder" >&2
	exit 1
fi
cp "$results/$folder/results.json" "$RUN_DIR/results.json"
echo "bochs.sh: results in $RUN_DIR/results.json"
echo
cat "$results/$folder/headline.txt"
echo
"$here/run-end.sh" "$results/$folder"
