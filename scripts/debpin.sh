# debpin.sh: sourced by the deps scripts of the parts pinned to Debian 13
# (trixie), after debcheck.sh: where their packages are downloaded from,
# and the download itself, checked against scripts/debs.sha256. The caller
# sets top (the repository) and defines say (its one line of output).

# deb_apt_setup: apt_opts and where: deps.sh's private configuration in
# deps/apt (Debian 12 hosts), else the system's own (a Debian 13 host,
# where deps.sh made none; no root needed to download).
deb_apt_setup() {
	apt_dir="${top:?}/deps/apt"
	if [ -f "$apt_dir/sources.list" ]; then
		apt_opts="-o Dir::Etc::sourcelist=$apt_dir/sources.list -o Dir::Etc::sourceparts=$apt_dir/parts \
 -o Dir::State::Lists=$apt_dir/lists -o Dir::Cache=$apt_dir/cache -o APT::Sandbox::User=root"
		where="deps/apt"
	else
		apt_opts=""
		where="the system's apt sources"
	fi
}

# deb_candidate PKG: the version apt would download.
deb_candidate() {
	# shellcheck disable=SC2086
	apt-cache $apt_opts policy "$1" 2>/dev/null | awk '/Candidate:/ { print $2 }'
}

# deb_pinned_ok PKG VERSION: whether the candidate is that upstream version
# (any Debian revision or repack after it: "3.4.0+ds-0.2+b1").
deb_pinned_ok() {
	case "$(deb_candidate "$1")" in
	"$2"-* | "$2"+* | "$2") return 0 ;;
	*) return 1 ;;
	esac
}

# deb_refresh: the index in deps/apt updated (nothing to do with the
# system's sources, which its owner updates); fresh says it was.
deb_refresh() {
	[ -n "$apt_opts" ] || return 0
	say "refreshing the trixie package index in deps/apt"
	# shellcheck disable=SC2086
	apt-get $apt_opts -qq update
	fresh=1
}

# deb_download DIR PKG VERSION: PKG's candidate, which must be the upstream
# VERSION, downloaded into DIR and checked (deb_verify). A stale index in
# deps/apt (the candidate is another version, or names a file the mirror
# no longer has) is refreshed once. Exits on an error.
deb_download() {
	fresh=""
	deb_pinned_ok "$2" "$3" || deb_refresh
	while :; do
		if ! deb_pinned_ok "$2" "$3"; then
			say "error: $2: $where offers '$(deb_candidate "$2")', not $3" >&2
			exit 1
		fi
		v=$(deb_candidate "$2")
		:
		# shellcheck disable=SC2086
		(cd "$1" && apt-get $apt_opts -qq download "$2=$v") && break
		if [ -n "$fresh" ] || [ -z "$apt_opts" ]; then
			exit 1
		fi
		deb_refresh
	done
	deb_verify "$1/$2"_*.deb
}

# deb_fetch PKG VERSION OUT FILE: PKG (the upstream VERSION, deb_download)
# downloaded into a scratch folder, removed at the end (deps/ is shared,
# and only OUT is the caller's), and unpacked into OUT, made afresh; FILE,
# which the caller needs of it, must then be there. Sets the apt options
# (deb_apt_setup). Exits on an error.
deb_fetch() {
	debs=$(mktemp -d)
	trap 'rm -rf "$debs"' EXIT
	deb_apt_setup
	deb_download "$debs" "$1" "$2"
	deb_unpack "$debs" "$3"
	if [ ! -s "$4" ]; then
		say "error: $4 missing after unpacking" >&2
		exit 1
	fi
}

# deb_unpack DIR OUT: every .deb of DIR unpacked into OUT, made afresh.
deb_unpack() {
	rm -rf "$2"
	mkdir -p "$2"
	for deb in "$1"/*.deb; do
		say "unpacking $(basename "$deb") into $2/ (sha256 checked)"
		dpkg -x "$deb" "$2"
	done
}
