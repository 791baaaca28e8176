#!/bin/sh
# deps-commonmark.sh: fetches the npm package commonmark-spec at the pinned
# version, checks its sha256, and keeps its spec.txt (the CommonMark spec,
# whose 652 examples tests/unit/test_commonmark.c runs through folio's
# Markdown) in deps/commonmark/. Only the tests use it. Idempotent; one line
# of output per step.
set -eu
cd "$(dirname "$0")/.."
NAME="commonmark-spec"
VERSION="0.31.2"
SHA256="588280df96c211f7ce9db0b7943ded34ac4b8ba321e2fdf9c03d188ec0f01fea"
dir=deps/commonmark
say() { printf 'deps: %s\n' "$*"; }
if [ -f "$dir/.stamp" ] && [ "$(cat "$dir/.stamp")" = "$VERSION" ] && [ -f "$dir/spec.txt" ]; then
	say "commonmark-spec $VERSION present in $dir"
	exit 0
fi
if ! command -v npm >/dev/null 2>&1; then
	say "installing npm"
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
tar -xzf "$tgz" -C "$dir/pack" package/spec.txt package/LICENSE
mv "$dir/pack/package/spec.txt" "$dir/spec.txt"
mv "$dir/pack/package/LICENSE" "$dir/LICENSE"
rm -rf "$dir/pack"
echo "$VERSION" > "$dir/.stamp"
say "commonmark-spec $VERSION checked (sha256) and unpacked into $dir"
