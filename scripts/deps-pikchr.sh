#!/bin/sh
# deps-pikchr.sh: what the diagrams (src/md/diagram.c) need, idempotently,
# one line of output per step. Run by deps.sh. pikchr is one C file, which
# Debian 13 (trixie) ships inside the Rust crate that wraps it
# (librust-pikchr-dev, the crate's source with pikchr.c vendored): that
# package is downloaded with deps.sh's private apt configuration (deps/apt),
# checked against scripts/debs.sha256, and unpacked into deps/pikchr/,
# never touching the system. On a Debian 13 system the system's own apt
# configuration is used to download it (no root needed). mk/pikchr.mk
# compiles deps/pikchr/.../src/pikchr.c into folio.
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
	say "pikchr $PIKCHR_VERSION present in $out/"
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
# pinned_ok: whether the candidate is the pinned crate version
# ("0.1.4-2": Debian's revision after it).
pinned_ok() {
	case "$(candidate)" in
	"$PIKCHR_VERSION"-* | "$PIKCHR_VERSION"+* | "$PIKCHR_VERSION") return 0 ;;
	*) return 1 ;;
	esac
}

if ! pinned_ok && [ -n "$apt_opts" ]; then
	say "refreshing the trixie package index in deps/apt"
	# shellcheck disable=SC2086
	apt-get $apt_opts -qq update
fi
if ! pinned_ok; then
	say "error: $PKG: $where offers '$(candidate)', not $PIKCHR_VERSION" >&2
	exit 1
fi

# The .deb goes to a scratch folder, removed at the end: deps/ is shared,
# and only deps/pikchr/ is this script's.
debs=$(mktemp -d)
trap 'rm -rf "$debs"' EXIT
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
		say "error: $PKG: $where offers '$v', not $PIKCHR_VERSION" >&2
		exit 1
	fi
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
if [ ! -s "$src" ]; then
	say "error: $src missing after unpacking" >&2
	exit 1
fi
got=$(sha256sum "$src" | cut -d' ' -f1)
if [ "$got" != "$PIKCHR_C_SHA256" ]; then
	say "error: $src: sha256 $got, not the pinned $PIKCHR_C_SHA256" >&2
	exit 1
fi
echo "$STAMP" >$out/.stamp
say "pikchr $PIKCHR_VERSION unpacked"
