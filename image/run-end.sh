#!/usr/bin/env bash
# run-end.sh FOLDER: a runner's last lines, after the headline: where the
# run's files are, and, where the run ended before its plan's last row,
# that it did, loudly and last, naming the first row never measured
# (results.json handoff.unmeasured_from_row; docs/uefi-variables.md
# "Parts"). image/run.sh and image/bochs.sh end with it.
set -euo pipefail

folder=$1
echo "irqlab: the report:   $folder/report.html"
echo "irqlab: every figure: $folder/summary.txt, results.json"
# A folder of discarded records has no results.json: nothing to say.
from= parts=
if [ -f "$folder/results.json" ]; then
	from=$(sed -n 's/.*"unmeasured_from_row": \([0-9][0-9]*\).*/\1/p' \
		"$folder/results.json" | head -n 1)
	parts=$(sed -n 's/.*"parts": \([0-9][0-9]*\).*/\1/p' \
		"$folder/results.json" | head -n 1)
fi
if [ -n "$from" ]; then
	red= plain=
	if [ -t 1 ]; then
		red=$(printf '\033[1;31m') plain=$(printf '\033[0m')
	fi
	echo "${red}irqlab: THE RUN ENDED EARLY: plan rows from $from on were" \
	     "never measured${plain}"
	echo "${red}irqlab: its ${parts:-1} part(s) hold rows before $from" \
	     "only; the files say so too${plain}"
fi
