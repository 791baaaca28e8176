#!/bin/sh
# run.sh: runs every test suite and ends with one line "total: N passed, N failed".
# FOLIO is the binary under test, UNIT the unit-test binary (set by the Makefile);
# SUITES, when set, names the CLI suites to run (make check: the quick ones).
set -u
FOLIO=${FOLIO:-./folio}
UNIT=${UNIT:-build/release/unit_tests}
export FOLIO
passed=0
failed=0
suites_failed=""

# count: reads a suite's output, adds its closing "N passed, N failed" line.
count() {
	name=$1
	out=$2
	rc=$3
	line=$(printf '%s\n' "$out" | grep -aE '^([A-Za-z-]+: )?[0-9]+ passed, [0-9]+ failed' | tail -n 1)
	if [ -z "$line" ]; then
		echo "$name: no result line (exit $rc)"
		failed=$((failed + 1))
		suites_failed="$suites_failed $name"
		return
	fi
	p=$(echo "$line" | sed -E 's/^([A-Za-z-]+: )?([0-9]+) passed, ([0-9]+) failed.*/\2/')
	f=$(echo "$line" | sed -E 's/^([A-Za-z-]+: )?([0-9]+) passed, ([0-9]+) failed.*/\3/')
	passed=$((passed + p))
	failed=$((failed + f))
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		# a crash or sanitizer report after the counts still fails the suite
		failed=$((failed + 1))
	fi
	[ "$rc" -ne 0 ] && suites_failed="$suites_failed $name"
	echo "$name: $p passed, $f failed"
}

out=$("$UNIT" tests/tmpl man/folio-template.5 2>&1)
rc=$?
printf '%s\n' "$out" | grep -avE '^unit: ' | grep -aE 'FAIL|ERROR|runtime error|Sanitizer|^---|^template spec|^man page' | head -200
count unit "$out" "$rc"

if [ -n "${SUITES:-}" ]; then
	list=$(for n in $SUITES; do printf 'tests/cli/%s.sh\n' "$n"; done)
else
	list=$(ls tests/cli/test_*.sh)
fi
for t in $list; do
	[ -f "$t" ] || continue
	name=$(basename "$t" .sh)
	out=$(sh "$t" 2>&1)
	rc=$?
	printf '%s\n' "$out" | grep -aE '^FAIL' | head -50
	count "$name" "$out" "$rc"
done

[ -n "$suites_failed" ] && echo "failed suites:$suites_failed"
echo "total: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
