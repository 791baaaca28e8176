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
PKGS="libquickjs libjs-katex" # libquickjs holds the headers and the .a (no -dev package)
STAMP="quickjs $QUICKJS_VERSION, katex $KATEX_VERSION"
out=deps/math

say() { printf 'deps-math: %s\n' "$*"; }

sudo_cmd=""
if [ "$(id -u)" != 0 ] && command -v sudo >/dev/null 2>&1; then sudo_cmd="sudo"; fi

if dpkg-query -W -f='${Status}' libxxhash-dev 2>/dev/null | grep -q 'install ok installed'; then
	say "libxxhash-dev present"
else
	say "installing libxxhash-dev"
	$sudo_cmd apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq libxxhash-dev >/dev/null
fi

if [ -f $out/.stamp ] && [ "$(cat $out/.stamp)" = "$STAMP" ] &&
	[ -f $out/usr/include/quickjs/quickjs.h ] && [ -f $out/usr/share/javascript/katex/katex.min.js ] &&
	ls $out/usr/lib/*/quickjs/libquickjs.a >/dev/null 2>&1; then
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

# candidate PKG: the version apt would download.
candidate() {
	# shellcheck disable=SC2086
	apt-cache $apt_opts policy "$1" 2>/dev/null | awk '/Candidate:/ { print $2 }'
}
# pinned_ok PKG VERSION: whether the candidate is that upstream version.
pinned_ok() {
	case "$(candidate "$1")" in
	"$2"-* | "$2"+* | "$2") return 0 ;;
	*) return 1 ;;
	esac
}

if ! pinned_ok libquickjs "$QUICKJS_VERSION" || ! pinned_ok libjs-katex "$KATEX_VERSION"; then
	if [ -z "$apt_opts" ]; then
		say "error: no deps/apt (run scripts/deps.sh first) and this system's apt offers libquickjs '$(candidate libquickjs)', libjs-katex '$(candidate libjs-katex)'" >&2
		exit 1
	fi
	say "refreshing the trixie package index in deps/apt"
	# shellcheck disable=SC2086
	apt-get $apt_opts -qq update
fi

debs="$top/deps/apt/debs-math"
mkdir -p "$debs"
rm -f "$debs"/*.deb
for p in $PKGS; do
	case $p in
	libquickjs) want=$QUICKJS_VERSION ;;
	*) want=$KATEX_VERSION ;;
	esac
	v=$(candidate "$p")
	if ! pinned_ok "$p" "$want"; then
		say "error: $p: $where offers '$v', not $want" >&2
		exit 1
	fi
	say "downloading $p $v"
	# shellcheck disable=SC2086
	if ! (cd "$debs" && apt-get $apt_opts -qq download "$p=$v"); then
		# A stale index names a file the mirror no longer has.
		[ -n "$apt_opts" ] || exit 1
		say "refreshing the trixie package index in deps/apt, then downloading $p again"
		apt-get $apt_opts -qq update
		v=$(candidate "$p")
		if ! pinned_ok "$p" "$want"; then
			say "error: $p: $where offers '$v', not $want" >&2
			exit 1
		fi
		(cd "$debs" && apt-get $apt_opts -qq download "$p=$v")
	fi
done

. "$top/scripts/debcheck.sh"
deb_verify "$debs"/*.deb
rm -rf $out
mkdir -p $out
for deb in "$debs"/*.deb; do
	say "unpacking $(basename "$deb") into $out/"
	dpkg -x "$deb" $out
done
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
say "$STAMP unpacked"
