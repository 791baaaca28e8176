#!/bin/sh
# deps-avif.sh: the header of libavif 1.x (Debian 13's libavif-dev), which
# src/images/avifenc.c is compiled against, idempotently, one line of output
# per step. Run by deps.sh. libavif is never linked: folio loads it at run
# time (dlopen) when a site asks for AVIF copies, and encodes through
# whichever of its two ABIs the system has: libavif.so.16 (1.x, Debian 13),
# whose header is unpacked here into deps/avif/ with deps.sh's private apt
# configuration (deps/apt), never touching the system; or libavif.so.15
# (0.11, Debian 12), whose header is the system's (libavif-dev, among
# deps.sh's BUILD_PKGS; avifenc15.c). On a Debian 13 system the system's
# own apt configuration is used to download it (no root needed).
set -eu
cd "$(dirname "$0")/.."
top=$(pwd)

# The upstream version whose header folio is built with; any Debian revision.
AVIF_VERSION="1.2.1"
PKG="libavif-dev"
STAMP="libavif $AVIF_VERSION"
out=deps/avif

say() { printf 'deps-avif: %s\n' "$*"; }

if [ -f $out/.stamp ] && [ "$(cat $out/.stamp)" = "$STAMP" ] && [ -f $out/usr/include/avif/avif.h ]; then
	:
	exit 0
fi

. "$top/scripts/debcheck.sh"
. "$top/scripts/debpin.sh"
deb_fetch "$PKG" "$AVIF_VERSION" $out $out/usr/include/avif/avif.h
echo "$STAMP" >$out/.stamp
:
