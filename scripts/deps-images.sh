#!/bin/sh
# deps-images.sh: what the image codecs (src/images/) need, idempotently, one
# line of output per step. Run by deps.sh. libjpeg-turbo, libpng, zlib and
# libwebp come from the running Debian release (apt-get; folio links their
# static libraries); stb_image_resize2.h, the resampler, is pinned to Debian
# 13 (trixie), whose libstb-dev is the first to ship it: the package is
# downloaded with deps.sh's private apt configuration (deps/apt) and unpacked
# into deps/images/, never touching the system. On a Debian 13 system the
# system's own apt configuration is used to download it (no root needed).
set -eu
cd "$(dirname "$0")/.."
top=$(pwd)

# The system's packages: the codecs' headers and static libraries.
SYSTEM_PKGS="libjpeg62-turbo-dev libpng-dev zlib1g-dev libwebp-dev"
# The upstream version of stb folio is built and tested with (a snapshot of
# its git tree); any Debian revision.
STB_VERSION="0.0~git20241109.5c20573"
PKG="libstb-dev"
STAMP="stb $STB_VERSION"
out=deps/images

say() { printf 'deps-images: %s\n' "$*"; }

sudo_cmd=""
if [ "$(id -u)" != 0 ] && command -v sudo >/dev/null 2>&1; then sudo_cmd="sudo"; fi

missing=""
for p in $SYSTEM_PKGS; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
		missing="$missing $p"
	fi
done
if [ -n "$missing" ]; then
	say "installing Debian packages:$missing"
	$sudo_cmd apt-get update -qq
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq $missing >/dev/null
else
	say "Debian packages present ($SYSTEM_PKGS)"
fi

if [ -f $out/.stamp ] && [ "$(cat $out/.stamp)" = "$STAMP" ] && [ -f $out/usr/include/stb/stb_image_resize2.h ]; then
	say "$STAMP present in $out/"
	exit 0
fi

# deps.sh's private configuration (Debian 12 hosts), else the system's
# (a Debian 13 host, where deps.sh made none).
apt_dir="$top/deps/apt"
if [ -f "$apt_dir/sources.list" ]; then
	apt_opts="-o Dir::Etc::sourcelist=$apt_dir/sources.list -o Dir::Etc::sourceparts=$apt_dir/parts \
 -o Dir::State::Lists=$apt_dir/lists -o Dir::Cache=$apt_dir/cache -o APT::Sandbox::User=root"
	where="deps/apt"
else
	apt_opts=""
	where="the system's apt sources"
fi

# candidate: the version apt would download.
candidate() {
	# shellcheck disable=SC2086
	apt-cache $apt_opts policy "$PKG" 2>/dev/null | awk '/Candidate:/ { print $2 }'
}
# pinned_ok: whether the candidate is the pinned upstream version
# ("0.0~git20241109.5c20573+ds-1": Debian's repack and revision after it).
pinned_ok() {
	case "$(candidate)" in
	"$STB_VERSION"-* | "$STB_VERSION"+* | "$STB_VERSION") return 0 ;;
	*) return 1 ;;
	esac
}

if ! pinned_ok && [ -n "$apt_opts" ]; then
	say "refreshing the trixie package index in deps/apt"
	# shellcheck disable=SC2086
	apt-get $apt_opts -qq update
fi
if ! pinned_ok; then
	say "error: $PKG: $where offers '$(candidate)', not $STB_VERSION" >&2
	exit 1
fi

debs="$top/deps/apt/debs-images"
mkdir -p "$debs"
rm -f "$debs"/*.deb
v=$(candidate)
say "downloading $PKG $v"
# shellcheck disable=SC2086
if ! (cd "$debs" && apt-get $apt_opts -qq download "$PKG=$v"); then
	# A stale index names a file the mirror no longer has.
	[ -n "$apt_opts" ] || exit 1
	say "refreshing the trixie package index in deps/apt, then downloading $PKG again"
	# shellcheck disable=SC2086
	apt-get $apt_opts -qq update
	v=$(candidate)
	if ! pinned_ok; then
		say "error: $PKG: $where offers '$v', not $STB_VERSION" >&2
		exit 1
	fi
	# shellcheck disable=SC2086
	(cd "$debs" && apt-get $apt_opts -qq download "$PKG=$v")
fi

. "$top/scripts/debcheck.sh"
deb_verify "$debs"/*.deb
rm -rf $out
mkdir -p $out
for deb in "$debs"/*.deb; do
	say "unpacking $(basename "$deb") into $out/"
	dpkg -x "$deb" $out
done
if [ ! -s $out/usr/include/stb/stb_image_resize2.h ]; then
	say "error: $out/usr/include/stb/stb_image_resize2.h missing after unpacking" >&2
	exit 1
fi
echo "$STAMP" >$out/.stamp
say "$STAMP unpacked"
