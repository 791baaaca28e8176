#!/bin/sh
# dist.sh FOLIO OUTDIR: the release tarball of a built folio, made by
# `make dist`: OUTDIR/folio-VERSION-linux-ARCH.tar.gz and its .sha256.
# The tarball holds one folder, folio-VERSION-linux-ARCH/, with:
#   folio            the binary, stripped (the theme, the grammars, KaTeX
#                    and the JavaScript renderers are inside it)
#   man/             folio.1, folio-site.5, folio-template.5
#   README.md        the project's README
#   INSTALL          how to install it and the shared libraries it needs
#   LICENSES/        the licence of everything linked in or embedded: the
#                    Debian packages' copyright files, the npm packages'
#                    LICENSE files (the grammars, Mermaid's renderer and
#                    dagre, model-viewer, the math font)
# A licence that cannot be found is an error: a release names them all.
# The file times are SOURCE_DATE_EPOCH's (else the last commit's), the
# owner root, the order sorted: the same inputs make the same tarball.
set -eu
mkdir -p "$2"
folio=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
out=$(cd "$2" && pwd)
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
say() { printf 'dist: %s\n' "$*"; }
die() { printf 'dist: error: %s\n' "$*" >&2; exit 1; }

version=$(sed -n 's/^#define FOLIO_VERSION "\(.*\)"$/\1/p' src/base/version.h)
[ -n "$version" ] || die "no FOLIO_VERSION in src/base/version.h"
arch=$(uname -m)
name="folio-$version-linux-$arch"
stage="$out/$name"
rm -rf "$stage" "$out/$name.tar.gz" "$out/$name.tar.gz.sha256"
mkdir -p "$stage/man" "$stage/LICENSES"

# the binary, stripped of its symbols and debug information
strip --strip-all -o "$stage/folio" "$folio"
chmod 755 "$stage/folio"
cp man/folio.1 man/folio-site.5 man/folio-template.5 "$stage/man/"
cp README.md "$stage/"

# lic NAME FILE...: the first FILE that exists, as LICENSES/NAME
lic() {
	n=$1
	shift
	for f in "$@"; do
		if [ -f "$f" ]; then
			cp "$f" "$stage/LICENSES/$n"
			return 0
		fi
	done
	die "no licence found for $n (looked for: $*)"
}
doc() { echo "/usr/share/doc/$1/copyright"; }
# Debian packages linked in statically (or embedded), fetched into deps/
lic cmark-gfm deps/usr/share/doc/libcmark-gfm-dev/copyright
lic tree-sitter deps/usr/share/doc/libtree-sitter-dev/copyright
lic quickjs deps/math/usr/share/doc/libquickjs/copyright
lic katex deps/math/usr/share/doc/libjs-katex/copyright
lic stb deps/images/usr/share/doc/libstb-dev/copyright
lic tomlplusplus deps/toml/usr/share/doc/libtomlplusplus-dev/copyright
lic pikchr deps/pikchr/usr/share/doc/librust-pikchr-dev/copyright
# the system's static libraries, and the shared ones it still needs
lic libyaml "$(doc libyaml-dev)" "$(doc libyaml-0-2)"
lic utf8proc "$(doc libutf8proc-dev)" "$(doc libutf8proc2)" "$(doc libutf8proc3)"
lic libstemmer "$(doc libstemmer-dev)" "$(doc libstemmer0d)"
lic libmicrohttpd "$(doc libmicrohttpd-dev)" "$(doc libmicrohttpd12)" "$(doc libmicrohttpd12t64)"
lic xxhash "$(doc libxxhash-dev)" "$(doc libxxhash0)"
lic libwebp "$(doc libwebp-dev)" "$(doc libwebp7)"
lic libjpeg-turbo "$(doc libjpeg62-turbo-dev)" "$(doc libjpeg62-turbo)"
lic libpng "$(doc libpng-dev)" "$(doc libpng16-16)" "$(doc libpng16-16t64)"
lic zlib "$(doc zlib1g-dev)" "$(doc zlib1g)"
lic cjson "$(doc libcjson-dev)" "$(doc libcjson1)"
lic libcurl "$(doc libcurl4-openssl-dev)" "$(doc libcurl4)" "$(doc libcurl4t64)"
lic libstdc++ "$(doc "libstdc++-$(gcc -dumpversion | cut -d. -f1)-dev")" "$(doc libstdc++6)"
# npm packages embedded
for d in deps/grammars/*/; do
	g=$(basename "$d")
	lic "$g" "$d/LICENSE" "$d/LICENSE.md" "$d/LICENSE.txt" "$d/COPYING"
done
lic beautiful-mermaid deps/mermaid/beautiful-mermaid/LICENSE
lic dagre deps/mermaid/dagre/LICENSE
lic model-viewer deps/modelviewer/LICENSE
lic stix-two-math deps/mathfont/LICENSE

# what the binary still loads: the C library's, and these
needed=$(objdump -p "$stage/folio" | awk '$1 == "NEEDED" { print $2 }' | sort | tr '\n' ' ')
cat >"$stage/INSTALL" <<EOF
folio $version for Linux ($arch)

Install:
    sudo install -m 755 folio /usr/local/bin/folio
    sudo install -d /usr/local/share/man/man1 /usr/local/share/man/man5
    sudo install -m 644 man/folio.1 /usr/local/share/man/man1/
    sudo install -m 644 man/folio-site.5 man/folio-template.5 /usr/local/share/man/man5/

The binary holds the theme, the grammars, KaTeX and the renderers. It
loads these shared libraries: $needed
On Debian 12:  apt-get install libcurl4 libcjson1 libgnutls30
On Debian 13:  apt-get install libcurl4t64 libcjson1 libgnutls30t64
AVIF images (images: formats: [avif]) also need libavif (libavif15 or
libavif16), loaded when asked for.

LICENSES/ holds the licence of every library linked in or embedded.
EOF

# reproducible: one time, one owner, sorted names
epoch=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}
tar --sort=name --mtime="@$epoch" --owner=0 --group=0 --numeric-owner -C "$out" -cf - "$name" |
	gzip -n -9 >"$out/$name.tar.gz"
(cd "$out" && sha256sum "$name.tar.gz" >"$name.tar.gz.sha256")
rm -rf "$stage"
size=$(wc -c <"$out/$name.tar.gz")
say "$out/$name.tar.gz ($((size / 1024 / 1024)) MB) and its .sha256"
