#!/bin/sh
# test_pathological.sh: every pathological site of tests/pathological/gen.py
# (1 MiB of deep nesting, openers without closers, YAML bombs, a 100 MB
# post, runaway templates, invalid UTF-8, ...) builds, or fails with a
# path:line:col error, within 5 s and 3 GiB: no hang, crash or
# out-of-memory. The checks are in tests/pathological/run.py; the speed
# goal (0.5 s each) is measured by `make bench-patho`, not here. Under an
# ASan build the time limit is 20 s on 256 KiB inputs, under valgrind 300 s
# on 64 KiB ones (see run.py).
dir=$(dirname "$0")/../pathological
if ! command -v python3 >/dev/null 2>&1; then
	echo "note: python3 not found; pathological inputs skipped"
	echo "0 passed, 0 failed"
	exit 0
fi
exec python3 "$dir/run.py"
