#!/usr/bin/env bash
# run.sh IMAGE: one irqlab run under QEMU + OVMF, then collect.
#   boot 1: phase A + B measure and hand the results over in UEFI
#           variables, then reset (-no-reboot makes QEMU exit there)
#   boot 2: phase C writes the files on the ESP and powers off; or, where
#           the run goes in parts or repeats (runs = N), keeps what was
#           handed over and goes on to phase A + B again: one more boot
#           a part, until a boot writes the files (docs/uefi-variables.md
#           "Parts")
#   then:   the results folder is copied out with mtools
#   (handoff = serial: boot 1 prints the whole run on COM1 and powers
#   off; irqlab-rescue --blob writes the folder from its serial log)
#
# Every default can be overridden from the environment:
#   ACCEL=tcg        KVM is opt-in (ACCEL=kvm): it fails on some hosts.
#   CPU=max          the richest TCG model; set e.g. CPU=Skylake-Client.
#   MACHINE=q35      the PCIe chipset most firmware targets; MACHINE=pc too.
#   ICOUNT=shift=0,align=off,sleep=off
#                    one TSC tick per guest instruction: repeatable path
#                    lengths. ICOUNT= (empty) gives plain TCG, whose
#                    figures are host-time noise. Ignored with KVM.
#   ICOUNT_BOOTS=all -icount on every boot; 1: on boot 1 only, the one
#                    that measures (phase C's boot then runs plain TCG,
#                    which it does not notice: under -icount with several
#                    vCPUs OVMF alone takes a minute to boot).
#   CONFIG=FILE      an irqlab.cfg to put on the ESP (the image carries
#                    image/irqlab.cfg otherwise).
#   FINISH=shutdown  the config's finish key, set for the run: a QEMU run
#                    powers off at the end instead of waiting for a key.
#                    FINISH=wait-key shows the end screen; FINISH= keeps
#                    the config's own line.
#   BOOT_TIMEOUT=180 seconds per boot before it counts as hung.
#   RUN_DIR=build/run   disk, variable store and serial logs of this run.
#   RESULTS_DIR=results where the result folders are copied.
#   IRQLAB_RESCUE=build/irqlab-rescue  the image's own build of it, for
#                    a serial handoff (make run ENTRY=... sets it).
#   MAX_BOOTS=12     boots before giving up: a run takes one a handoff
#                    (each part of each of its runs) and one more.
#   BEFORE_BOOT1=CMD run before the first boot with the variable store's
#                    path as its argument (the boot tests plant variables).
#   AFTER_BOOT1=CMD  run between the boots with the variable store's path
#                    as its argument (the boot tests corrupt records so).
#   OVMF_CODE / OVMF_VARS  the 4 MB build: its variable store is 256 KiB
#                    (the 2 MB build's 56 KiB is tight, docs/uefi-variables.md).
#   BIOS=FILE        other firmware, loaded with -bios in place of OVMF's
#                    flash: U-Boot's EFI (Debian's u-boot-qemu,
#                    /usr/lib/u-boot/qemu-x86_64/u-boot.rom), which leaves
#                    SSE off (docs/run.md "The FPU and SSE"). It keeps no
#                    variable store across boots, so only handoff = serial.
#   VARS_FILE=FILE   a variable store used in place and kept, as a machine
#                    keeps its own from run to run: created from OVMF_VARS
#                    when missing (the store-cycle test reuses one).
#   DISK_FILE=FILE   the same for the disk: the ESP and its results kept
#                    from run to run.
#   OTHER_DISK=IMG   a second disk, first in the boot order: the machine's
#                    installed OS. irqlab's disk then boots second.
#   ONE_TIME_BOOT=1  with OTHER_DISK: as a user picking the stick once in
#                    the firmware's boot menu. Boot 0 lets the firmware
#                    make its boot options (and boots the other disk); the
#                    runner then sets BootNext to irqlab's option, so only
#                    boot 1 starts irqlab by choice. The rest is irqlab's.
#   SMP=1            processors: with more, irqlab parks the others
#                    (docs/controllers.md "The other CPUs").
#   SERIAL=com1      where the serial log comes from: com1 (I/O 3F8H,
#                    OVMF's console too); com2, the only UART, at I/O
#                    2F8H; pci, the only UART, a PCI 16550 (pci-serial),
#                    which OVMF takes as its console and no table
#                    describes (docs/run.md "A serial port that exists").
#   QEMU_EXTRA="..." more QEMU arguments, split at blanks (the boot tests
#                    add an IOMMU or an ACPI table so).
#   VGA=none         a machine without a display adapter (QEMU's -vga):
#                    OVMF then offers no GOP, and progress stays on serial.
#   MONITOR=SOCKET   a QEMU monitor on that Unix socket (the boot tests take
#                    screendumps through it), in place of none.
#   SECURE_BOOT=1    boot OVMF's Secure Boot build with Microsoft's keys
#                    enrolled (needs SMM), to see what a user with Secure
#                    Boot on sees: the firmware refuses irqlab, unsigned.
#   TPM=auto         an emulated TPM (swtpm), when installed, on the boots
#                    that run under -icount and on no other (TPM=on: every
#                    boot; TPM=off: none). Debian's OVMF probes for a TPM
#                    at 0xFED40000 and, finding none, busy-waits out its
#                    timeouts on the ACPI PM timer: under -icount shift=0
#                    that is billions of instructions (~52 s from QEMU's
#                    start to irqlab's first line instead of ~20 s). Under
#                    plain TCG the wait is host time, and the TPM's own
#                    cost is the greater: the firmware measures itself into
#                    it (~9.4 s to irqlab's first line with one, ~5 s
#                    without; docs/testing.md "The firmware's start").
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
image=$1
ACCEL=${ACCEL:-tcg}
CPU=${CPU:-max}
MACHINE=${MACHINE:-q35}
ICOUNT=${ICOUNT-shift=0,align=off,sleep=off}
CONFIG=${CONFIG:-}
BOOT_TIMEOUT=${BOOT_TIMEOUT:-180}
if [ -n "$CONFIG" ] && [ ! -f "$CONFIG" ]; then
	echo "irqlab: CONFIG=$CONFIG: no such file" >&2
	exit 1
fi
# The file the user knows the config by, for every message about it.
config_name="${CONFIG:-image/irqlab.cfg (on the image)}"
RUN_DIR=${RUN_DIR:-build/run}
RESULTS_DIR=${RESULTS_DIR:-results}
OVMF_CODE=${OVMF_CODE:-/usr/share/OVMF/OVMF_CODE_4M.fd}
OVMF_VARS=${OVMF_VARS:-/usr/share/OVMF/OVMF_VARS_4M.fd}
MEMORY=${MEMORY:-512M}
TPM=${TPM:-auto}
MAX_BOOTS=${MAX_BOOTS:-12}
SECURE_BOOT=${SECURE_BOOT:-}
FINISH=${FINISH-shutdown}
machine_args=(-machine "$MACHINE")
if [ -n "$SECURE_BOOT" ]; then
	OVMF_CODE=/usr/share/OVMF/OVMF_CODE_4M.ms.fd
	OVMF_VARS=/usr/share/OVMF/OVMF_VARS_4M.ms.fd
	machine_args=(-machine "$MACHINE,smm=on"
		      -global driver=cfi.pflash01,property=secure,value=on)
fi

export MTOOLS_SKIP_CHECK=1
mkdir -p "$RUN_DIR" "$RESULTS_DIR"
# What an earlier run's boots left here (boot<n>.log, the store after a
# boot): a run in fewer boots would leave them beside its own, and they
# would be read as this run's.
rm -f "$RUN_DIR"/boot[0-9]*.log "$RUN_DIR"/vars-after-boot[0-9]*.fd \
	"$RUN_DIR"/firmware[0-9]*.s
disk=$RUN_DIR/disk.img
vars=$RUN_DIR/vars.fd
if [ -n "${DISK_FILE:-}" ]; then
	[ -f "$DISK_FILE" ] || cp "$image" "$DISK_FILE"
	disk=$DISK_FILE
else
	cp "$image" "$disk"
fi
if [ -n "${VARS_FILE:-}" ]; then
	[ -f "$VARS_FILE" ] || cp "$OVMF_VARS" "$VARS_FILE"
	vars=$VARS_FILE
else
	cp "$OVMF_VARS" "$vars"	# a writable copy: the handoff lives here
fi
# What phase C does at the end: a QEMU run powers off, unless FINISH says
# otherwise (FINISH= keeps the config's own line).
if [ -n "$FINISH" ]; then
	base=$RUN_DIR/config-given.cfg
	if [ -n "$CONFIG" ]; then
		cp "$CONFIG" "$base"
	else
		mcopy -o -i "$disk@@1M" ::/EFI/irqlab/irqlab.cfg "$base"
	fi
	# The config's own finish lines commented out, not dropped, so that
	# every line keeps its number in what the firmware says of it.
	{ sed 's/^\([[:space:]]*finish[[:space:]]*=\)/# \1/' "$base"
	  echo "finish = $FINISH"; } >"$RUN_DIR/config-on-esp.cfg"
	CONFIG=$RUN_DIR/config-on-esp.cfg
fi
if [ -n "$CONFIG" ]; then
	mcopy -o -i "$disk@@1M" "$CONFIG" ::/EFI/irqlab/irqlab.cfg
fi

ICOUNT_BOOTS=${ICOUNT_BOOTS:-all}
# The accelerator for boot $1.
accel_for() {
	accel_args=(-accel "$ACCEL")
	if [ "$ACCEL" = tcg ] && [ -n "$ICOUNT" ] &&
	   { [ "$ICOUNT_BOOTS" = all ] || [ "$1" = 1 ]; }; then
		accel_args+=(-icount "$ICOUNT")
	fi
}

tpm_args=()
# A UNIX socket's path must stay under 108 bytes, which a run folder deep
# in a checkout can exceed: the TPM's socket lives in a short folder of
# its own (absolute: swtpm --daemon leaves the cwd).
tpm_dir=$(mktemp -d /tmp/irqlab-tpm.XXXXXX)
# Starts one swtpm for the next boot; --terminate makes it exit when QEMU
# disconnects, so no daemon outlives the run.
start_tpm() {
	tpm_args=()
	if [ "$TPM" = off ] || ! command -v swtpm >/dev/null; then
		return 0
	fi
	# auto: only where the boot counts instructions (accel_for).
	if [ "$TPM" = auto ] && [[ " ${accel_args[*]} " != *" -icount "* ]]; then
		return 0
	fi
	rm -rf "$tpm_dir"
	mkdir -p "$tpm_dir"
	swtpm socket --tpm2 --tpmstate "dir=$tpm_dir" --terminate --daemon \
		--ctrl "type=unixio,path=$tpm_dir/sock" \
		--pid "file=$tpm_dir/pid"
	tpm_args=(-chardev "socket,id=tpmsock,path=$tpm_dir/sock"
		  -tpmdev emulator,id=tpm,chardev=tpmsock
		  -device tpm-tis,tpmdev=tpm)
}
stop_tpm() {
	if [ -f "$tpm_dir/pid" ]; then
		kill "$(cat "$tpm_dir/pid")" 2>/dev/null || true
	fi
}
trap 'stop_tpm; rm -rf "$tpm_dir"' EXIT

# What UEFI's image verification prints when Secure Boot refuses an image
# (OVMF: "Access Denied" for irqlab, "Security Violation" for the shell).
REFUSED='Access Denied|Security Violation'

# Ends QEMU as soon as the firmware has refused the image: it would only
# try the next boot option and then sit until the boot timeout.
watch_for_refusal() {
	while sleep 1; do
		if grep -qaE "$REFUSED" "$1" 2>/dev/null; then
			pkill -f -- "$1" || true
			return
		fi
	done
}

# The firmware's share of a boot: seconds from QEMU's start to irqlab's
# first line on COM1 (docs/testing.md), or "-" where none came.
firmware_seconds() {
	local log=$1 began=$2
	while [ ! -s "$log" ] || ! grep -qa '^irqlab: ' "$log"; do
		sleep 0.2
	done
	awk -v a="$began" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }'
}

monitor_args=(-monitor none)
if [ -n "${VGA:-}" ]; then
	monitor_args+=(-vga "$VGA")
fi
if [ -n "${MONITOR:-}" ]; then
	monitor_args=(-monitor "unix:$MONITOR,server=on,wait=off")
fi

firmware_args=(-drive "if=pflash,format=raw,unit=0,readonly=on,file=$OVMF_CODE"
	       -drive "if=pflash,format=raw,unit=1,file=$vars")
if [ -n "${BIOS:-}" ]; then
	firmware_args=(-bios "$BIOS")
fi
disk_args=(-drive "if=none,id=esp,format=raw,file=$disk"
	   -device ide-hd,drive=esp,bootindex=1)
if [ -n "${OTHER_DISK:-}" ]; then
	cp "$OTHER_DISK" "$RUN_DIR/other.img"
	disk_args=(-drive "if=none,id=other,format=raw,file=$RUN_DIR/other.img"
		   -device ide-hd,drive=other,bus=ide.0,serial=OTHER-OS,bootindex=1
		   -drive "if=none,id=esp,format=raw,file=$disk"
		   -device ide-hd,drive=esp,bus=ide.1,serial=IRQLAB-ESP,bootindex=2)
fi

# The processor time, user and system, in ms, of this shell's children
# that have ended (bash's `times`, its second line), into children_ms:
# around a boot, what QEMU spent, whatever else the host runs (the loops
# beside make test, docs/testing.md), which its wall time is not. Called
# in this shell, never in $( ): a subshell's `times` counts its own
# children, none.
children_cpu_ms() {
	local user sys
	times >"$RUN_DIR/times.txt"
	read -r user sys < <(tail -n 1 "$RUN_DIR/times.txt")
	children_ms=$(awk -v u="$user" -v s="$sys" 'function ms(t,  m) {
		m = t; sub(/m.*/, "", m); sub(/^[0-9]+m/, "", t); sub(/s$/, "", t)
		return int((m * 60 + t) * 1000) }
		BEGIN { print ms(u) + ms(s) }')
}

boot() {
	local n=$1 log=$RUN_DIR/boot$1.log rc=0 watcher serial_args
	local start=$SECONDS firmware_timer cpu_before
	case ${SERIAL:-com1} in
	com1) serial_args=(-serial "file:$log") ;;
	com2) serial_args=(-serial none
			   -chardev "file,id=irqlab-serial,path=$log"
			   -device isa-serial,chardev=irqlab-serial,iobase=0x2f8,irq=3) ;;
	pci) serial_args=(-serial none
			  -chardev "file,id=irqlab-serial,path=$log"
			  -device pci-serial,chardev=irqlab-serial) ;;
	*) echo "run.sh: SERIAL=$SERIAL: com1, com2 or pci" >&2; exit 2 ;;
	esac
	accel_for "$n"
	start_tpm
	: >"$log"
	children_cpu_ms
	cpu_before=$children_ms
	watch_for_refusal "$log" &
	watcher=$!
	firmware_seconds "$log" "$EPOCHREALTIME" >"$RUN_DIR/firmware$n.s" &
	firmware_timer=$!
	timeout --foreground "$BOOT_TIMEOUT" qemu-system-x86_64 \
		"${machine_args[@]}" "${accel_args[@]}" -cpu "$CPU" -m "$MEMORY" \
		"${tpm_args[@]}" \
		-smp "${SMP:-1}" -no-reboot -display none "${monitor_args[@]}" \
		${QEMU_EXTRA:-} \
		"${serial_args[@]}" -net none \
		"${firmware_args[@]}" "${disk_args[@]}" \
		</dev/null 2> >(grep -v 'icount sleep disabled and no active timers' >&2) ||
		rc=$?
	kill "$watcher" 2>/dev/null || true
	wait "$watcher" 2>/dev/null || true
	# A timer still waiting saw no line (or none in its last 0.2 s).
	if kill "$firmware_timer" 2>/dev/null; then
		wait "$firmware_timer" 2>/dev/null || true
		echo - >"$RUN_DIR/firmware$n.s"
	fi
	wait "$firmware_timer" 2>/dev/null || true
	stop_tpm
	echo "boot $n: $((SECONDS - start)) s, firmware $(cat "$RUN_DIR/firmware$n.s" 2>/dev/null || echo -) s, QEMU exit $rc, serial log $log"
	children_cpu_ms
	echo "boot $n: QEMU's processor time $((children_ms - cpu_before)) ms"
	if grep -qaE "$REFUSED" "$log"; then
		echo "irqlab: the firmware refused to start irqlab: Secure Boot is" \
		     "on, and irqlab is not signed (\"$(grep -aoE "$REFUSED" "$log" |
		     head -n 1)\" in $log). Turn Secure Boot off in the firmware" \
		     "setup for the run, or enrol the image (shim/MOK)." >&2
		return 1
	fi
	if [ $rc -eq 124 ]; then
		echo "irqlab: boot $n hung for ${BOOT_TIMEOUT}s; see $log" >&2
		return 1
	fi
	if [ $rc -ne 0 ]; then
		echo "irqlab: QEMU failed in boot $n (exit $rc); see $log" >&2
		return 1
	fi
}

# What the firmware said of the config (efi/config_file.c): each list,
# "config: N error(s) in FILE:" then a line per problem, printed as it
# said them, naming the user's file.
config_problems() {
	tr -d '\r' <"$1" | awk -v name="$config_name" '
		/^config: [0-9]+ (error|warning)\(s\) in / {
			sub(/ in .*/, "")
			sub(/^config: /, "")
			print "irqlab: " $0 " in " name ":"; listing = 1; next }
		listing && (/^config: / || /^irqlab/ || /^$/) { listing = 0 }
		listing { print "  " $0 }' >&2
}

# With quick = 1, the counts it set, from the config as the firmware
# read it ("config: key=value ..."), wrapped within 80 columns like the
# runner's other last lines.
quick_counts() {
	local counts
	counts=$(tr -d '\r' <"$1" | grep -a '^config: .*quick=1' | head -n 1 |
		grep -oE '(samples|warmup|floor_samples|primitive_blocks|cold_samples|thrash_samples|gap_samples)=[0-9]+' |
		tr '\n' ' ') || true
	[ -n "$counts" ] || return 0	# quick = 0: nothing to say
	echo "irqlab: quick = 1: the counts used:"
	echo "$counts" | fold -s -w 76 | sed 's/ *$//; s/^/  /'
}

# The guest's machine-readable status lines (docs/status-lines.md):
# "irqlab-status: EVENT key=value ...". status LOG EVENT prints the
# details of the last such line, or fails when there is none.
status() {
	tr -d '\r' <"$1" | sed -n "s/.*irqlab-status: $2 *//p" | tail -n 1 |
		grep .
}

if [ -n "${ONE_TIME_BOOT:-}" ]; then
	boot 0
	cp "$vars" "$RUN_DIR/vars-after-boot0.fd"
	"$here/boot-next.py" "$vars" IRQLAB-ESP
fi
if [ -n "${BEFORE_BOOT1:-}" ]; then
	$BEFORE_BOOT1 "$vars"
fi
boot 1
config_problems "$RUN_DIR/boot1.log"
quick_counts "$RUN_DIR/boot1.log"
# handoff = serial (docs/run.md "Firmware that cannot keep results"):
# boot 1 printed the whole run on COM1 and powered off, writing nothing
# to the store; irqlab-rescue --blob writes the files from its serial
# log, as phase C would.
if status "$RUN_DIR/boot1.log" serial-handoff >/dev/null; then
	cp "$vars" "$RUN_DIR/vars-after-boot1.fd"
	build=$here/../build
	if ! "${IRQLAB_RESCUE:-$build/irqlab-rescue}" --blob "$RUN_DIR/boot1.log" \
		--template "$build/report-template.html" \
		--reference "$build/icount.ref" "$RESULTS_DIR" \
		>"$RUN_DIR/rescue.log" 2>&1; then
		cat "$RUN_DIR/rescue.log" >&2
		echo "irqlab: boot 1's serial log gave no results folder; see" \
		     "$RUN_DIR/boot1.log" >&2
		exit 1
	fi
	folder=$(sed -n 's|.*wrote and verified .*/\([0-9-]*\)/results\.json .*|\1|p' \
		"$RUN_DIR/rescue.log" | head -n 1)
	echo "irqlab: handoff = serial: the results came on COM1" \
	     "($RUN_DIR/boot1.log); nothing was written to the variable store"
	echo
	cat "$RESULTS_DIR/$folder/headline.txt"
	config_problems "$RUN_DIR/boot1.log" 2>&1
	echo
	"$here/run-end.sh" "$RESULTS_DIR/$folder"
	exit 0
fi
if ! status "$RUN_DIR/boot1.log" handed-over >/dev/null; then
	if tr -d '\r' <"$RUN_DIR/boot1.log" | grep -qa 'has the errors listed above'; then
		# The config's errors say it all: no more lines after them.
		echo "irqlab: nothing measured: fix the lines above in $config_name" >&2
		exit 1
	fi
	tr -d '\r' <"$RUN_DIR/boot1.log" | grep -a 'irqlab will not measure' >&2 || true
	echo "irqlab: boot 1 did not hand results over; see $RUN_DIR/boot1.log" >&2
	exit 1
fi
# The store as phase B left it, for inspecting the handoff itself.
cp "$vars" "$RUN_DIR/vars-after-boot1.fd"
if [ -n "${AFTER_BOOT1:-}" ]; then
	$AFTER_BOOT1 "$vars"
fi
# Each boot but the last measures the next part of the run, or the next
# run of a series (runs = N); the last writes the files.
n=1
folder=
while [ -z "$folder" ]; do
	n=$((n + 1))
	if [ "$n" -gt "$MAX_BOOTS" ]; then
		echo "irqlab: no results after $MAX_BOOTS boots; see $RUN_DIR" >&2
		exit 1
	fi
	boot "$n"
	folder=$({ status "$RUN_DIR/boot$n.log" results || true; } |
		sed -n 's/^folder=//p')
	if [ -z "$folder" ] && ! status "$RUN_DIR/boot$n.log" handed-over >/dev/null; then
		echo "irqlab: boot $n wrote no results; see $RUN_DIR/boot$n.log" >&2
		exit 1
	fi
	# ICOUNT_BOOTS=1 counted boot 1 alone: a later boot that measured
	# (a part, a series' next run) ran plain TCG, its figures noise.
	if [ -z "$folder" ] && [ "$ACCEL" = tcg ] && [ -n "$ICOUNT" ] &&
	   [ "$ICOUNT_BOOTS" = 1 ]; then
		echo "irqlab: boot $n measured again (a part or a series' next" \
		     "run) without -icount: ICOUNT_BOOTS=1 is for a run that" \
		     "hands over once; use ICOUNT_BOOTS=all" >&2
		exit 1
	fi
done
"$here/collect.sh" "$disk" "$RESULTS_DIR" >/dev/null
# The answer first (phase C's end screen, headline.txt), then where the
# rest is: every row and figure are in the files, not on the terminal.
echo
cat "$RESULTS_DIR/$folder/headline.txt" 2>/dev/null ||
	echo "irqlab: no headline.txt in $RESULTS_DIR/$folder"
config_problems "$RUN_DIR/boot1.log" 2>&1
echo
"$here/run-end.sh" "$RESULTS_DIR/$folder"
