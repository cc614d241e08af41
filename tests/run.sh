#!/usr/bin/env bash
# tests/run.sh UNIT_TEST_BINARY...
# tests/run.sh --long: make test-long's boot entries alone.
# Runs the host unit tests (cmocka), the QEMU boot tests and the browser
# tests of the report pages they leave, and ends
# with one line "N passed, N failed" counting every test case of both.
set -u

here=$(cd "$(dirname "$0")" && pwd)
passed=0
failed=0

for t in "$@"; do
	[ "$t" = --long ] && continue
	out=$("$t" 2>&1)
	rc=$?
	printf '%s\n' "$out" | grep -E '^\[ *(FAILED|ERROR|LINE) *\]|^==[0-9]+==ERROR' || true
	p=$(printf '%s\n' "$out" | sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p')
	f=$(printf '%s\n' "$out" | sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p')
	p=${p:-0}
	f=${f:-0}
	# A sanitizer report or a crash after the last case still fails.
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1
	fi
	echo "unit $(basename "$t"): $p passed, $f failed"
	passed=$((passed + p))
	failed=$((failed + f))
done

# A Python suite: its lines are shown (all but the passing ones for the
# layout check), and its closing "SUITE: N passed, N failed" is added in.
# What a suite skipped for want of a tool (never under CI, which fails
# instead: tests/checks.py), listed again at the end.
skipped=$(mktemp)
trap 'rm -f "$skipped"' EXIT

suite() {
	local name=$1 quiet=$2 log line
	shift 2
	log=$(mktemp)
	if [ "$quiet" = quiet ]; then
		"$@" | tee "$log" | grep -v '^ok '
	else
		"$@" | tee "$log"
	fi
	line=$(sed -n "s/^$name: \([0-9]*\) passed, \([0-9]*\) failed\$/\1 \2/p" "$log")
	grep '^skip ' "$log" >>"$skipped" || true
	rm -f "$log"
	if [ -n "$line" ]; then
		passed=$((passed + ${line% *}))
		failed=$((failed + ${line#* }))
	else
		echo "$name tests did not finish"
		failed=$((failed + 1))
	fi
}

# make test-long: the boot entries of scale (docs/testing.md), alone.
if [ "${1:-}" = --long ]; then
	suite boot all python3 "$here/boot/boot_test.py" --long
	suite browser all python3 "$here/browser/pages_test.py" --long
	echo "$passed passed, $failed failed"
	[ "$failed" -eq 0 ]
	exit
fi

# The house rule: includes point down the floors, no module loops.
suite layout quiet python3 "$here/layout/floors.py"
# README says what happens: its figures against the code and tests that
# hold them, its tables against image/run.sh and make help.
suite readme all python3 "$here/layout/readme_figures.py"
# README's "Where a change lands" for a mitigation variant, tried on a
# copy of the tree: its four files build and pass; each forgotten fails.
suite throwaway all python3 "$here/layout/throwaway_variant.py"
# The lab server's sorter on what a hostile machine uploads.
suite lab all python3 "$here/lab/sorter_test.py"
# make fleet's reader on a lab where machines left bad results.json.
suite fleet all python3 "$here/lab/fleet_test.py"
# A change to the icount reference names every row it changes.
suite reference all python3 "$here/boot/reference_check.py"
suite boot all python3 "$here/boot/boot_test.py"
# The report pages of the boot tests' runs, in a real browser.
suite browser all python3 "$here/browser/pages_test.py"

# Each skip says why, and the Bochs ones the command that builds it
# (docs/emulators.md "Bochs for anyone").
if [ -s "$skipped" ]; then
	echo
	echo "skipped, $(wc -l <"$skipped") check(s): each ran nowhere here"
	cut -c7- "$skipped"
	if grep -q 'make bochs' "$skipped"; then
		echo "to run the Bochs ones: make bochs BOCHS_SOURCE=bochs-<commit>-src.tar.xz" \
		     "(docs/emulators.md \"Bochs for anyone\")"
	fi
	echo
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
