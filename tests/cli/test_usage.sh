# test_usage.sh: help, version, unknown commands and options, exit statuses.
. "$(dirname "$0")/lib.sh"

run --version
check "--version exits 0" test "$rc" -eq 0
check "--version names folio" contains "$out" "folio "
check "--version names cmark-gfm 0.29.0.gfm.13" contains "$out" "cmark-gfm 0.29.0.gfm.13"
check "--version names libyaml" contains "$out" "libyaml "
check "--version names tree-sitter and its grammars" contains "$out" "tree-sitter 0.22.6 ("
check "--version names QuickJS" contains "$out" "QuickJS 2025.04.26"
check "--version names KaTeX" contains "$out" "KaTeX 0.16.10"
run version
check "version exits 0" test "$rc" -eq 0
check "version prints the same" contains "$out" "cmark-gfm"
run version extra
check "version with an argument is a usage error" test "$rc" -eq 2

run --help
check "--help exits 0" test "$rc" -eq 0
check "--help shows usage on stdout" contains "$out" "usage: folio COMMAND"
check "--help lists commands" contains "$out" "Commands:"
check "--help prints nothing on stderr" test -z "$err"
run -h
check "-h is --help" contains "$out" "usage: folio COMMAND"
run help
check "help exits 0" test "$rc" -eq 0
check "help shows usage" contains "$out" "usage: folio COMMAND"
run help version
check "help version exits 0" test "$rc" -eq 0
check "help version shows its usage" contains "$out" "usage: folio version"
run help help
check "help help" contains "$out" "usage: folio help"
run help nosuch
check "help of an unknown command exits 2" test "$rc" -eq 2
check "help of an unknown command says so on stderr" contains "$err" "unknown command 'nosuch'"
run help a b
check "help with two names exits 2" test "$rc" -eq 2

run
check "no command exits 2" test "$rc" -eq 2
check "no command prints usage on stderr" contains "$err" "usage: folio COMMAND"
check "no command prints nothing on stdout" test -z "$out"
run frobnicate
check "unknown command exits 2" test "$rc" -eq 2
check "unknown command names it" contains "$err" "folio: unknown command 'frobnicate'"
check "unknown command prints a short message, not the usage" test "$err" = "folio: unknown command 'frobnicate'
Run 'folio help' for the commands and options."
check "unknown command prints nothing on stdout" test -z "$out"
run --frobnicate
check "unknown option exits 2" test "$rc" -eq 2
check "unknown option names it" test "$err" = "folio: unknown option '--frobnicate'
Run 'folio help' for the commands and options."

# a usage error is one message, with "did you mean" for a command or an
# option close to one, and where to read the usage (not the usage), exit 2
# usage_err ARGS WANT: folio ARGS exits 2, prints WANT on stderr, nothing
# on stdout
usage_err() {
	# shellcheck disable=SC2086
	run $1
	check "folio $1: exit 2" test "$rc" -eq 2
	check "folio $1: the message" test "$err" = "$2"
	check "folio $1: nothing on stdout" test -z "$out"
}
usage_err "biuld" "folio: unknown command 'biuld' (did you mean 'build'?)
Run 'folio help' for the commands and options."
usage_err "help biuld" "folio: unknown command 'biuld' (did you mean 'build'?)
Run 'folio help' for the commands and options."
usage_err "serv ." "folio: unknown command 'serv' (did you mean 'serve'?)
Run 'folio help' for the commands and options."
usage_err "--verison" "folio: unknown option '--verison' (did you mean '--version'?)
Run 'folio help' for the commands and options."
usage_err "build --draft" "folio build: unknown option '--draft' (did you mean '--drafts'?)
Run 'folio help build' for its usage."
usage_err "build --jbos=2" "folio build: unknown option '--jbos=2' (did you mean '--jobs'?)
Run 'folio help build' for its usage."
usage_err "serve --prot 8000" "folio serve: unknown option '--prot' (did you mean '--port'?)
Run 'folio help serve' for its usage."
usage_err "check --externl" "folio check: unknown option '--externl' (did you mean '--external'?)
Run 'folio help check' for its usage."
usage_err "new post Title --drat" "folio new: unknown option '--drat' for 'new post' (did you mean '--draft'?)
Run 'folio help new' for its usage."
usage_err "build -j0" "folio build: -j needs a number of threads from 1 to 256, not '0'
Run 'folio help build' for its usage."
usage_err "theme exprt" "folio theme: unknown subcommand 'exprt' (the one there is: export)
Run 'folio help theme' for its usage."
usage_err "import jekyll" "folio import: needs a generator (jekyll or hugo), SRC and DST
Run 'folio help import' for its usage."
run --version --help
check "--version takes no arguments" test "$rc" -eq 2

# -h and --help after every command and subcommand: that command's usage
# on stdout, exit 0, and nothing done (no folder, no file, no build)
mkdir -p "$TMP/h" && cd "$TMP/h" || exit 1
case "$FOLIO" in /*) F=$FOLIO ;; *) F=$OLDPWD/$FOLIO ;; esac
for args in "build" "build ." "serve" "check" "check --external" "new" "new site" "new site x" "new post" \
	"new post Title" "new series" "new series s --title T" "import" "import jekyll src dst" \
	"import hugo src dst" "theme" "theme export" "theme export . post.html" "help" "version"; do
	cmd=${args%% *}
	for h in -h --help; do
		# shellcheck disable=SC2086
		"$F" $args $h >"$TMP/hout" 2>"$TMP/herr"
		rc=$?
		check "folio $args $h exits 0" test "$rc" -eq 0
		check "folio $args $h prints its usage" grep -q "^usage: folio $cmd" "$TMP/hout"
		check "folio $args $h prints nothing on stderr" test ! -s "$TMP/herr"
	done
done
check "no help made a file or folder" test -z "$(ls -A "$TMP/h")"
"$F" build -h -o "$TMP/h/out" >/dev/null 2>&1
check "build -h with other options builds nothing" test ! -e "$TMP/h/out"
cd "$OLDPWD" || exit 1

# one-letter options take their value attached or apart, long ones after
# '=' or apart
run new site "$TMP/j"
run build "$TMP/j" -j1 -o "$TMP/j1"
check "-j1 is -j 1" test "$rc" -eq 0
run build "$TMP/j" -j 1 -o"$TMP/j2"
check "-j 1 and -oOUT" test "$rc" -eq 0 -a -f "$TMP/j2/index.html"
run build "$TMP/j" --jobs=2 --output="$TMP/j3"
check "--jobs=2 --output=OUT" test "$rc" -eq 0 -a -f "$TMP/j3/index.html"
run build "$TMP/j" -j0
check "-j0 is a usage error" test "$rc" -eq 2
run build "$TMP/j" --base-url=https://example.net/blog/ -o "$TMP/j4"
check "--base-url=URL" grep -q 'https://example.net/blog/' "$TMP/j4/feed.xml"
run check "$TMP/j" --base-url=https://example.net/ --jobs=1
check "check --base-url=URL --jobs=1" test "$rc" -eq 0
run serve "$TMP/j" --port=70000
check "serve --port=N is read as the port (70000 refused)" contains "$err" "not '70000'"
run serve "$TMP/j" -p70000
check "serve -pN too" contains "$err" "not '70000'"
run new series s2 --title=T --difficulty=beginner --description=D --dir="$TMP/j"
check "new series --title=T --difficulty=L --description=D --dir=SITE" grep -q '^difficulty: beginner ' "$TMP/j/content/series/s2.md"

finish
