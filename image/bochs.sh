#!/usr/bin/env bash
# bochs.sh IMAGE: one irqlab run under Bochs + OVMF, a second emulator
# with FRED, LKGS and the TSC-deadline timer (docs/emulators.md).
# Bochs runs phases A and B; its reset does not bring OVMF back for
# phase C, so phase B prints results.json and the handoff's blob on COM1
# (serial_results = 1). This runner cuts both out of the serial log, and
# irqlab-rescue --blob writes from the blob the files phase C would,
# into RESULTS_DIR/<run id>/, then prints the headline.
#
#   BOCHS=PATH       the bochs binary (else the one on PATH); its firmware
#                    (OVMF-pure-efi.fd, VGABIOS-lgpl-latest.bin) is looked
#                    for in ../share beside it, or BOCHS_SHARE.
#   BOCHS_CPU=wildcat_lake   a model from `bochs --help cpu`.
#   BOCHS_CPUS=1     processors: more need a Bochs built with
#                    --enable-smp (docs/emulators.md).
#   CONFIG=FILE      an irqlab.cfg for the ESP (serial_results = 1 is added).
#   RUN_DIR=build/bochs      disk copy, bochsrc, serial log, results.json.
#   RESULTS_DIR=results      where the run's folder is written.
#   TIMEOUT=600      seconds before the run counts as hung.
# Exit 0 with RUN_DIR/results.json written; 3 when Bochs is not found.
set -euo pipefail

image=$1
BOCHS=${BOCHS:-$(command -v bochs || true)}
if [ -z "$BOCHS" ] || [ ! -x "$BOCHS" ]; then
	echo "bochs.sh: no Bochs (set BOCHS, or put bochs on PATH)" >&2
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
rm -f "$disk.lock" "$RUN_DIR/results.json"
cp "$image" "$disk"
config=$RUN_DIR/config-on-esp.cfg
if [ -n "${CONFIG:-}" ]; then
	cp "$CONFIG" "$config"
else
	mcopy -o -i "$disk@@1M" ::/EFI/irqlab/irqlab.cfg "$config"
fi
sed -i '/^[[:space:]]*\(serial_results\|finish\)[[:space:]]*=/d' "$config"
printf 'serial_results = 1\nfinish = shutdown\n' >>"$config"
mcopy -o -i "$disk@@1M" "$config" ::/EFI/irqlab/irqlab.cfg

cat >"$RUN_DIR/bochsrc" <<RC
romimage: file=$BOCHS_SHARE/OVMF-pure-efi.fd
vgaromimage: file=$BOCHS_SHARE/VGABIOS-lgpl-latest.bin
fw_cfg: enabled=1
pci: enabled=1, chipset=i440fx
cpu: model=$BOCHS_CPU, count=$BOCHS_CPUS, ips=200000000, reset_on_triple_fault=1, ignore_bad_msrs=1
memory: guest=512, host=512
ata0-master: type=disk, path=$disk, mode=flat
boot: disk
clock: sync=none
com1: enabled=1, mode=file, dev=$log
display_library: nogui
panic: action=report
error: action=report
info: action=ignore
log: $RUN_DIR/bochs.log
RC

: >"$log"
start=$SECONDS
"$BOCHS" -q -f "$RUN_DIR/bochsrc" </dev/null >"$RUN_DIR/bochs.out" 2>&1 &
pid=$!
# Bochs' reset does not end it: stop it once phase B has said its last.
while kill -0 "$pid" 2>/dev/null; do
	if grep -qa 'irqlab-results-blob-end\|irqlab will not measure' "$log" ||
	   [ $((SECONDS - start)) -ge "$TIMEOUT" ]; then
		sleep 1
		kill "$pid" 2>/dev/null || true
		break
	fi
	sleep 1
done
wait "$pid" 2>/dev/null || true
rm -f "$disk.lock"
echo "bochs ($BOCHS_CPU): $((SECONDS - start)) s, serial log $log"
tr -d '\r' <"$log" | sed -n '/irqlab-results-json-begin/,/irqlab-results-json-end/p' |
	sed '1d;$d' >"$RUN_DIR/results.json"
if [ ! -s "$RUN_DIR/results.json" ]; then
	rm -f "$RUN_DIR/results.json"
	echo "bochs.sh: no results on the serial log; see $log" >&2
	exit 1
fi
echo "bochs.sh: results in $RUN_DIR/results.json"
# The run's folder, as phase C would write it, from the blob.
here=$(cd "$(dirname "$0")" && pwd)
build=$here/../build
tr -d '\r' <"$log" | sed -n '/irqlab-results-blob-begin/,/irqlab-results-blob-end/p' |
	sed '1d;$d' >"$RUN_DIR/blob.hex"
results=${RESULTS_DIR:-results}
if [ ! -s "$RUN_DIR/blob.hex" ]; then
	echo "bochs.sh: no blob on the serial log: no results folder" >&2
	exit 1
fi
if ! "$build/irqlab-rescue" --blob "$RUN_DIR/blob.hex" \
	--template "$build/report-template.html" \
	--reference "$build/icount.ref" "$results" >"$RUN_DIR/rescue.log" 2>&1; then
	cat "$RUN_DIR/rescue.log" >&2
	echo "bochs.sh: the blob gave no results folder" >&2
	exit 1
fi
folder=$(sed -n 's/.*"run_id": "\([0-9-]*\)".*/\1/p' "$RUN_DIR/results.json" | head -n 1)
echo
cat "$results/$folder/headline.txt"
echo
echo "irqlab: the report:   $results/$folder/report.html"
echo "irqlab: every figure: $results/$folder/summary.txt, results.json"
