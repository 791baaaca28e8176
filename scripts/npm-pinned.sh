# npm-pinned.sh: sourced by the deps-*.sh scripts that keep files of an npm
# package (deps-commonmark.sh, deps-modelviewer.sh, deps-mathfont.sh).
# npm_pinned LABEL NAME VERSION SHA256 DIR SRC=DEST...: unless DIR holds
# VERSION already (its .stamp, and the first DEST), fetches NAME@VERSION
# with npm pack, checks the tarball's sha256 against SHA256, and keeps each
# package/SRC as DIR/DEST, with the package's LICENSE (or LICENSE.md,
# LICENCE...: the first such file at its top) as DIR/LICENSE.
# Idempotent; one line of output per step.
say() { printf 'deps: %s\n' "$*"; }
npm_pinned() {
	label=$1 name=$2 version=$3 sha=$4 dir=$5
	shift 5
	if [ -f "$dir/.stamp" ] && [ "$(cat "$dir/.stamp")" = "$version" ] && [ -f "$dir/${1#*=}" ]; then
		:
		return 0
	fi
	if ! command -v npm >/dev/null 2>&1; then
		say "installing npm (without its recommends, as deps-highlight.sh)"
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends npm >/dev/null
	fi
	rm -rf "$dir"
	mkdir -p "$dir/pack"
	:
	(cd "$dir/pack" && npm pack --silent "$name@$version" >/dev/null)
	tgz=$(ls "$dir"/pack/*.tgz)
	sum=$(sha256sum "$tgz" | cut -d' ' -f1)
	if [ "$sum" != "$sha" ]; then
		say "error: $tgz has sha256 $sum, not the pinned $sha" >&2
		exit 1
	fi
	lic=$(tar -tzf "$tgz" | sed -n 's|^package/\(LICEN[CS]E[^/]*\)$|\1|p' | sort | head -n 1)
	for f in "$@" "${lic:-LICENSE}=LICENSE"; do
		tar -xzf "$tgz" -C "$dir/pack" "package/${f%%=*}"
		mv "$dir/pack/package/${f%%=*}" "$dir/${f#*=}"
	done
	rm -rf "$dir/pack"
	echo "$version" >"$dir/.stamp"
	say "$label checked (sha256) and unpacked into $dir"
}
