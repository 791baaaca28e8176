#!/bin/sh
# deps-toml.sh: what the TOML reader (src/toml.cpp) needs, idempotently, one
# line of output per step. Run by deps.sh. toml++ (header-only mode) is
# pinned to Debian 13 (trixie), where it is the maintained TOML 1.0 library
# (Debian ships no C one): its -dev package, headers only, is downloaded with
# deps.sh's private apt configuration (deps/apt) and unpacked into deps/toml/,
# never touching the system. On a Debian 13 system the system's own apt
# configuration is used to download it (no root needed). g++, which compiles
# the shim, is in deps.sh's list of system packages.
set -eu
cd "$(dirname "$0")/.."
top=$(pwd)

# The upstream version folio is built and tested with; any Debian revision.
TOMLPP_VERSION="3.4.0"
PKG="libtomlplusplus-dev"
STAMP="toml++ $TOMLPP_VERSION"
out=deps/toml

say() { printf 'deps-toml: %s\n' "$*"; }

if [ -f $out/.stamp ] && [ "$(cat $out/.stamp)" = "$STAMP" ] && [ -f $out/usr/include/toml++/toml.hpp ]; then
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
# ("3.4.0+ds-0.2+b1": Debian's repack and revision after it).
pinned_ok() {
	case "$(candidate)" in
	"$TOMLPP_VERSION"-* | "$TOMLPP_VERSION"+* | "$TOMLPP_VERSION") return 0 ;;
	*) return 1 ;;
	esac
}

if ! pinned_ok && [ -n "$apt_opts" ]; then
	say "refreshing the trixie package index in deps/apt"
	# shellcheck disable=SC2086
	apt-get $apt_opts -qq update
fi
if ! pinned_ok; then
	say "error: $PKG: $where offers '$(candidate)', not $TOMLPP_VERSION" >&2
	exit 1
fi

debs="$top/deps/apt/debs-toml"
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
		say "error: $PKG: $where offers '$v', not $TOMLPP_VERSION" >&2
		exit 1
	fi
	# shellcheck disable=SC2086
	(cd "$debs" && apt-get $apt_opts -qq download "$PKG=$v")
fi

rm -rf $out
mkdir -p $out
for deb in "$debs"/*.deb; do
	say "unpacking $(basename "$deb") into $out/"
	dpkg -x "$deb" $out
done
if [ ! -s $out/usr/include/toml++/toml.hpp ]; then
	say "error: $out/usr/include/toml++/toml.hpp missing after unpacking" >&2
	exit 1
fi
echo "$STAMP" >$out/.stamp
say "$STAMP unpacked"
