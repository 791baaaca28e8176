#!/bin/sh
# deps-images.sh: the resampler of the image codecs (src/images/),
# idempotently, one line of output per step. Run by deps.sh, which installs
# the codecs themselves (libjpeg-turbo, libpng, zlib, libwebp: Debian 12
# packages, among its BUILD_PKGS). stb_image_resize2.h is pinned to Debian
# 13 (trixie), whose libstb-dev is the first to ship it: the package is
# downloaded with deps.sh's private apt configuration (deps/apt) and unpacked
# into deps/images/, never touching the system. On a Debian 13 system the
# system's own apt configuration is used to download it (no root needed).
set -eu
cd "$(dirname "$0")/.."
top=$(pwd)

# The upstream version of stb folio is built and tested with (a snapshot of
# its git tree); any Debian revision.
STB_VERSION="0.0~git20241109.5c20573"
PKG="libstb-dev"
STAMP="stb $STB_VERSION"
out=deps/images

say() { printf 'deps-images: %s\n' "$*"; }

if [ -f $out/.stamp ] && [ "$(cat $out/.stamp)" = "$STAMP" ] && [ -f $out/usr/include/stb/stb_image_resize2.h ]; then
	:
	exit 0
fi

. "$top/scripts/debcheck.sh"
. "$top/scripts/debpin.sh"
deb_apt_setup
debs="$top/deps/apt/debs-images"
mkdir -p "$debs"
rm -f "$debs"/*.deb
deb_download "$debs" "$PKG" "$STB_VERSION"
deb_unpack "$debs" $out
if [ ! -s $out/usr/include/stb/stb_image_resize2.h ]; then
	say "error: $out/usr/include/stb/stb_image_resize2.h missing after unpacking" >&2
	exit 1
fi
echo "$STAMP" >$out/.stamp
:
