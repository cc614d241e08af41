#!/usr/bin/env bash
# build-bochs.sh [--smp | --plain [--smp]] SOURCE.tar.xz OUT: builds Bochs
# from a source snapshot for exact instruction counts (docs/emulators.md
# "Two Bochs builds"). --smp adds --enable-smp, for `cpu: count=N`; with
# one processor that build runs the same single-CPU loop, so its counts
# are the same (docs/emulators.md "Several processors"). --plain builds
# the optimised kind instead (--enable-all-optimizations, no patch), as
# the Bochs project's own build is: OUT gets bin/bochs, or with --smp
# too bin/bochs-smp.
#
# Bochs' TSC is its instruction counter, but a build with handler
# chaining or trace linking (both switched on by
# --enable-all-optimizations) advances it only when a chain of traces
# returns to the CPU loop, so rdtsc inside a chain reads a stale count.
# This build leaves both off: every instruction ticks, as QEMU's
# -icount does. It is slower (about 25%) and takes about 2.5 minutes on
# two cores. OUT gets bin/bochs and share/ (the snapshot's OVMF and VGA
# BIOS), the layout image/bochs.sh expects.
#
# Before configure it applies bochs-pmu.patch (patch -p1; the build stops
# if it does not apply): performance counters that count, APERF/MPERF
# and the clock-control MSRs, as far as each CPU model's CPUID
# advertises them, with the state firmware leaves in them (cpu:
# pmu_preset) and the MSRs every such CPU has that Bochs leaves unknown
# (docs/emulators.md "The counting PMU"). The prebuilt optimised Bochs
# has none of it.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
smp= plain= name=bochs
if [ "${1:-}" = --plain ]; then plain=1; shift; fi
if [ "${1:-}" = --smp ]; then smp=--enable-smp; shift; fi
if [ -n "$plain" ] && [ -n "$smp" ]; then name=bochs-smp; fi
source_tarball=$(realpath "$1")
out=$(realpath -m "$2")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tar xJf "$source_tarball" -C "$work"
cd "$work"/*/
# Both kinds: Debian's flags for FRED, CET, AVX and PCI, no GUI.
common="--enable-x86-64 --enable-fred --enable-cet --enable-avx --enable-evex
	--enable-pci --enable-cpu-level=6 --with-nogui --disable-docbook $smp"

# make, then bin/NAME and share/ (the snapshot's OVMF and VGA BIOS).
build_into_out() {
	make -j"$(nproc)" >make.log 2>&1
	mkdir -p "$out/bin" "$out/share"
	cp bochs "$out/bin/$name"
	cp bios/OVMF/OVMF-pure-efi.fd bios/VGABIOS-lgpl/VGABIOS-lgpl-latest.bin \
		"$out/share/"
	echo "build-bochs.sh: $out/bin/$name ($1)"
}

if [ -n "$plain" ]; then
	# shellcheck disable=SC2086
	./configure $common --enable-all-optimizations >configure.log
	build_into_out "optimised: emulator-coarse"
	exit 0
fi
if ! patch -p1 --forward --batch <"$here/bochs-pmu.patch" >patch.log; then
	cat patch.log >&2
	echo "build-bochs.sh: bochs-pmu.patch does not apply to this snapshot" >&2
	exit 1
fi
# shellcheck disable=SC2086
./configure $common --enable-repeat-speedups --enable-fast-function-calls \
	--disable-handlers-chaining --disable-trace-linking >configure.log
grep -q '^#define BX_SUPPORT_HANDLERS_CHAINING_SPEEDUPS 0' config.h
grep -q '^#define BX_ENABLE_TRACE_LINKING 0' config.h
grep -q '^[[:space:]]*pmu\.o' cpu/Makefile
if [ -n "$smp" ]; then grep -q '^#define BX_SUPPORT_SMP 1' config.h; fi
build_into_out "exact instruction counts, counting PMU"
