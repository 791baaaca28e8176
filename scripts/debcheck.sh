# debcheck.sh: sourced by the deps scripts. deb_verify FILE...: each
# downloaded .deb against scripts/debs.sha256 (its name and its sha256),
# silently when it matches (the line that unpacks it says it was checked).
# A sum that differs is an error (the file is removed); a name that is not
# listed is an error too, unless the list has no package of this machine's
# architecture (then only the version is pinned, and that is said).
deb_verify() {
	list="${top:-.}/scripts/debs.sha256"
	arch=$(dpkg --print-architecture 2>/dev/null || echo unknown)
	for deb in "$@"; do
		name=$(basename "$deb")
		want=$(awk -v n="$name" '$2 == n { print $1 }' "$list")
		got=$(sha256sum "$deb" | cut -d' ' -f1)
		if [ -z "$want" ]; then
			if grep -q "_$arch\.deb\$" "$list"; then
				rm -f "$deb"
				printf 'deps: error: %s is not pinned in scripts/debs.sha256 (trixie has a new revision? check it, then add its line: %s  %s)\n' \
					"$name" "$got" "$name" >&2
				exit 1
			fi
			printf 'deps: %s: no sums pinned for %s; its version is pinned only\n' "$name" "$arch"
		elif [ "$want" != "$got" ]; then
			rm -f "$deb"
			printf 'deps: error: %s: sha256 %s, not the pinned %s\n' "$name" "$got" "$want" >&2
			exit 1
		fi
	done
}
