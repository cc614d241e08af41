#!/usr/bin/env bash
# tests/fuzz/run.sh SECONDS HARNESS...
# Runs each libFuzzer harness for SECONDS on its seeds and its own
# growing corpus (build/fuzz-corpus/<name>/), and reports executions and
# any crash. The seeds are the harness's own (tests/fuzz/corpus/<name>/)
# and the real tables the unit tests read (tests/unit/data/), each kept
# once in the repository and gathered here.
# Ends with "fuzz: N passed, N failed": a harness passes when it ran its
# time out without a crash.
set -u
here=$(cd "$(dirname "$0")" && pwd)
seconds=$1
shift
passed=0
failed=0

# The unit tests' fixtures each harness parses, by file name.
fixtures() {
	case $1 in
	madt) echo '*-APIC.bin' ;;
	fadt) echo '*-FACP.bin' ;;
	hpet) echo '*-HPET.bin' ;;
	dmar) echo '*-DMAR.bin' ;;
	smbios) echo '*-SMBIOS.bin' ;;
	varstore) echo '*-VARS-*.bin' ;;
	esac
}

# One harness: its report line(s) to $2.
fuzz_one() {
	local bin=$1 out=$2 name work seeds pattern log rc runs
	name=$(basename "$bin")
	name=${name#fuzz_}
	work=$(dirname "$(dirname "$bin")")/fuzz-corpus/$name
	seeds=$work-seeds
	rm -rf "$seeds"
	mkdir -p "$work" "$work-crashes" "$seeds"
	if [ -d "$here/corpus/$name" ]; then
		cp "$here/corpus/$name"/* "$seeds"/
	fi
	pattern=$(fixtures "$name")
	if [ -n "$pattern" ]; then
		cp "$here"/../unit/data/$pattern "$seeds"/
	fi
	log=$(mktemp)
	"$bin" -max_total_time="$seconds" -print_final_stats=1 \
		-artifact_prefix="$work-crashes/" "$work" "$seeds" \
		>"$log" 2>&1
	rc=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	if [ "$rc" -eq 0 ]; then
		echo "ok    fuzz $name: ${runs:-?} executions in ${seconds}s, no crash" >"$out"
	else
		{ echo "FAIL  fuzz $name: exit $rc after ${runs:-?} executions; inputs in $work-crashes"
		  grep -E 'ERROR|SUMMARY|runtime error' "$log" | head -5; } >"$out"
	fi
	rm -f "$log"
}

# As many harnesses at once as the machine has cores: each runs its time
# out on one, so a smoke run of N takes N/cores times SECONDS.
jobs=$(nproc 2>/dev/null || echo 1)
results=$(mktemp -d)
k=0
for bin in "$@"; do
	while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do
		wait -n
	done
	k=$((k + 1))
	fuzz_one "$bin" "$results/$k" &
done
wait
for n in $(seq 1 "$k"); do
	if [ -s "$results/$n" ] && head -n 1 "$results/$n" | grep -q '^ok '; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
	fi
	cat "$results/$n" 2>/dev/null || echo "FAIL  fuzz: harness $n said nothing"
done
rm -rf "$results"
echo "fuzz: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
