#!/bin/sh
# deps-mathfont.sh: fetches the npm package @fontsource/stix-two-math at the
# pinned version, checks its sha256, and keeps its font (STIX Two Math, the
# whole font with its OpenType MATH table, as WOFF2) and its licence (SIL
# Open Font License) in deps/mathfont/, from where the build embeds the font
# in folio (mk/mathfont.mk). folio writes it only for sites with math, and
# only pages with math load it. Idempotent; one line of output per step.
set -eu
cd "$(dirname "$0")/.."
NAME="@fontsource/stix-two-math"
VERSION="5.3.0"
SHA256="948de1b5470fbbd745fedbe6135797454fe833d94feecc6f2073cd771fe2f5fd"
FONT="files/stix-two-math-latin-400-normal.woff2"
dir=deps/mathfont
say() { printf 'deps: %s\n' "$*"; }
if [ -f "$dir/.stamp" ] && [ "$(cat "$dir/.stamp")" = "$VERSION" ] && [ -f "$dir/stix-two-math.woff2" ]; then
	say "STIX Two Math ($NAME $VERSION) present in $dir"
	exit 0
fi
if ! command -v npm >/dev/null 2>&1; then
	say "installing npm (without its recommends, as deps-highlight.sh)"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends npm >/dev/null
fi
rm -rf "$dir"
mkdir -p "$dir/pack"
say "fetching $NAME@$VERSION"
(cd "$dir/pack" && npm pack --silent "$NAME@$VERSION" >/dev/null)
tgz=$(ls "$dir"/pack/*.tgz)
sum=$(sha256sum "$tgz" | cut -d' ' -f1)
if [ "$sum" != "$SHA256" ]; then
	say "error: $tgz has sha256 $sum, not the pinned $SHA256" >&2
	exit 1
fi
tar -xzf "$tgz" -C "$dir/pack" "package/$FONT" package/LICENSE
mv "$dir/pack/package/$FONT" "$dir/stix-two-math.woff2"
mv "$dir/pack/package/LICENSE" "$dir/LICENSE"
rm -rf "$dir/pack"
echo "$VERSION" > "$dir/.stamp"
say "STIX Two Math ($NAME $VERSION) checked (sha256) and unpacked into $dir"
