#!/bin/sh
# Builds every example, stopping at the first failure.
set -eu
out=${OUT:-build}
mkdir -p "$out"
for f in examples/*.c; do
	name=$(basename "$f" .c)
	if ! cc -O2 -o "$out/$name" "$f" 2>/dev/null; then
		echo "failed: $name" >&2
		exit 1
	fi
done
ls -la "$out" | wc -l
export DONE=1
