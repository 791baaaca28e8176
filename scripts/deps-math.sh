#!/bin/sh
# deps-math.sh: what the math module (src/md/math.c) needs, idempotently, one
# line of output per step. Run by deps.sh. xxHash comes from the running
# Debian release (apt-get); QuickJS and KaTeX are pinned to Debian 13
# (trixie): their packages are downloaded with deps.sh's private apt
# configuration (deps/apt) and unpacked into deps/math/, never touching the
# system. On a Debian 13 system the system's own apt configuration is used
# to download them (no root needed).
set -eu
cd "$(dirname "$0")/.."
top=$(pwd)

# Upstream versions folio is built and tested with; any Debian revision.
QUICKJS_VERSION="2025.04.26"
KATEX_VERSION="0.16.10"
STAMP="quickjs $QUICKJS_VERSION, katex $KATEX_VERSION"
out=deps/math

say() { printf 'deps-math: %s\n' "$*"; }

sudo_cmd=""
if [ "$(id -u)" != 0 ] && command -v sudo >/dev/null 2>&1; then sudo_cmd="sudo"; fi

if dpkg-query -W -f='${Status}' libxxhash-dev 2>/dev/null | grep -q 'install ok installed'; then
	:
else
	say "installing libxxhash-dev"
	$sudo_cmd apt-get update -qq
	DEBIAN_FRONTEND=noninteractive DEBCONF_NOWARNINGS=yes $sudo_cmd apt-get install -y -qq libxxhash-dev >/dev/null
fi

if [ -f $out/.stamp ] && [ "$(cat $out/.stamp)" = "$STAMP" ] &&
	[ -f $out/usr/include/quickjs/quickjs.h ] && [ -f $out/usr/share/javascript/katex/katex.min.js ] &&
	ls $out/usr/lib/*/quickjs/libquickjs.a >/dev/null 2>&1; then
	:
	exit 0
fi

. "$top/scripts/debcheck.sh"
. "$top/scripts/debpin.sh"
deb_apt_setup
debs="$top/deps/apt/debs-math"
mkdir -p "$debs"
rm -f "$debs"/*.deb
# libquickjs holds the headers and the .a (there is no -dev package)
deb_download "$debs" libquickjs "$QUICKJS_VERSION"
deb_download "$debs" libjs-katex "$KATEX_VERSION"
deb_unpack "$debs" $out
# katex.min.js is a symbolic link to katex.js (itself minified in Debian):
# make it a plain file so the embedding never depends on the link.
if [ -L $out/usr/share/javascript/katex/katex.min.js ]; then
	cp --remove-destination "$(readlink -f $out/usr/share/javascript/katex/katex.min.js)" \
		$out/usr/share/javascript/katex/katex.min.js
fi
for f in $out/usr/include/quickjs/quickjs.h $out/usr/share/javascript/katex/katex.min.js; do
	if [ ! -s "$f" ]; then
		say "error: $f missing after unpacking" >&2
		exit 1
	fi
done
if ! ls $out/usr/lib/*/quickjs/libquickjs.a >/dev/null 2>&1; then
	say "error: libquickjs.a missing after unpacking" >&2
	exit 1
fi
echo "$STAMP" >$out/.stamp
:
