#!/usr/bin/env bash
# tests/fuzz/run.sh SECONDS HARNESS...
# Runs each libFuzzer harness for SECONDS on its seed corpus
# (tests/fuzz/corpus/<name>/, read only) and its own growing one
# (build/fuzz-corpus/<name>/), and reports executions and any crash.
# Ends with "fuzz: N passed, N failed": a harness passes when it ran its
# time out without a crash.
set -u
here=$(cd "$(dirname "$0")" && pwd)
seconds=$1
shift
passed=0
failed=0
for bin in "$@"; do
	name=$(basename "$bin")
	name=${name#fuzz_}
	work=$(dirname "$(dirname "$bin")")/fuzz-corpus/$name
	mkdir -p "$work" "$work-crashes"
	log=$(mktemp)
	"$bin" -max_total_time="$seconds" -print_final_stats=1 \
		-artifact_prefix="$work-crashes/" "$work" "$here/corpus/$name" \
		>"$log" 2>&1
	rc=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	if [ "$rc" -eq 0 ]; then
		passed=$((passed + 1))
		echo "ok    fuzz $name: ${runs:-?} executions in ${seconds}s, no crash"
	else
		failed=$((failed + 1))
		echo "FAIL  fuzz $name: exit $rc after ${runs:-?} executions; inputs in $work-crashes"
		grep -E 'ERROR|SUMMARY|runtime error' "$log" | head -5
	fi
	rm -f "$log"
done
echo "fuzz: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
