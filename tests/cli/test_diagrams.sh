#!/bin/sh
# test_diagrams.sh: ```pikchr and ```mermaid blocks in a built site: each
# an inline SVG in a <figure class="diagram"> that follows the theme's
# colours, named by its title (or by the language's word), well-formed XML,
# the same bytes from a cold and a warm build, drawn again when its source
# changes; a mistake is an error at the diagram's line and column that
# stops the build (and a red box with --keep-going). Mermaid's: a flowchart
# and a sequence diagram on one page, with ids of their own; a mistake is
# an error at the diagram's opening fence.
. tests/cli/lib.sh

export SOURCE_DATE_EPOCH=1790000000 # 2026-09-21, as the other tests use
SITE=$TMP/site
OUT=$TMP/public
PAGE=$OUT/posts/stages/index.html
mkdir -p "$SITE/content/posts"
printf 'title: "Schémas"\nbase_url: "https://example.org/"\nlanguage: fr\n' >"$SITE/folio.yml"
# post LABEL LINE: the post, its first box saying LABEL, its 3rd line LINE
post() {
	cat >"$SITE/content/posts/stages.md" <<EOF
---
title: "Les étapes"
date: 2026-01-02
---
Le chemin d'un article :

\`\`\`pikchr {title="Lire, rendre, écrire"}
box "$1" fit
arrow
$2
arrow
box "écrire" fit
\`\`\`

- Et un autre :

  \`\`\`pikchr
  circle "A" fill white
  \`\`\`
EOF
}
post lire 'box "rendre" fit fill white'

run --version
check "folio --version names pikchr ($out)" contains "$out" "
pikchr 0.1.4 (pikchr.c sha256 "
check "folio --version names beautiful-mermaid and dagre" contains "$out" "
beautiful-mermaid 1.1.3, dagre 3.1.4
"

run build "$SITE" -o "$OUT"
check "a site with two diagrams builds" test "$rc" -eq 0
check "... and says nothing ($err)" test -z "$err"
html=$(cat "$PAGE")
n=$(grep -o '<figure class="diagram"><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 [0-9. ]*" width="[0-9]*" height="[0-9]*" role="img" aria-label="[^"]*" style="font-size:initial;max-width:100%;height:auto"><title>' "$PAGE" | wc -l)
check "two figures, each with folio's <svg> start tag ($n)" test "$n" -eq 2
check "the title names the first diagram" contains "$html" 'aria-label="Lire, rendre, écrire" style="font-size:initial;max-width:100%;height:auto"><title>Lire, rendre, écrire</title>'
check "... and is its caption" contains "$html" '</svg><figcaption>Lire, rendre, écrire</figcaption></figure>'
check "the second is named in the site's language" contains "$html" 'aria-label="Schéma" style="font-size:initial;max-width:100%;height:auto"><title>Schéma</title>'
check "... and has no caption" contains "$html" '</svg></figure>
</li>'
check "black is the text's colour" contains "$html" 'stroke:currentColor;'
check "white is the page's background" contains "$html" 'style="fill:var(--bg,#fff);stroke-width:2.16;stroke:currentColor;"'
check "no black or white left" not_contains "$html" 'rgb(0,0,0)'
check "... nor the source as code" not_contains "$html" 'language-pikchr'
check "no ids" not_contains "$(sed -n '/<svg/,/<\/svg>/p' "$PAGE")" ' id="'
# well_formed PAGE NAME: each of PAGE's two SVGs, as $TMP/NAME1.svg and
# NAME2.svg, is well-formed XML (an image editor could take it as it is)
well_formed() {
	awk '/<svg/ { n++; sub(/.*<svg/, "<svg"); f = sprintf("'"$TMP"'/'"$2"'%d.svg", n) }
		f { line = $0; if (sub(/<\/svg>.*/, "</svg>", line)) { print line > f; close(f); f = "" } else print line > f }' "$1"
	for f in "$TMP/${2}1.svg" "$TMP/${2}2.svg"; do
		r=$(xmllint --noout "$f" 2>&1)
		check "$(basename "$f") is well-formed XML ($r)" test -z "$r" -a -s "$f"
	done
}
if command -v xmllint >/dev/null 2>&1; then
	well_formed "$PAGE" svg
	r=$(xmllint --noout "$OUT/feed.xml" 2>&1)
	check "the feed with the diagrams is well-formed ($r)" test -z "$r"
else
	echo "note: no xmllint; the SVGs' XML is not checked"
fi

# warm: the same bytes (the Markdown cache's HTML), and cold again
cp "$PAGE" "$TMP/cold.html"
run build "$SITE" -o "$OUT"
check "a warm build: the same page" cmp -s "$PAGE" "$TMP/cold.html"
rm -rf "$SITE/.folio-cache"
run build "$SITE" -o "$TMP/public2"
check "a cold build elsewhere: the same page" cmp -s "$TMP/public2/posts/stages/index.html" "$TMP/cold.html"
# (the cache forgot $OUT, which folio now refuses to write over)
OUT=$TMP/public2
PAGE=$OUT/posts/stages/index.html

# an edit of the diagram is drawn again (the cache keys on the body)
post parcourir 'box "rendre" fit fill white'
run build "$SITE" -o "$OUT"
check "an edited diagram builds" test "$rc" -eq 0
html=$(cat "$PAGE")
check "... and is drawn again" contains "$html" '>parcourir</text>'
check "... without its old text" not_contains "$html" '>lire</text>'

# a mistake: the error at the diagram's own line and column in the file
post lire 'box "rendre" wid largeur'
run build "$SITE" -o "$OUT"
check "a mistake in a diagram fails the build" test "$rc" -eq 1
check "... at its line and column, with pikchr's message" has_line "$err" \
	"content/posts/stages.md:10:18: error: pikchr: no such variable"
check "... and the line under it" has_line "$err" ' 10 | box "rendre" wid largeur'
check "... nothing written" contains "$(cat "$PAGE")" '>parcourir</text>'
# in a list item, indented
cat >>"$SITE/content/posts/stages.md" <<'EOF'

- Un troisième :

  ```pikchr
  box
    circle rad r
  ```
EOF
run build "$SITE" -o "$OUT"
check "two mistakes, both reported" has_line "$err" "content/posts/stages.md:25:16: error: pikchr: no such variable"
check "... the first too" has_line "$err" "content/posts/stages.md:10:18: error: pikchr: no such variable"
run build "$SITE" -o "$OUT" --keep-going
check "--keep-going: exit 1" test "$rc" -eq 1
check "--keep-going: the source in a red box with the message" contains "$(cat "$PAGE")" \
	'<pre class="diagram-error" title="pikchr: no such variable"><code>box &quot;lire&quot; fit
arrow
box &quot;rendre&quot; wid largeur'

# ```mermaid: a flowchart and a sequence diagram on one page
cat >"$SITE/content/posts/flux.md" <<'EOF'
---
title: "Flux"
date: 2026-01-03
---
Un flux :

```mermaid {title="Écrire, relire"}
flowchart LR
  A[Écrire] --> B{Relu ?}
  B -->|oui| C[Publier]
  B -->|non| A
```

```mermaid
sequenceDiagram
  Auteur->>folio: build
  folio-->>Auteur: public/
```
EOF
sed -i '/^- Un troisième/,$d' "$SITE/content/posts/stages.md"
post lire 'box "rendre" fit fill white'
run build "$SITE" -o "$OUT"
check "mermaid: a site with two diagrams builds ($err)" test "$rc" -eq 0
FLUX=$OUT/posts/flux/index.html
html=$(cat "$FLUX")
n=$(grep -o '<figure class="diagram"><svg xmlns="http://www.w3.org/2000/svg" id="mm[0-9a-f]*" viewBox="0 0 [0-9. ]*" width="[0-9.]*" height="[0-9.]*" role="img" aria-label="[^"]*" style="max-width:100%;height:auto;' "$FLUX" | wc -l)
check "mermaid: two figures, each with folio's <svg> start tag ($n)" test "$n" -eq 2
check "mermaid: the caption names the flowchart" contains "$html" 'aria-label="Écrire, relire"'
check "... in its <title>" contains "$html" '<title>Écrire, relire</title>'
check "... and is its caption" contains "$html" '</svg><figcaption>Écrire, relire</figcaption></figure>'
check "mermaid: the sequence diagram is named in the site's language" contains "$html" '<title>Schéma</title>'
check "... and drawn" contains "$html" '>build</text>'
ids=$(grep -o ' id="mm[0-9a-f]*"' "$FLUX" | sort -u | wc -l)
check "mermaid: two diagrams, two prefixes ($ids)" test "$ids" -eq 2
dups=$(grep -o ' id="[^"]*"' "$FLUX" | sort | uniq -d)
check "mermaid: no id twice on the page ($dups)" test -z "$dups"
check "mermaid: the page's colours" contains "$html" 'var(--bg,#fff)'
check "mermaid: no font from elsewhere" not_contains "$html" 'googleapis'
check "mermaid: no <style> of its own" not_contains "$(sed -n '/<svg/,/<\/svg>/p' "$FLUX")" '<style'
if command -v xmllint >/dev/null 2>&1; then
	well_formed "$FLUX" mermaid
fi
# a tree is laid out by folio's shortcut (its ranks set directly, no rank
# for edge labels it does not have): the same bytes as dagre's own way
T=$TMP/tree
mkdir -p "$T/content/posts"
printf 'title: T\nbase_url: https://example.org/\n' >"$T/folio.yml"
{
	printf -- '---\ntitle: Tree\ndate: 2026-01-01\n---\n```mermaid\ngraph TD\n'
	for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23; do
		printf '  n%d[Node %d] --> n%d[Node %d]\n' $(((i - 1) / 2)) $(((i - 1) / 2)) "$i" "$i"
	done
	printf '```\n'
} >"$T/content/posts/t.md"
cp -r "$T" "$TMP/tree2"
run build "$T" -o "$TMP/tree-out"
check "mermaid: a 24-node tree builds" test "$rc" -eq 0
export FOLIO_MERMAID_NO_SHORTCUT=1
run build "$TMP/tree2" -o "$TMP/tree-slow"
unset FOLIO_MERMAID_NO_SHORTCUT
check "... and dagre's own way draws it the same" cmp -s "$TMP/tree-out/posts/t/index.html" "$TMP/tree-slow/posts/t/index.html"

# a mistake: at the opening fence, with beautiful-mermaid's message
sed -i 's/^sequenceDiagram$/sequenceDiagramme/' "$SITE/content/posts/flux.md"
run build "$SITE" -o "$OUT"
check "mermaid: a mistake fails the build" test "$rc" -eq 1
check "... at the diagram's opening fence ($err)" contains "$err" "content/posts/flux.md:14:1: error: mermaid: "

finish
