#!/bin/sh
# test_deps.sh: what the deps scripts install and check, without touching
# the system: scripts/deps.sh in a scratch tree, with apt-get, dpkg-query
# and sudo replaced by stand-ins that log what they are asked, and the
# other deps scripts by ones that log that they ran; debcheck.sh's
# deb_verify against a list of pinned sums.
. tests/cli/lib.sh

T=$TMP/tree
mkdir -p "$T/scripts" "$T/deps" "$TMP/bin"
cp scripts/deps.sh scripts/debcheck.sh "$T/scripts/"
# the pinned cmark-gfm is there already: deps.sh goes straight to the others
sed -n 's/^PINNED_VERSION="\(.*\)"$/\1/p' scripts/deps.sh >"$T/deps/.stamp"
for part in browser commonmark highlight; do
	printf '#!/bin/sh\necho %s >>"%s/ran"\n' "$part" "$TMP" >"$T/scripts/deps-$part.sh"
done
# the stand-ins: dpkg-query knows the packages listed in $TMP/installed
cat >"$TMP/bin/dpkg-query" <<EOF
#!/bin/sh
for a; do p=\$a; done
grep -qx "\$p" "$TMP/installed" && printf 'install ok installed'
exit 0
EOF
printf '#!/bin/sh\necho "$*" >>"%s/apt"\n' "$TMP" >"$TMP/bin/apt-get"
printf '#!/bin/sh\nexec "$@"\n' >"$TMP/bin/sudo"
chmod +x "$TMP/bin/"*

# deps MODE: runs the scratch tree's deps.sh (MODE: build, or "" for all),
# into $TMP/apt (what apt-get was asked) and $TMP/ran (the scripts run)
deps() {
	rm -f "$TMP/apt" "$TMP/ran"
	touch "$TMP/apt" "$TMP/ran"
	PATH=$TMP/bin:$PATH sh "$T/scripts/deps.sh" $1 >"$TMP/deps.out" 2>&1
	rc=$?
}

: >"$TMP/installed"
deps build
check "deps.sh build on a bare system: exit 0 ($(cat "$TMP/deps.out"))" test "$rc" -eq 0
inst=$(grep '^install' "$TMP/apt")
check "deps.sh build installs the compiler and the libraries ($inst)" sh -c \
	"echo '$inst' | grep -q ' gcc .*libyaml-dev.*libmicrohttpd-dev'"
for tool in libxml2-utils python3 groff-base curl wrk valgrind chromium nodejs; do
	check "deps.sh build leaves out $tool (a test tool)" sh -c "! grep -qw '$tool' '$TMP/apt'"
done
check "deps.sh build runs the build's scripts (highlight)" grep -qx highlight "$TMP/ran"
check "... but not the browser test's" sh -c "! grep -qx browser '$TMP/ran'"
check "... nor the CommonMark spec's" sh -c "! grep -qx commonmark '$TMP/ran'"

deps ""
inst=$(grep '^install' "$TMP/apt")
check "deps.sh (make test) adds the test tools ($inst)" sh -c "echo '$inst' | grep -q 'libxml2-utils python3 groff-base curl wrk'"
check "deps.sh runs every script" test "$(sort "$TMP/ran" | tr '\n' ' ')" = "browser commonmark highlight "

# what is present is not installed again
sed -n 's/^\(BUILD\|TEST\)_PKGS="\(.*\)"$/\2/p' scripts/deps.sh | tr ' ' '\n' >"$TMP/installed"
deps ""
check "with every package present, apt-get is not run ($(cat "$TMP/apt"))" sh -c "! grep -q '^install\|update' '$TMP/apt'"
check "... and it says so" grep -q "Debian packages present" "$TMP/deps.out"

# deb_verify: a download is checked against scripts/debs.sha256
arch=$(dpkg --print-architecture 2>/dev/null || echo amd64)
D=$TMP/debs
mkdir -p "$D"
printf 'good\n' >"$D/libgood_1.0-1_$arch.deb"
printf 'bad\n' >"$D/libbad_1.0-1_$arch.deb"
printf 'new\n' >"$D/libnew_1.0-2_$arch.deb"
{
	echo "# pinned"
	echo "$(sha256sum "$D/libgood_1.0-1_$arch.deb" | cut -d' ' -f1)  libgood_1.0-1_$arch.deb"
	echo "$(printf 'other\n' | sha256sum | cut -d' ' -f1)  libbad_1.0-1_$arch.deb"
} >"$T/scripts/debs.sha256"
verify() { (top=$T && . "$T/scripts/debcheck.sh" && deb_verify "$@") >"$TMP/v.out" 2>&1; }
verify "$D/libgood_1.0-1_$arch.deb"
check "a pinned .deb with its sum passes" test $? -eq 0
check "... silently (the unpacking line says it was checked)" test ! -s "$TMP/v.out"
verify "$D/libbad_1.0-1_$arch.deb"
check "a .deb whose sum differs fails" test $? -ne 0
check "... saying so" grep -q "libbad_1.0-1_$arch.deb: sha256 .*, not the pinned" "$TMP/v.out"
check "... and is removed" test ! -e "$D/libbad_1.0-1_$arch.deb"
verify "$D/libnew_1.0-2_$arch.deb"
check "a .deb that is not pinned (a new revision) fails" test $? -ne 0
check "... with the line to add once checked" grep -q "libnew_1.0-2_$arch.deb is not pinned in scripts/debs.sha256" "$TMP/v.out"

# the real list pins every package the deps scripts download
for p in $(sed -n 's/^PINNED_PKGS="\(.*\)"$/\1/p' scripts/deps.sh) libtree-sitter-dev libtree-sitter0.22 libquickjs \
	libjs-katex libtomlplusplus-dev; do
	check "scripts/debs.sha256 pins $p" grep -q "  ${p}_[^ ]*\.deb\$" scripts/debs.sha256
done
finish
