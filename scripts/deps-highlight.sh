#!/bin/sh
# deps-highlight.sh: fetches what src/md/highlight.c needs, idempotently, one
# line of output per step (called by scripts/deps.sh and by make when
# deps/.stamp-highlight is missing or older than scripts/grammars.txt):
#  - the tree-sitter 0.22 runtime: the Debian 13 packages libtree-sitter-dev
#    and libtree-sitter0.22, downloaded with the private apt configuration
#    that deps.sh prepares in deps/apt (or, on a system whose own release
#    ships them, with the system's) and unpacked into deps/usr, never
#    installed;
#  - the grammars pinned in scripts/grammars.txt: `npm pack NAME@VERSION`
#    into deps/grammars/NAME-VERSION/ (NAME without its @scope/), the
#    tarball's sha256 checked, then unpacked there, the listed files and
#    the parser's ABI checked.
set -eu
cd "$(dirname "$0")/.."
top=$(pwd)

TS_VERSION="0.22.6" # upstream version of the Debian 13 packages
TS_PKGS="libtree-sitter-dev libtree-sitter0.22"
LIST=scripts/grammars.txt

say() { printf 'deps: %s\n' "$*"; }
die() {
	printf 'deps: error: %s\n' "$*" >&2
	exit 1
}

sudo_cmd=""
if [ "$(id -u)" != 0 ] && command -v sudo >/dev/null 2>&1; then sudo_cmd="sudo"; fi

mkdir -p deps/grammars

# ---- the tree-sitter runtime ----
ts_stamp=deps/.stamp-tree-sitter
if [ -f "$ts_stamp" ] && [ "$(cat "$ts_stamp")" = "$TS_VERSION" ] &&
	[ -f deps/usr/include/tree_sitter/api.h ] &&
	ls deps/usr/lib/*/libtree-sitter.a >/dev/null 2>&1; then
	:
else
	apt_dir="$top/deps/apt"
	if [ -f "$apt_dir/sources.list" ]; then
		# deps.sh's private configuration: the Debian 13 index in deps/apt.
		apt_opts="-o Dir::Etc::sourcelist=$apt_dir/sources.list -o Dir::Etc::sourceparts=$apt_dir/parts \
 -o Dir::State::Lists=$apt_dir/lists -o Dir::Cache=$apt_dir/cache -o APT::Sandbox::User=root"
	else
		# deps.sh took cmark-gfm from this system's own release (Debian 13):
		# so do we, downloading only.
		apt_opts="-o APT::Sandbox::User=root"
	fi
	# shellcheck disable=SC2086
	v=$(apt-cache $apt_opts policy libtree-sitter-dev 2>/dev/null | awk '/Candidate:/ { print $2 }')
	case "$v" in
	"$TS_VERSION"*) ;;
	*)
		say "refreshing the package index for tree-sitter"
		if [ -f "$apt_dir/sources.list" ]; then
			# shellcheck disable=SC2086
			apt-get $apt_opts -qq update
		else
			$sudo_cmd apt-get -qq update
		fi
		# shellcheck disable=SC2086
		v=$(apt-cache $apt_opts policy libtree-sitter-dev 2>/dev/null | awk '/Candidate:/ { print $2 }')
		case "$v" in
		"$TS_VERSION"*) ;;
		*) die "libtree-sitter-dev: the package index offers '$v', not $TS_VERSION (run scripts/deps.sh first)" ;;
		esac
		;;
	esac
	:
	debs="$top/deps/apt/debs-tree-sitter"
	mkdir -p "$debs"
	rm -f "$debs"/*.deb
	for p in $TS_PKGS; do
		# shellcheck disable=SC2086
		(cd "$debs" && apt-get $apt_opts -qq download "$p=$v")
	done
	. "$top/scripts/debcheck.sh"
	deb_verify "$debs"/*.deb
	for deb in "$debs"/*.deb; do
		say "unpacking $(basename "$deb") into deps/ (sha256 checked)"
		dpkg -x "$deb" deps
	done
	[ -f deps/usr/include/tree_sitter/api.h ] || die "tree_sitter/api.h missing after unpacking"
	echo "$TS_VERSION" >"$ts_stamp"
fi

# ---- the grammars ----
if ! command -v npm >/dev/null 2>&1; then
	# without its recommends (git, node-tap and what they bring: some 250
	# packages on Debian 12), which npm pack does not use
	say "installing npm (Debian package) to fetch the grammars"
	$sudo_cmd apt-get -qq update
	DEBIAN_FRONTEND=noninteractive DEBCONF_NOWARNINGS=yes $sudo_cmd apt-get install -y -qq --no-install-recommends npm >/dev/null
fi

# fetch NAME VERSION SHA256 FILES...: one grammar into deps/grammars/NAME-VERSION.
fetch() {
	name=$1
	version=$2
	sum=$3
	shift 3
	# a scoped package (@scope/tree-sitter-x) goes into tree-sitter-x-VERSION
	dir="deps/grammars/${name##*/}-$version"
	if [ -f "$dir/.sha256" ] && [ "$(cat "$dir/.sha256")" = "$sum" ]; then
		ok=1
		for f in "$@"; do [ -f "$dir/$f" ] || ok=0; done
		if [ "$ok" = 1 ]; then
			fix "${name##*/}-$version" "$dir"
			return
		fi
	fi
	rm -rf "$dir"
	mkdir -p "$dir"
	# npm names the tarball of @scope/x scope-x-VERSION.tgz
	tgz="$(printf %s "$name" | sed 's,^@,,; s,/,-,')-$version.tgz"
	(cd "$dir" && npm pack --silent --loglevel=error "$name@$version" >/dev/null) ||
		die "npm pack $name@$version failed"
	[ -f "$dir/$tgz" ] || die "npm pack $name@$version made no $tgz"
	got=$(sha256sum "$dir/$tgz" | awk '{ print $1 }')
	if [ "$got" != "$sum" ]; then
		rm -rf "$dir"
		die "$name $version: sha256 $got, but $LIST pins $sum"
	fi
	tar -xzf "$dir/$tgz" -C "$dir" --strip-components=1 --no-same-owner
	fix "${name##*/}-$version" "$dir"
	for f in "$@"; do
		[ -f "$dir/$f" ] || die "$name $version has no $f"
		case "$f" in
		*/parser.c)
			abi=$(awk '/^#define LANGUAGE_VERSION/ { print $3; exit }' "$dir/$f")
			case "$abi" in
			13 | 14) ;;
			*) die "$name $version: $f has ABI '$abi'; tree-sitter $TS_VERSION loads 13 and 14" ;;
			esac
			;;
		esac
	done
	echo "$sum" >"$dir/.sha256"
	# a count, not a line per grammar: every tenth and the last
	fetched=$((fetched + 1))
	if [ $((fetched % 10)) = 0 ] || [ "$fetched" = "$total" ]; then
		say "grammars: $fetched of $total fetched (sha256 checked)"
	fi
}

# sedfix FILE SCRIPT: sed SCRIPT applied to FILE, which is rewritten only
# if that changes it: a file already fixed keeps its time, so that make
# does not compile it again at every run.
sedfix() {
	sed "$2" "$1" >"$1.tmp" || die "sed on $1 failed"
	if cmp -s "$1" "$1.tmp"; then rm -f "$1.tmp"; else mv "$1.tmp" "$1"; fi
}

# fix NAME-VERSION DIR: the upstream bugs folio corrects in a grammar as
# unpacked (after its sha256 is checked), each found by AddressSanitizer;
# idempotent, so a folder unpacked before a fix was added gets it too.
fix() {
	case "$1" in
	tree-sitter-swift-0.7.1)
		# the external scanner's state is allocated with calloc(0, ...):
		# its every read and write is out of bounds (any raw string)
		f="$2/src/scanner.c"
		sedfix "$f" 's/calloc(0, sizeof(struct ScannerState))/calloc(1, sizeof(struct ScannerState))/'
		grep -q 'calloc(1, sizeof(struct ScannerState))' "$f" || die "$1: the scanner fix did not apply"
		;;
	tree-sitter-sql-0.3.11)
		# deserialize drops the tag it holds without freeing it (a leak
		# at each dollar-quoted string)
		f="$2/src/scanner.c"
		sedfix "$f" '/tree_sitter_sql_external_scanner_deserialize/,/^}/ s|^  state->start_tag = NULL;$|  free(state->start_tag); /* folio: not leaked */ state->start_tag = NULL;|'
		grep -q 'folio: not leaked' "$f" || die "$1: the scanner fix did not apply"
		# scan drops a dollar-quoted string's tag equal to the open one
		# without freeing it (a leak at "AS $x$ select $x$ $x$"; the
		# regression tree-sitter-sql-tag-equal-to-the-open-one of markdown)
		sedfix "$f" '/if (state->start_tag != NULL && strcmp(state->start_tag, start_tag) == 0) {$/{n;s|^      return false;$|      free(start_tag); /* folio: not leaked either */ return false;|}'
		grep -q 'folio: not leaked either' "$f" || die "$1: the second scanner fix did not apply"
		;;
	esac
}

# Lines of grammars.txt that start with a letter or @ are grammars. The
# count of those missing is the total of the progress lines.
total=0
for dir in $(grep '^[a-z@]' "$LIST" | awk '{ n = $1; sub(/^@[^\/]*\//, "", n); print "deps/grammars/" n "-" $2 }'); do
	[ -f "$dir/.sha256" ] || total=$((total + 1))
done
fetched=0
grep '^[a-z@]' "$LIST" | while read -r name version sum files; do
	# shellcheck disable=SC2086
	fetch "$name" "$version" "$sum" $files
done

# The stamp make checks: newer than grammars.txt once all of it is fetched.
echo "tree-sitter $TS_VERSION" >deps/.stamp-highlight
say "tree-sitter $TS_VERSION and $(grep -c '^[a-z@]' "$LIST") grammars present in deps/grammars"
