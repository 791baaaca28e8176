#!/bin/sh
# test_install.sh: make install puts the binary and the man pages under
# DESTDIR/PREFIX, where they work on their own; make uninstall takes them away.
. tests/cli/lib.sh

D=$TMP/dest
make --no-print-directory install DESTDIR="$D" PREFIX=/usr/local >"$TMP/mi.out" 2>&1
check "make install exits 0" test $? -eq 0
check "the binary is in PREFIX/bin" test -x "$D/usr/local/bin/folio"
check "folio(1) is in PREFIX/share/man/man1" test -f "$D/usr/local/share/man/man1/folio.1"
check "folio-site(5) is in man5" test -f "$D/usr/local/share/man/man5/folio-site.5"
check "folio-template(5) is in man5" test -f "$D/usr/local/share/man/man5/folio-template.5"
"$D/usr/local/bin/folio" --version >"$TMP/v" 2>&1
check "the installed binary runs" grep -q "^folio " "$TMP/v"
# it needs no file of the source tree: a site is made and built from
# elsewhere
(cd "$TMP" && "$D/usr/local/bin/folio" new site s >/dev/null && "$D/usr/local/bin/folio" build s >/dev/null 2>&1)
check "the installed binary builds a site on its own" test -f "$TMP/s/public/index.html"
if command -v man >/dev/null 2>&1; then
	MANPATH=$D/usr/local/share/man man -w folio >"$TMP/w" 2>&1
	check "man finds folio(1)" grep -q "man1/folio.1" "$TMP/w"
fi
make --no-print-directory uninstall DESTDIR="$D" PREFIX=/usr/local >/dev/null 2>&1
check "make uninstall removes them" test -z "$(find "$D" -type f)"
finish
