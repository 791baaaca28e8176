#!/bin/sh
# valgrind.sh FOLIO UNIT: the whole test suite (tests/run.sh) under valgrind
# memcheck: the unit-test binary and every folio a test runs. `make
# valgrind` calls it with the release binaries (-O2 -g).
#
# FOLIO and UNIT are replaced by wrappers (in build/valgrind/bin) that exec
# valgrind on them. Each process writes its report to a log of its own in
# build/valgrind/logs; valgrind's -q keeps a clean process's log empty, so
# a non-empty log is an error (an invalid read or write, a jump on an
# uninitialised value, a bad free) or a definite or indirect leak. Such a
# process also exits with status 97, which the test that ran it usually
# notices; this script fails anyway when any log is non-empty, and prints
# each of those logs.
#
# Memory still reachable at exit (libraries' globals, the threads' caches
# kept for reuse) and possibly lost memory is not reported. Forked children
# (folio's background removal of a big old site) are not checked: they
# exit without freeing what they inherited.
#
# The suites see FOLIO_VALGRIND=1 and may skip what cannot run under
# valgrind (they say why), and WAIT_SCALE=20: their waits for a server or
# a rebuild may last twenty times longer. VALGRIND_OPTS (read by valgrind
# itself) adds options, e.g. --track-origins=yes.
set -u
cd "$(dirname "$0")/.."
top=$(pwd)
if [ $# -ne 2 ]; then
	echo "usage: sh tests/valgrind.sh FOLIO UNIT" >&2
	exit 2
fi
if ! command -v valgrind >/dev/null 2>&1; then
	echo "valgrind: not installed (scripts/deps.sh installs it when run as root)" >&2
	exit 1
fi
abs() { case "$1" in /*) echo "$1" ;; *) echo "$top/$1" ;; esac; }
folio=$(abs "$1")
unit=$(abs "$2")
dir=$top/build/valgrind
rm -rf "$dir/bin" "$dir/logs"
mkdir -p "$dir/bin" "$dir/logs"

supp=""
[ -f tests/valgrind.supp ] && supp="--suppressions=$top/tests/valgrind.supp"
# wrapper NAME BINARY: build/valgrind/bin/NAME, which runs BINARY under
# valgrind with the arguments it is given.
wrapper() {
	cat >"$dir/bin/$1" <<EOF
#!/bin/sh
exec valgrind -q --error-exitcode=97 --leak-check=full --show-leak-kinds=definite,indirect \\
	--errors-for-leak-kinds=definite,indirect --num-callers=40 --child-silent-after-fork=yes \\
	$supp --log-file="$dir/logs/$1.%p.log" "$2" "\$@"
EOF
	chmod +x "$dir/bin/$1"
}
wrapper folio "$folio"
wrapper unit_tests "$unit"

start=$(date +%s)
FOLIO_VALGRIND=1 WAIT_SCALE=${WAIT_SCALE:-20} FOLIO=$dir/bin/folio UNIT=$dir/bin/unit_tests sh tests/run.sh
rc=$?
secs=$(($(date +%s) - start))

logs=$(find "$dir/logs" -type f | wc -l)
bad=0
for f in "$dir"/logs/*.log; do
	[ -s "$f" ] || continue
	bad=$((bad + 1))
	echo "---- valgrind: $(basename "$f")"
	head -n 200 "$f"
done
echo "valgrind: $logs processes checked, $bad with errors or leaks, in $secs s"
[ "$rc" -eq 0 ] && [ "$bad" -eq 0 ]
