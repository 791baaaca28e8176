# test_man5.sh: every example site of man/folio-site.5 builds, or fails with
# the error it documents. The examples are marked in the page's source by
# comment lines (see the comment at the top of man/folio-site.5):
#   .\" example-site NAME     .\" file PATH (then an .EX/.EE block)
#   .\" expect-error TEXT     .\" expect-stderr (then an .EX/.EE block)
#   .\" expect-file PATH      .\" expect-no-file PATH
#   .\" expect-in PATH TEXT   .\" end-example
. "$(dirname "$0")/lib.sh"

PAGE=${PAGE:-man/folio-site.5}
SOURCE_DATE_EPOCH=1790000000
export SOURCE_DATE_EPOCH
SITES=$TMP/sites
mkdir -p "$SITES"
: >"$TMP/problems"

# The extractor writes each site into $SITES/NAME, one line "NAME<TAB>ERROR"
# per complete site into $TMP/list, the output checks of a site into
# $SITES/NAME.checks ("file|no-file|in<TAB>PATH<TAB>TEXT"), an expected
# stderr block into $SITES/NAME.stderr, and anything malformed in the page
# into $TMP/problems.
awk -v dir="$SITES" -v list="$TMP/list" -v bad="$TMP/problems" '
function problem(msg) { print FILENAME ":" FNR ": " msg > bad }
# unescape: the roff escapes that a file block may use, undone.
function unescape(s,   out, i, c, two) {
	out = ""
	while ((i = index(s, "\\")) > 0) {
		out = out substr(s, 1, i - 1)
		c = substr(s, i + 1, 1)
		if (c == "e") {
			out = out "\\"
			s = substr(s, i + 2)
		} else if (c == "-") {
			out = out "-"
			s = substr(s, i + 2)
		} else if (c == "&") {
			s = substr(s, i + 2)
		} else if (c == "(") {
			two = substr(s, i + 2, 2)
			if (two == "aq") out = out "\047"
			else if (two == "dq") out = out "\""
			else if (two == "ga") out = out "`"
			else if (two == "ti") out = out "~"
			else if (two == "ha") out = out "^"
			else problem("unknown escape \\(" two " in an example")
			s = substr(s, i + 4)
		} else {
			problem("unknown escape \\" c " in an example")
			out = out "\\" c
			s = substr(s, i + 2)
		}
	}
	return out s
}
# rest: the text after the first n words of the line.
function rest(line, n,   k) {
	for (k = 0; k < n; k++) {
		sub(/^[ \t]*[^ \t]+/, "", line)
	}
	sub(/^[ \t]+/, "", line)
	return line
}
function safe_path(p) {
	return p != "" && p !~ /^\// && p !~ /(^|\/)\.\.(\/|$)/ && p !~ /[\047"]/
}
capture != "" && /^\.EE$/ {
	close(capture)
	capture = ""
	next
}
capture != "" {
	if ($0 ~ /^[.\047]/)
		problem("a roff request inside an example block: " $0)
	else
		print unescape($0) > capture
	next
}
/^\.\\" example-site / {
	if (site != "")
		problem("example-site " site " is not ended")
	site = $3
	if (site == "" || site !~ /^[A-Za-z0-9_-]+$/) {
		problem("bad example-site name")
		site = "bad"
	}
	if (site in seen)
		problem("two examples named " site)
	seen[site] = 1
	experr = ""
	pending = ""
	next
}
/^\.\\" (file|expect-stderr|expect-error|expect-file|expect-no-file|expect-in|end-example)( |$)/ {
	if (site == "") {
		problem($2 " outside an example")
		next
	}
}
/^\.\\" file / {
	if (pending != "")
		problem("no .EX block after " pending)
	pending = $3
	if (!safe_path(pending))
		problem("bad file path " pending)
	next
}
/^\.\\" expect-stderr$/ {
	if (pending != "")
		problem("no .EX block after " pending)
	pending = "\001stderr"
	next
}
/^\.\\" expect-error / { experr = rest($0, 2); next }
/^\.\\" expect-file / { print "file\t" $3 "\t" > (dir "/" site ".checks"); next }
/^\.\\" expect-no-file / { print "no-file\t" $3 "\t" > (dir "/" site ".checks"); next }
/^\.\\" expect-in / { print "in\t" $3 "\t" rest($0, 3) > (dir "/" site ".checks"); next }
/^\.\\" end-example$/ {
	if (pending != "")
		problem("no .EX block after " pending)
	print site "\t" experr > list
	site = ""
	pending = ""
	next
}
/^\.EX$/ && pending != "" {
	if (pending == "\001stderr") {
		capture = dir "/" site ".stderr"
	} else {
		capture = dir "/" site "/" pending
		d = capture
		sub(/\/[^\/]*$/, "", d)
		system("mkdir -p \047" d "\047")
	}
	printf "" > capture
	pending = ""
	next
}
END {
	if (capture != "")
		problem("an example block is not closed")
	if (site != "")
		problem("example-site " site " is not ended")
}
' "$PAGE"

rc=0 out="" err=$(cat "$TMP/problems")
check "man folio-site.5: the examples are well formed" test -z "$err"

# build SITE OUT: like run (lib.sh), with a time limit where timeout(1)
# exists, so that a hang fails the example instead of the suite.
build() {
	if command -v timeout >/dev/null 2>&1; then
		timeout 60 "$FOLIO" build "$1" -o "$2" </dev/null >"$TMP/out" 2>"$TMP/err"
	else
		"$FOLIO" build "$1" -o "$2" </dev/null >"$TMP/out" 2>"$TMP/err"
	fi
	rc=$?
	out=$(cat "$TMP/out")
	err=$(cat "$TMP/err")
}

n=0
tab=$(printf '\t')
touch "$TMP/list"
while IFS=$tab read -r ex experr; do
	n=$((n + 1))
	site=$SITES/$ex
	outdir=$TMP/out-$ex
	build "$site" "$outdir"
	if [ -n "$experr" ]; then
		check "example $ex: exits 1" test "$rc" -eq 1
		check "example $ex: reports: $experr" contains "$err" "$experr"
		check "example $ex: writes nothing" test ! -e "$outdir"
	else
		check "example $ex: builds" test "$rc" -eq 0
		check "example $ex: writes index.html" test -f "$outdir/index.html"
		check "example $ex: prints no diagnostics" test -z "$err"
	fi
	if [ -f "$site.stderr" ]; then
		want=$(cat "$site.stderr")
		check "example $ex: standard error as shown" contains "$err" "$want"
	fi
	if [ -f "$site.checks" ]; then
		while IFS=$tab read -r kind path text; do
			case $kind in
			file) check "example $ex: writes $path" test -f "$outdir/$path" ;;
			no-file) check "example $ex: does not write $path" test ! -e "$outdir/$path" ;;
			in)
				body=$(cat "$outdir/$path" 2>/dev/null)
				check "example $ex: $path contains '$text'" contains "$body" "$text"
				;;
			esac
		done <"$site.checks"
	fi
done <"$TMP/list"
check "man folio-site.5 has at least 8 example sites (found $n)" test "$n" -ge 8

if command -v groff >/dev/null 2>&1; then
	warnings=$(groff -man -Tutf8 -ww "$PAGE" 2>&1 >/dev/null)
	err=$warnings
	check "man folio-site.5 formats without warnings" test -z "$warnings"
fi
finish
