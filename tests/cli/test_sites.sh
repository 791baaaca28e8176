# test_sites.sh: golden whole-site tests. Each folder tests/sites/CASE holds
# site/ (a site folder) and either expected/ (the exact output) or
# expected.stderr (the exact diagnostics; the build must exit 1 and write
# nothing). An optional `args` file holds extra build options (one line).
# REGRESS_UPDATE=1 rewrites the expectations from what folio does now:
# review the diff before committing it.
. "$(dirname "$0")/lib.sh"

# Builds are reproducible only against a fixed clock.
export SOURCE_DATE_EPOCH=1790000000 # 2026-09-21
for dir in tests/sites/*/; do
	[ -d "$dir/site" ] || continue
	name=$(basename "$dir")
	args=""
	[ -f "$dir/args" ] && args=$(cat "$dir/args")
	out="$TMP/$name"
	# shellcheck disable=SC2086
	"$FOLIO" build "$dir/site" -o "$out" -j 2 $args >"$TMP/stdout" 2>"$TMP/stderr"
	rc=$?
	out_text=$(cat "$TMP/stdout")
	err=$(cat "$TMP/stderr")
	if [ -n "${REGRESS_UPDATE:-}" ]; then
		if [ "$rc" -eq 0 ]; then
			rm -rf "$dir/expected" "$dir/expected.stderr"
			cp -r "$out" "$dir/expected"
			rm -f "$dir/expected/.folio-output"
		else
			rm -rf "$dir/expected"
			cp "$TMP/stderr" "$dir/expected.stderr"
		fi
		echo "updated $name"
		continue
	fi
	if [ -f "$dir/expected.stderr" ]; then
		check "$name: exits 1" test "$rc" -eq 1
		check "$name: diagnostics as expected" cmp -s "$TMP/stderr" "$dir/expected.stderr"
		if ! cmp -s "$TMP/stderr" "$dir/expected.stderr"; then
			diff "$dir/expected.stderr" "$TMP/stderr" | head -20
		fi
		check "$name: nothing written" test ! -e "$out"
	else
		check "$name: builds" test "$rc" -eq 0
		rm -f "$out/.folio-output"
		if [ -d "$dir/expected" ]; then
			check "$name: output as expected" diff -r "$dir/expected" "$out" >/dev/null
			if ! diff -r "$dir/expected" "$out" >/dev/null 2>&1; then
				diff -r "$dir/expected" "$out" | head -30
			fi
		fi
	fi
done
finish
