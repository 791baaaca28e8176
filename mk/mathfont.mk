# mathfont.mk: embeds STIX Two Math (npm @fontsource/stix-two-math, fetched
# and checked by scripts/deps-mathfont.sh) in folio's theme as
# assets/stix-two-math.woff2; folio writes it only for sites with math, and
# style.css names it in the math elements' font, so only pages with math
# load it.
MATHFONT := deps/mathfont/stix-two-math.woff2
THEME_EXTRA += assets/stix-two-math.woff2=$(MATHFONT)

$(MATHFONT): scripts/deps-mathfont.sh
	@sh scripts/deps-mathfont.sh && touch $@
