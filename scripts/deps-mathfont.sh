#!/bin/sh
# deps-mathfont.sh: fetches the npm package @fontsource/stix-two-math at the
# pinned version, checks its sha256, and keeps its font (STIX Two Math, the
# whole font with its OpenType MATH table, as WOFF2) and its licence (SIL
# Open Font License) in deps/mathfont/, from where the build embeds the font
# in folio (mk/mathfont.mk). folio writes it only for sites with math, and
# only pages with math load it. Idempotent; one line of output per step.
set -eu
cd "$(dirname "$0")/.."
. scripts/npm-pinned.sh
npm_pinned "STIX Two Math (@fontsource/stix-two-math 5.3.0)" @fontsource/stix-two-math 5.3.0 \
	948de1b5470fbbd745fedbe6135797454fe833d94feecc6f2073cd771fe2f5fd deps/mathfont \
	files/stix-two-math-latin-400-normal.woff2=stix-two-math.woff2
