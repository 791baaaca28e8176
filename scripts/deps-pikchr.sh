#!/bin/sh
# deps-pikchr.sh: what the diagrams (src/md/diagram.c) need, idempotently,
# one line of output per step. Run by deps.sh. pikchr is one C file, which
# Debian 13 (trixie) ships inside the Rust crate that wraps it
# (librust-pikchr-dev, the crate's source with pikchr.c vendored): that
# package is downloaded with deps.sh's private apt configuration (deps/apt),
# checked against scripts/debs.sha256, and unpacked into deps/pikchr/,
# never touching the system. On a Debian 13 system the system's own apt
# configuration is used to download it (no root needed; see debpin.sh).
# mk/pikchr.mk compiles deps/pikchr/.../src/pikchr.c into folio.
set -eu
cd "$(dirname "$0")/.."
top=$(pwd)

# The crate's version folio is built and tested with (any Debian revision),
# and the sha256 of the pikchr.c it vendors (pikchr has no version number
# of its own: the crate's README dates its copy 2025-02-28). folio
# --version names both (mk/pikchr.mk reads them here).
PIKCHR_VERSION="0.1.4"
PIKCHR_C_SHA256="c586f70dbe099865ae78cf8f93348df4d6f9e939548df44c9ee788114fe4a2cc"
PKG="librust-pikchr-dev"
STAMP="pikchr $PIKCHR_VERSION, pikchr.c $PIKCHR_C_SHA256"
out=deps/pikchr
src=$out/usr/share/cargo/registry/pikchr-$PIKCHR_VERSION/src/pikchr.c

say() { printf 'deps-pikchr: %s\n' "$*"; }

if [ -f $out/.stamp ] && [ "$(cat $out/.stamp)" = "$STAMP" ] && [ -s "$src" ]; then
	:
	exit 0
fi

. "$top/scripts/debcheck.sh"
. "$top/scripts/debpin.sh"
deb_fetch "$PKG" "$PIKCHR_VERSION" $out "$src"
got=$(sha256sum "$src" | cut -d' ' -f1)
if [ "$got" != "$PIKCHR_C_SHA256" ]; then
	say "error: $src: sha256 $got, not the pinned $PIKCHR_C_SHA256" >&2
	exit 1
fi
echo "$STAMP" >$out/.stamp
:
