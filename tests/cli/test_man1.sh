# test_man1.sh: every example of man/folio.1 runs and exits 0.
. "$(dirname "$0")/lib.sh"

n=0
# examples are the ".EX" lines that start with "$ folio", run in order in an
# empty folder (they build on each other)
sed -n 's/^\$ folio //p' man/folio.1 | sed 's/\\-/-/g' > "$TMP/examples"
case "$FOLIO" in /*) ;; *) FOLIO="$(pwd)/$FOLIO" ;; esac
mkdir -p "$TMP/work"
while IFS= read -r args; do
	n=$((n + 1))
	# shellcheck disable=SC2086
	eval "set -- $args"
	(cd "$TMP/work" && "$FOLIO" "$@" >"$TMP/out" 2>"$TMP/err")
	rc=$?
	out=$(cat "$TMP/out")
	err=$(cat "$TMP/err")
	check "man folio.1 example: folio $args" test "$rc" -eq 0
	check "man folio.1 example prints something: folio $args" test -n "$out"
done < "$TMP/examples"
check "man folio.1 has examples" test "$n" -ge 7
if command -v groff >/dev/null 2>&1; then
	warnings=$(groff -man -Tutf8 -ww man/folio.1 2>&1 >/dev/null)
	check "man folio.1 formats without warnings" test -z "$warnings"
fi
finish
