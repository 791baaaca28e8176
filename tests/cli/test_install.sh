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
readelf -S "$D/usr/local/bin/folio" >"$TMP/sections" 2>&1
check "the installed binary is stripped (no symbols)" sh -c "! grep -q '\.symtab' '$TMP/sections'"
check "... and no debug information" sh -c "! grep -q '\.debug_info' '$TMP/sections'"
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

# make dist: the tarball and its sum, in a scratch folder (DIST_DIR)
ver=$(sed -n 's/^#define FOLIO_VERSION "\(.*\)"$/\1/p' src/base/version.h)
dname=folio-$ver-linux-$(uname -m)
make --no-print-directory dist DIST_DIR="$TMP/dist" >"$TMP/dist.out" 2>&1
check "make dist exits 0" test $? -eq 0
check "make dist makes folio-VERSION-linux-ARCH.tar.gz" test -f "$TMP/dist/$dname.tar.gz"
(cd "$TMP/dist" && sha256sum -c "$dname.tar.gz.sha256") >/dev/null 2>&1
check "... and its .sha256, which checks" test $? -eq 0
mkdir -p "$TMP/x" && tar -xzf "$TMP/dist/$dname.tar.gz" -C "$TMP/x"
check "the tarball holds one folder" test "$(ls "$TMP/x")" = "$dname"
X=$TMP/x/$dname
readelf -S "$X/folio" >"$TMP/sections2" 2>&1
check "... with the binary, stripped" sh -c "test -x '$X/folio' && ! grep -q '\.symtab' '$TMP/sections2'"
check "... which runs" sh -c "'$X/folio' --version | grep -q '^folio $ver'"
check "... the man pages" test -f "$X/man/folio.1" -a -f "$X/man/folio-site.5" -a -f "$X/man/folio-template.5"
check "... README.md and INSTALL" test -f "$X/README.md" -a -f "$X/INSTALL"
check "... INSTALL names the shared libraries it loads" grep -q "libcurl.so.4" "$X/INSTALL"
for l in cmark-gfm tree-sitter quickjs katex libyaml libmicrohttpd libstdc++ tree-sitter-c-0.23.6 dagre model-viewer stix-two-math; do
	check "... the licence of $l" test -s "$X/LICENSES/$l"
done
check "... one for each grammar" test "$(ls "$X/LICENSES" | grep -c '^tree-sitter-[a-z]')" -ge 31
make --no-print-directory dist DIST_DIR="$TMP/dist2" >/dev/null 2>&1
check "make dist twice gives the same tarball" cmp -s "$TMP/dist/$dname.tar.gz" "$TMP/dist2/$dname.tar.gz"
# folio new site --ci: the workflows' steps, run here against this release
# (a file:// FOLIO_RELEASE_URL; the package installs left out), build the
# new site with the release's binary
rel="file://$TMP/dist"
"$X/folio" new site "$TMP/gh" --ci github >"$TMP/gh.out" 2>&1
check "new site --ci github writes the workflow" test -f "$TMP/gh/.github/workflows/folio.yml"
check "... and says so" grep -q "publishes it on GitHub Pages" "$TMP/gh.out"
check "... which fetches this version" grep -q "FOLIO_VERSION: \"$ver\"" "$TMP/gh/.github/workflows/folio.yml"
awk '/- name: Install folio/ { on = 1; next } on && /run: \|/ { run = 1; next } run && /^      - / { exit } run { sub(/^          /, ""); print }' \
	"$TMP/gh/.github/workflows/folio.yml" | grep -v apt-get >"$TMP/gh-install.sh"
mkdir -p "$TMP/runner"
(cd "$TMP/gh" && FOLIO_VERSION=$ver FOLIO_RELEASE_URL=$rel RUNNER_TEMP=$TMP/runner GITHUB_PATH=$TMP/gh-path \
	sh -e "$TMP/gh-install.sh") >"$TMP/gh-run.out" 2>&1
check "... its install step fetches, checks and unpacks the release" test -x "$TMP/runner/$dname/folio"
check "... and puts it on the PATH" grep -qx "$TMP/runner/$dname" "$TMP/gh-path"
(cd "$TMP/gh" && PATH="$(cat "$TMP/gh-path"):$PATH" && folio build --base-url "https://example.test/gh/") >/dev/null 2>&1
check "... and its build step builds the site into public/" grep -q 'https://example.test/gh/' "$TMP/gh/public/feed.xml"
"$X/folio" new site "$TMP/gl" --ci gitlab >/dev/null 2>&1
check "new site --ci gitlab writes .gitlab-ci.yml" test -f "$TMP/gl/.gitlab-ci.yml"
sed -n 's/^    - //p' "$TMP/gl/.gitlab-ci.yml" | grep -v apt-get | sed "s|/tmp|$TMP/glrun|g" >"$TMP/gl-script.sh"
mkdir -p "$TMP/glrun"
(cd "$TMP/gl" && FOLIO_VERSION=$ver FOLIO_RELEASE_URL=$rel CI_PAGES_URL=https://example.test/gl sh -e "$TMP/gl-script.sh") \
	>"$TMP/gl-run.out" 2>&1
check "... whose script builds the site into public/ with the release" grep -q 'https://example.test/gl/' "$TMP/gl/public/feed.xml"
cp "$TMP/dist/$dname.tar.gz" "$TMP/good.tgz"
printf 'tampered' >>"$TMP/dist/$dname.tar.gz"
rm -rf "$TMP/gl/public" "$TMP/glrun"/*
(cd "$TMP/gl" && FOLIO_VERSION=$ver FOLIO_RELEASE_URL=$rel CI_PAGES_URL=https://example.test/gl sh -e "$TMP/gl-script.sh") \
	>"$TMP/gl-run2.out" 2>&1
check "... and refuses a tarball whose sha256 differs" test $? -ne 0 -a ! -e "$TMP/gl/public"
cp "$TMP/good.tgz" "$TMP/dist/$dname.tar.gz"
"$X/folio" new site "$TMP/bad" --ci bitbucket >"$TMP/bad.out" 2>&1
check "an unknown --ci is a usage error (2)" test $? -eq 2
check "... naming the two" grep -q "unknown --ci 'bitbucket' (use 'github' or 'gitlab')" "$TMP/bad.out"
check "... and makes no site" test ! -e "$TMP/bad"
finish
