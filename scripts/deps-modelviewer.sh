#!/bin/sh
# deps-modelviewer.sh: fetches the npm package @google/model-viewer at the
# pinned version, checks its sha256, and keeps its self-contained module
# (dist/model-viewer.min.js) in deps/modelviewer/, from where the build
# embeds it in folio. Idempotent; one line of output per step.
set -eu
cd "$(dirname "$0")/.."
NAME="@google/model-viewer"
VERSION="4.4.0"
SHA256="8b621bd58da86cfa9908aaedf5a263d49770d08fc9e04ca661e3019616565f02"
dir=deps/modelviewer
say() { printf 'deps: %s\n' "$*"; }
if [ -f "$dir/.stamp" ] && [ "$(cat "$dir/.stamp")" = "$VERSION" ] && [ -f "$dir/model-viewer.min.js" ]; then
	say "model-viewer $VERSION present in $dir"
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
tar -xzf "$tgz" -C "$dir/pack" package/dist/model-viewer.min.js package/LICENSE
mv "$dir/pack/package/dist/model-viewer.min.js" "$dir/model-viewer.min.js"
mv "$dir/pack/package/LICENSE" "$dir/LICENSE"
rm -rf "$dir/pack"
echo "$VERSION" > "$dir/.stamp"
say "model-viewer $VERSION checked (sha256) and unpacked into $dir"
