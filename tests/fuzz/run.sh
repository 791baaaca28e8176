#!/bin/sh
# run.sh: runs folio's fuzz targets (make fuzz). For each target named:
# replays every input of tests/fuzz/regressions/TARGET/ (each once: inputs
# that crashed or hung before), then fuzzes for FUZZ_SECONDS seconds from
# the seeds (tests/fuzz/seeds.py) and the corpus kept in FUZZ_B/corpus/.
# A crash, a leak, a timeout or running out of memory fails the target;
# its input is saved under FUZZ_B/crashes/ and the log's end is printed.
# Ends with "fuzz: N passed, N failed" (one per target); exits 1 if any
# target failed.
#
# Environment: FUZZ_SECONDS (default 60), FUZZ_B (default build/fuzz),
# FUZZ_JOBS (targets fuzzed at once, default 1: CI runs two, one per
# core; the reports still come in the order given), FUZZ_ARGS (more
# libFuzzer options, e.g. -only_ascii=1).
set -u
cd "$(dirname "$0")/../.."
seconds=${FUZZ_SECONDS:-60}
b=${FUZZ_B:-build/fuzz}

# Per target: the largest input tried (a bigger one only slows the search),
# and the time one input may take. KaTeX and tree-sitter make a Markdown
# input much slower than the others: its limits are wider.
max_len() {
	case $1 in
	markdown | mdcache | pages) echo 8192 ;;
	image) echo 4096 ;;
	serve) echo 1024 ;;
	*) echo 4096 ;;
	esac
}
timeout_s() {
	case $1 in
	markdown) echo 20 ;;
	*) echo 10 ;;
	esac
}

# ASan: leaks are errors (libFuzzer checks after each input too);
# UBSan: a stack trace for each report (which -fno-sanitize-recover makes
# fatal).
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export ASAN_OPTIONS UBSAN_OPTIONS

# fuzz_one T: replays target T's regressions, then fuzzes it; prints its
# report and returns 1 if it failed.
fuzz_one() {
	t=$1
	bin=$b/fuzz_$t
	log=$b/logs/$t.log
	# a regression input is replayed whole (libFuzzer cuts an input file
	# to -max_len: the pathological ones are larger)
	replay_opts="-timeout=$(timeout_s "$t") -rss_limit_mb=2048"
	opts="$replay_opts -max_len=$(max_len "$t")"
	ok=1
	reg=tests/fuzz/regressions/$t
	nreg=0
	if [ -d "$reg" ]; then
		nreg=$(find "$reg" -type f | wc -l)
	fi
	if [ "$nreg" -gt 0 ]; then
		# shellcheck disable=SC2086
		if ! find "$reg" -type f -print0 | sort -z | xargs -0 "$bin" $replay_opts >"$log.replay" 2>&1; then
			echo "fuzz: $t: a regression input fails again:"
			tail -n 40 "$log.replay"
			ok=0
		fi
	fi
	if [ "$ok" = 1 ]; then
		mkdir -p "$b/corpus/$t"
		# shellcheck disable=SC2086
		"$bin" $opts -max_total_time="$seconds" -print_final_stats=1 \
			-dict="tests/fuzz/dict/$t.dict" -artifact_prefix="$b/crashes/$t-" \
			${FUZZ_ARGS:-} "$b/corpus/$t" "$b/seeds/$t" >"$log" 2>&1
		rc=$?
		execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
		cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1)
		if [ "$rc" != 0 ]; then
			echo "fuzz: $t: FAILED (exit $rc) after ${execs:-?} runs; the log's end ($log):"
			tail -n 60 "$log"
			ls -t "$b/crashes/$t-"* 2>/dev/null | head -n 1 | sed 's/^/fuzz: the input: /'
			echo "fuzz: once fixed, add the input to tests/fuzz/regressions/$t/ under a name that says what it found"
			ok=0
		else
			echo "fuzz: $t: ok, $nreg regression inputs, ${execs:-?} runs in ${seconds} s, ${cov:-cov: ?}"
		fi
	fi
	[ "$ok" = 1 ]
}

# run.sh --one T: one target, for the parallel run (its report on stdout).
if [ "${1:-}" = --one ]; then
	fuzz_one "$2"
	exit $?
fi

mkdir -p "$b/crashes" "$b/logs" "$b/tmp"
python3 tests/fuzz/seeds.py "$b/seeds" || exit 1
# the targets' scratch folders (mkdtemp) go here, deleted at the end
TMPDIR=$(mktemp -d "$(pwd)/$b/tmp/run.XXXXXX")
export TMPDIR
trap 'rm -rf "$TMPDIR"' EXIT INT TERM

passed=0
failed=0
# tally T RC: counts target T's result
tally() {
	if [ "$2" = 0 ]; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
	fi
}
if [ "${FUZZ_JOBS:-1}" -gt 1 ]; then
	out=$TMPDIR/out
	mkdir -p "$out"
	printf '%s\n' "$@" | xargs -P "$FUZZ_JOBS" -I{} sh -c \
		'sh "$0" --one "$1" >"$2/$1.out" 2>&1; echo $? >"$2/$1.rc.tmp"; mv "$2/$1.rc.tmp" "$2/$1.rc"' "$0" {} "$out" &
	xpid=$!
	for t in "$@"; do
		while [ ! -f "$out/$t.rc" ] && kill -0 "$xpid" 2>/dev/null; do
			sleep 0.2
		done
		cat "$out/$t.out" 2>/dev/null
		tally "$t" "$(cat "$out/$t.rc" 2>/dev/null || echo 1)"
	done
	wait "$xpid"
else
	for t in "$@"; do
		fuzz_one "$t"
		tally "$t" $?
	done
fi
echo "fuzz: $passed passed, $failed failed"
[ "$failed" = 0 ]
