# shellcheck shell=sh disable=SC2154
# debfetch.sh: sourced by the deps scripts. deb_fetch PKG VERSION DIR:
# downloads the Debian 13 (trixie) package PKG whose upstream version is
# VERSION (any Debian revision) into DIR, with deps.sh's private apt
# configuration (deps/apt: Debian 12 hosts) or, without one, the system's
# (a Debian 13 host, where deps.sh made none; no root needed). The index is
# refreshed when it offers another version or names a file the mirror no
# longer has. Says what it does through the caller's say(); exits 1 when
# the pinned version cannot be had. Needs $top (the repository).
deb_fetch() {
	pkg=$1
	want=$2
	dir=$3
	apt_dir="$top/deps/apt"
	if [ -f "$apt_dir/sources.list" ]; then
		apt_opts="-o Dir::Etc::sourcelist=$apt_dir/sources.list -o Dir::Etc::sourceparts=$apt_dir/parts \
 -o Dir::State::Lists=$apt_dir/lists -o Dir::Cache=$apt_dir/cache -o APT::Sandbox::User=root"
		where="deps/apt"
	else
		apt_opts=""
		where="the system's apt sources"
	fi
	if ! deb_pinned "$pkg" "$want" && [ -n "$apt_opts" ]; then
		say "refreshing the trixie package index in deps/apt"
		# shellcheck disable=SC2086
		apt-get $apt_opts -qq update
	fi
	if ! deb_pinned "$pkg" "$want"; then
		say "error: $pkg: $where offers '$(deb_candidate "$pkg")', not $want" >&2
		exit 1
	fi
	v=$(deb_candidate "$pkg")
	say "downloading $pkg $v"
	# shellcheck disable=SC2086
	if ! (cd "$dir" && apt-get $apt_opts -qq download "$pkg=$v"); then
		# A stale index names a file the mirror no longer has.
		[ -n "$apt_opts" ] || exit 1
		say "refreshing the trixie package index in deps/apt, then downloading $pkg again"
		# shellcheck disable=SC2086
		apt-get $apt_opts -qq update
		v=$(deb_candidate "$pkg")
		if ! deb_pinned "$pkg" "$want"; then
			say "error: $pkg: $where offers '$v', not $want" >&2
			exit 1
		fi
		# shellcheck disable=SC2086
		(cd "$dir" && apt-get $apt_opts -qq download "$pkg=$v") || exit 1
	fi
}

# deb_candidate PKG: the version apt would download (deb_fetch's apt_opts).
deb_candidate() {
	# shellcheck disable=SC2086
	apt-cache $apt_opts policy "$1" 2>/dev/null | awk '/Candidate:/ { print $2 }'
}

# deb_pinned PKG VERSION: whether the candidate is that upstream version
# ("0.1.4-2", "3.4.0+ds-0.2+b1": Debian's revision or repack after it).
deb_pinned() {
	case "$(deb_candidate "$1")" in
	"$2"-* | "$2"+* | "$2") return 0 ;;
	*) return 1 ;;
	esac
}

# deb_unpack DIR OUT: the .debs of DIR checked against scripts/debs.sha256
# (debcheck.sh), then unpacked into OUT, made anew.
deb_unpack() {
	. "$top/scripts/debcheck.sh"
	deb_verify "$1"/*.deb
	rm -rf "$2"
	mkdir -p "$2"
	for deb in "$1"/*.deb; do
		say "unpacking $(basename "$deb") into $2/"
		dpkg -x "$deb" "$2"
	done
}
