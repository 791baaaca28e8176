# test_usage.sh: help, version, unknown commands and options, exit statuses.
. "$(dirname "$0")/lib.sh"

run --version
check "--version exits 0" test "$rc" -eq 0
check "--version names folio" contains "$out" "folio "
check "--version names cmark-gfm 0.29.0.gfm.13" contains "$out" "cmark-gfm 0.29.0.gfm.13"
check "--version names libyaml" contains "$out" "libyaml "
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
check "unknown command prints usage on stderr" contains "$err" "usage: folio COMMAND"
check "unknown command prints nothing on stdout" test -z "$out"
run --frobnicate
check "unknown option exits 2" test "$rc" -eq 2
check "unknown option names it" contains "$err" "folio: unknown option '--frobnicate'"
run --version --help
check "--version takes no arguments" test "$rc" -eq 2

finish
