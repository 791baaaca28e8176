# test_man1.sh: every example of man/folio.1 runs and exits 0.
. "$(dirname "$0")/lib.sh"

n=0
# examples are the ".EX" lines that start with "$ folio"
sed -n 's/^\$ folio //p' man/folio.1 | sed 's/\\-/-/g' > "$TMP/examples"
while IFS= read -r args; do
	n=$((n + 1))
	# shellcheck disable=SC2086
	run $args
	check "man folio.1 example: folio $args" test "$rc" -eq 0
	check "man folio.1 example prints something: folio $args" test -n "$out"
done < "$TMP/examples"
check "man folio.1 has examples" test "$n" -ge 3
if command -v groff >/dev/null 2>&1; then
	warnings=$(groff -man -Tutf8 -ww man/folio.1 2>&1 >/dev/null)
	check "man folio.1 formats without warnings" test -z "$warnings"
fi
finish
