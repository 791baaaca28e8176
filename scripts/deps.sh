#!/bin/sh
# deps.sh: installs what folio's build and tests need, idempotently, one line
# of output per step. Debian 12 packages come from apt-get; the Debian 13
# packages folio pins (cmark-gfm 0.29.0.gfm.13) are fetched with a private apt
# configuration and unpacked into deps/ without touching the system. On a
# Debian 13 system they come from plain apt-get install instead.
# `deps.sh fuzz` (make fuzz) also installs clang with libFuzzer.
set -eu
cd "$(dirname "$0")/.."
top=$(pwd)

# Packages from the running Debian release: what the build needs, then
# what only the tests need (`deps.sh build`, as make demo runs it, leaves
# those out, with valgrind, the browser and the CommonMark spec).
# (the image codecs: libjpeg62-turbo-dev, libpng-dev, zlib1g-dev and
# libwebp-dev, whose static libraries mk/images.mk links; the tests read
# the copies folio writes with djpeg and dwebp)
BUILD_PKGS="gcc g++ make pkg-config libyaml-dev libcjson-dev libutf8proc-dev libstemmer-dev tzdata libmicrohttpd-dev libcurl4-openssl-dev libjpeg62-turbo-dev libpng-dev zlib1g-dev libwebp-dev libavif-dev"
TEST_PKGS="libxml2-utils python3 groff-base curl wrk libjpeg-turbo-progs webp"
SYSTEM_PKGS="$BUILD_PKGS $TEST_PKGS"
build_only=""
if [ "${1:-}" = build ]; then
	build_only=1
	SYSTEM_PKGS=$BUILD_PKGS
fi
# Packages pinned to Debian 13 (trixie): name=version.
PINNED_PKGS="libcmark-gfm-dev libcmark-gfm-extensions-dev libcmark-gfm0.29.0.gfm.13 libcmark-gfm-extensions0.29.0.gfm.13"
PINNED_VERSION="0.29.0.gfm.13"

say() { printf 'deps: %s\n' "$*"; }

sudo_cmd=""
if [ "$(id -u)" != 0 ]; then
	if command -v sudo >/dev/null 2>&1; then sudo_cmd="sudo"; fi
fi

# fuzz_links: whether clang links a libFuzzer target (the fuzzer runtime
# is in libclang-rt-N-dev, which the clang package only recommends).
fuzz_links() {
	command -v clang >/dev/null 2>&1 || return 1
	t=$(mktemp -d)
	printf '%s\n' '#include <stddef.h>' '#include <stdint.h>' \
		'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);' \
		'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }' >"$t/f.c"
	clang -fsanitize=fuzzer,address,undefined -o "$t/f" "$t/f.c" >/dev/null 2>&1
	r=$?
	rm -rf "$t"
	return $r
}
if [ "${1:-}" = fuzz ] && ! fuzz_links; then
	SYSTEM_PKGS="$SYSTEM_PKGS clang"
fi

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
	DEBIAN_FRONTEND=noninteractive DEBCONF_NOWARNINGS=yes $sudo_cmd apt-get install -y -qq $missing >/dev/null
else
	say "Debian packages present"
fi
if [ "${1:-}" = fuzz ]; then
	if ! fuzz_links; then
		v=$(clang -dumpversion | cut -d. -f1)
		say "installing libclang-rt-$v-dev (libFuzzer)"
		$sudo_cmd apt-get update -qq
		DEBIAN_FRONTEND=noninteractive DEBCONF_NOWARNINGS=yes $sudo_cmd apt-get install -y -qq "libclang-rt-$v-dev" >/dev/null
	fi
	if ! fuzz_links; then
		say "error: clang cannot link a libFuzzer target (-fsanitize=fuzzer)" >&2
		exit 1
	fi
	say "clang $(clang -dumpversion) links libFuzzer targets"
fi

# valgrind, for `make valgrind` (which is run by hand, not by make test):
# installed when missing, and only by root.
if [ -n "$build_only" ]; then
	:
elif command -v valgrind >/dev/null 2>&1; then
	:
elif [ "$(id -u)" = 0 ]; then
	say "installing valgrind"
	[ -n "$missing" ] || apt-get update -qq
	DEBIAN_FRONTEND=noninteractive DEBCONF_NOWARNINGS=yes apt-get install -y -qq valgrind >/dev/null
else
	say "valgrind is not installed (make valgrind needs it; run this script as root to install it)"
fi

codename=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")
# The pinned packages of other parts (highlighting, math) are fetched by
# their own scripts, which reuse the private apt configuration made here.
more() {
	for f in scripts/deps-*.sh; do
		# the browser test's tools and the CommonMark spec's examples are
		# the tests' only
		case "$build_only:$f" in 1:*deps-browser.sh | 1:*deps-commonmark.sh) continue ;; esac
		if [ -f "$f" ]; then
			sh "$f" || exit 1
		fi
	done
	exit 0
}

if [ -f deps/.stamp ] && [ "$(cat deps/.stamp)" = "$PINNED_VERSION" ]; then
	:
	more
fi

if [ "$codename" != "bookworm" ] && apt-cache policy libcmark-gfm-dev 2>/dev/null | grep -q "Candidate: $PINNED_VERSION"; then
	# This release ships the pinned version: install it the plain way.
	say "installing cmark-gfm $PINNED_VERSION from this system's release"
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive DEBCONF_NOWARNINGS=yes $sudo_cmd apt-get install -y -qq $PINNED_PKGS >/dev/null
	mkdir -p deps
	rm -rf deps/usr
	echo "$PINNED_VERSION" > deps/.stamp
	more
fi

# A private apt configuration whose one source is the system's own Debian
# mirror with the suite trixie.
apt_dir="$top/deps/apt"
mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial" "$apt_dir/parts" "$apt_dir/debs"
uri=""
for f in /etc/apt/sources.list.d/*.sources; do
	[ -f "$f" ] || continue
	# the URIs of the stanza whose Suites name the running release
	uri=$(awk -v rel="$codename" '
		/^[ \t]*$/ { if (u != "" && s ~ rel && s !~ /security/) { print u; exit } u = ""; s = "" }
		/^URIs:/ { u = $2 }
		/^Suites:/ { s = $0 }
		END { if (u != "" && s ~ rel && s !~ /security/) print u }' "$f" | head -n 1)
	[ -n "$uri" ] && break
done
if [ -z "$uri" ] && [ -f /etc/apt/sources.list ]; then
	uri=$(awk '$1 == "deb" && $0 !~ /security/ { for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) { print $i; exit } }' /etc/apt/sources.list)
fi
if [ -z "$uri" ]; then
	say "error: no Debian source found in /etc/apt/sources.list.d/ to derive the trixie source from" >&2
	exit 1
fi
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
echo "deb [signed-by=$keyring] $uri trixie main" > "$apt_dir/sources.list"
apt_opts="-o Dir::Etc::sourcelist=$apt_dir/sources.list -o Dir::Etc::sourceparts=$apt_dir/parts \
 -o Dir::State::Lists=$apt_dir/lists -o Dir::Cache=$apt_dir/cache -o APT::Sandbox::User=root"
say "fetching the trixie package index into deps/apt"
# shellcheck disable=SC2086
apt-get $apt_opts -qq update
:
cd "$apt_dir/debs"
rm -f ./*.deb
for p in $PINNED_PKGS; do
	# shellcheck disable=SC2086
	v=$(apt-cache $apt_opts policy "$p" | awk '/Candidate:/ { print $2 }')
	case "$v" in
	"$PINNED_VERSION"*) ;;
	*) say "error: $p: trixie offers '$v', not $PINNED_VERSION" >&2; exit 1 ;;
	esac
	# shellcheck disable=SC2086
	apt-get $apt_opts -qq download "$p=$v"
done
cd "$top"
. "$top/scripts/debcheck.sh"
deb_verify "$apt_dir"/debs/*.deb
rm -rf deps/usr
for deb in "$apt_dir"/debs/*.deb; do
	say "unpacking $(basename "$deb") into deps/ (sha256 checked)"
	dpkg -x "$deb" deps
done
echo "$PINNED_VERSION" > deps/.stamp
:
more
