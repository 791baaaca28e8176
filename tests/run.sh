#!/bin/sh
# run.sh: runs every test suite and ends with one line "total: N passed, N failed".
# FOLIO is the binary under test, UNIT the unit-test binary (set by the Makefile);
# SUITES, when set, names the CLI suites to run (make check: the quick ones).
# TEST_JOBS=N runs the unit tests and the suites N at a time (make check: 2),
# in the order given (the longest first, for the best fit); their reports
# still come in that order. Unset, they run one at a time (make test, asan,
# valgrind: suites that time folio or a server want the machine alone).
# SOLO names suites that run one at a time after the parallel ones (CI:
# the server under load). Each suite's line ends with its wall seconds.
set -u
# run.sh --job DIR NAME: runs one of them (unit, or a suite's file) for the
# parallel run, into DIR/NAME.out, then DIR/NAME.rc (which says it is done).
if [ "${1:-}" = --job ]; then
	name=$(basename "$3" .sh)
	t0=$(date +%s)
	if [ "$3" = unit ]; then
		"${UNIT:-build/release/unit_tests}" tests/tmpl man/folio-template.5 >"$2/$name.out" 2>&1
	else
		sh "$3" >"$2/$name.out" 2>&1
	fi
	rc=$?
	echo $(($(date +%s) - t0)) >"$2/$name.s"
	echo $rc >"$2/$name.rc.tmp" && mv "$2/$name.rc.tmp" "$2/$name.rc"
	exit 0
fi
FOLIO=${FOLIO:-./folio}
UNIT=${UNIT:-build/release/unit_tests}
export FOLIO
passed=0
failed=0
suites_failed=""

# count: reads a suite's output, adds its closing "N passed, N failed" line
# (its wall seconds, $4, after it).
count() {
	name=$1
	out=$2
	rc=$3
	secs=${4:-?}
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
	echo "$name: $p passed, $f failed ($secs s)"
}

# report NAME OUT RC SECONDS: prints a finished run's failures and counts it.
report() {
	if [ "$1" = unit ]; then
		printf '%s\n' "$2" | grep -avE '^unit: ' | grep -aE 'FAIL|ERROR|runtime error|Sanitizer|^---|^template spec|^man page' | head -200
	else
		printf '%s\n' "$2" | grep -aE '^FAIL' | head -50
	fi
	count "$1" "$2" "$3" "${4:-?}"
}

# run_one T: runs unit or a suite's file T now and reports it.
run_one() {
	t0=$(date +%s)
	if [ "$1" = unit ]; then
		out=$("$UNIT" tests/tmpl man/folio-template.5 2>&1)
	else
		out=$(sh "$1" 2>&1)
	fi
	rc=$?
	report "$(basename "$1" .sh)" "$out" "$rc" $(($(date +%s) - t0))
}

if [ -n "${SUITES:-}" ]; then
	list=$(for n in $SUITES; do printf 'tests/cli/%s.sh\n' "$n"; done)
else
	list=$(ls tests/cli/test_*.sh)
fi
jobs=unit
solo=""
for t in $list; do
	[ -f "$t" ] || continue
	case " ${SOLO:-} " in
	*" $(basename "$t" .sh) "*) solo="$solo $t" ;;
	*) jobs="$jobs $t" ;;
	esac
done

if [ "${TEST_JOBS:-1}" -gt 1 ]; then
	dir=$(mktemp -d "${TMPDIR:-/tmp}/folio-run.XXXXXX")
	trap 'rm -rf "$dir"' EXIT
	trap 'exit 130' INT TERM
	export UNIT
	printf '%s\n' $jobs | xargs -P "$TEST_JOBS" -I{} sh "$0" --job "$dir" {} &
	xpid=$!
	for t in $jobs; do
		name=$(basename "$t" .sh)
		# wait for it, unless xargs has ended without running it
		while [ ! -f "$dir/$name.rc" ] && kill -0 "$xpid" 2>/dev/null; do
			sleep 0.1
		done
		if [ -f "$dir/$name.rc" ]; then
			report "$name" "$(cat "$dir/$name.out")" "$(cat "$dir/$name.rc")" "$(cat "$dir/$name.s")"
		else
			report "$name" "" 1
		fi
	done
	wait "$xpid"
else
	for t in $jobs; do
		run_one "$t"
	done
fi
for t in $solo; do
	run_one "$t"
done

[ -n "$suites_failed" ] && echo "failed suites:$suites_failed"
echo "total: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
