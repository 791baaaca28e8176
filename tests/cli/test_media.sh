# test_media.sh: what the golden sites cannot show: the formula cache
# (.folio-cache/math/) across builds and macro changes, which pages load a
# script (none without math, a model or a video; model-viewer's only with
# a model, its asset only in a site with one), highlighted code blocks with
# options (their output depends on whether highlighting is built in), and
# the media posts of the example blog.
. "$(dirname "$0")/lib.sh"

export SOURCE_DATE_EPOCH=1790000000 # 2026-09-21, as the golden tests use

# new_site DIR TITLE: a site folder with a folio.yml and no content yet.
new_site() {
	mkdir -p "$1/content/posts"
	printf 'title: "%s"\nbase_url: "https://example.org/"\n' "$2" >"$1/folio.yml"
}

# post DIR SLUG BODY: a single-file post dated 2026-03-01.
post() {
	printf -- '---\ntitle: "%s"\ndate: 2026-03-01\n---\n%s\n' "$2" "$3" >"$1/content/posts/$2.md"
}

# manifest DIR: one checksum of every file under DIR with its path: two
# folders with the same manifest hold the same files with the same bytes.
manifest() {
	(cd "$1" && find . -type f ! -name .folio-output -print0 | sort -z | xargs -0 -r cksum) | cksum
}

# not CMD...: succeeds when CMD fails (check runs a command, not a pipeline).
not() { ! "$@"; }

# scripts FILE: the <script> tags of a page other than JSON-LD, one a line.
# scripts FILE: the script files a page loads (the theme's small inline
# scripts, the colour toggle and the math font's loader, are no files to
# fetch; JSON-LD is data)
scripts() {
	grep -o '<script[^>]*>' "$1" | grep ' src='
}

# ---- the formula cache ----

S=$TMP/cache-site
new_site "$S" "Cache"
{
	printf -- '---\ntitle: "Many Formulas"\ndate: 2026-03-01\n---\nFormulas, each once.\n\n'
	i=1
	while [ $i -le 40 ]; do
		printf 'Formula %d: $x_{%d} = \\frac{%d}{n+%d}$ and $$\\sum_{k=1}^{%d} k^2$$\n\n' $i $i $i $i $i
		i=$((i + 1))
	done
} >"$S/content/posts/many.md"

check "no cache before the first build" test ! -e "$S/.folio-cache"
run build "$S" -o "$TMP/c1"
check "a site with 80 formulas builds" test "$rc" -eq 0
check "the first build makes .folio-cache/math/" test -d "$S/.folio-cache/math"
ncache=$(find "$S/.folio-cache/math" -name '*.cache' -type f | wc -l)
check "the first build writes one cache file" test "$ncache" -eq 1
check "the output holds no cache" test ! -e "$TMP/c1/.folio-cache"
n=$(grep -o '<math' "$TMP/c1/posts/many/index.html" | wc -l)
check "every formula is typeset ($n of 80)" test "$n" -eq 80

run build "$S" -o "$TMP/c2"
check "the second build (from the cache) builds" test "$rc" -eq 0
check "the second build's output is byte-identical" test "$(manifest "$TMP/c1")" = "$(manifest "$TMP/c2")"

# A damaged cache is an empty one: same output, no error, and rewritten.
# (Without the rendered Markdown, which would spare typesetting at all.)
rm -f "$S/.folio-cache/markdown.pack"
for f in "$S"/.folio-cache/math/*.cache; do printf 'garbage' >"$f"; done
run build "$S" -o "$TMP/c3"
check "a damaged cache file is no error" test "$rc" -eq 0
check "a damaged cache file is not reported" test -z "$err"
check "a build over a damaged cache gives the same output" test "$(manifest "$TMP/c1")" = "$(manifest "$TMP/c3")"
check "a damaged cache file is rewritten" grep -q '^folio-math-cache' "$S"/.folio-cache/math/*.cache
# A cache cut short (its header whole, an entry cut): the same.
for f in "$S"/.folio-cache/math/*.cache; do
	head -c "$(($(wc -c <"$f") / 2))" "$f" >"$TMP/half" && cat "$TMP/half" >"$f"
done
run build "$S" -o "$TMP/c4"
check "a truncated cache file is no error" test "$rc" -eq 0 -a -z "$err"
check "a build over a truncated cache gives the same output" test "$(manifest "$TMP/c1")" = "$(manifest "$TMP/c4")"

# ---- math.macros ----

S=$TMP/macro-site
new_site "$S" "Macros"
printf 'math:\n  macros:\n    "\\\\RR": "\\\\mathbb{R}"\n' >>"$S/folio.yml"
post "$S" reals 'The reals: $x \in \RR$.'
run build "$S" -o "$TMP/m1"
check "a site with a macro builds" test "$rc" -eq 0
check "the macro expands (\\mathbb: double-struck)" grep -q 'mathvariant="double-struck"' "$TMP/m1/posts/reals/index.html"
sed -i 's/mathbb/mathbf/' "$S/folio.yml"
run build "$S" -o "$TMP/m2"
check "the site builds with the macro changed" test "$rc" -eq 0
check "a changed macro changes the formula's output" not cmp -s "$TMP/m1/posts/reals/index.html" "$TMP/m2/posts/reals/index.html"
check "the changed macro expands (\\mathbf: bold)" grep -q 'mathvariant="bold"' "$TMP/m2/posts/reals/index.html"
check "the old expansion is gone" not grep -q 'double-struck' "$TMP/m2/posts/reals/index.html"
ncache=$(find "$S/.folio-cache/math" -name '*.cache' -type f | wc -l)
check "the cache of the old macros is deleted" test "$ncache" -eq 1

# math: false: no KaTeX, no cache, the TeX as text.
S=$TMP/nomath-site
new_site "$S" "No Math"
printf 'math: false\n' >>"$S/folio.yml"
post "$S" dollars 'Text $x^2$ here.'
run build "$S" -o "$TMP/n1"
check "a site with math: false builds" test "$rc" -eq 0
check "math: false makes no formula cache" test ! -e "$S/.folio-cache/math"
check "math: false leaves the TeX as text" grep -q 'Text \$x^2\$ here' "$TMP/n1/posts/dollars/index.html"

# ---- scripts: only where a page needs one ----

S=$TMP/plain-site
new_site "$S" "Plain"
post "$S" plain 'A post without math, models or videos.'
post "$S" with-math 'Math needs no script: $a^2$.'
mkdir -p "$S/content/posts/with-image"
cp tests/sites/media-figures/site/content/posts/figures/pixel.png "$S/content/posts/with-image/"
printf -- '---\ntitle: "With Image"\ndate: 2026-03-02\n---\n![A pixel](pixel.png "A figure")\n\n:::note\nA callout.\n:::\n' \
	>"$S/content/posts/with-image/index.md"
run build "$S" -o "$TMP/p"
check "a site without models builds" test "$rc" -eq 0
out=$(scripts "$TMP/p/posts/plain/index.html")
check "a post without math or a model loads no script file" test -z "$out"
check "a post without math or a model has no <script src=" not grep -q '<script[^>]* src=' "$TMP/p/posts/plain/index.html"
out=$(scripts "$TMP/p/posts/with-math/index.html")
check "a post with math loads no script file (MathML)" test -z "$out"
check "a post with math has its <math>" grep -q '<math' "$TMP/p/posts/with-math/index.html"
out=$(scripts "$TMP/p/posts/with-image/index.html")
check "a post with a figure and a callout loads no script file" test -z "$out"
bad=""
# (but the search page, whose script is what it is for)
for f in $(cd "$TMP/p" && find . -name '*.html' ! -path './search/*'); do
	[ -n "$(scripts "$TMP/p/$f")" ] && bad="$bad $f"
done
out=$bad
check "no page of a site without models or videos loads a script file" test -z "$bad"
check "a site without models has no model-viewer asset" test ! -e "$TMP/p/assets/model-viewer.min.js"
out=$(ls "$TMP/p/assets" 2>/dev/null)
check "a site without models has nothing in assets/ but the math font" test "$out" = "stix-two-math.woff2"
# the math font goes with math on a page as with math in a post
rm "$S/content/posts/with-math.md"
mkdir -p "$S/content/pages"
printf -- '---\ntitle: "Formulas"\n---\nOnly here: $a^2$.\n' >"$S/content/pages/formulas.md"
run build "$S" -o "$TMP/p2"
check "a site whose only math is on a page builds" test "$rc" -eq 0
check "... with the math font" test -f "$TMP/p2/assets/stix-two-math.woff2"
rm "$S/content/pages/formulas.md"
run build "$S" -o "$TMP/p3"
check "a site without math has no math font" test ! -e "$TMP/p3/assets/stix-two-math.woff2"

# ---- code blocks with options, highlighted or not ----

S=$TMP/code-site
new_site "$S" "Code"
cat >"$S/content/posts/code.md" <<'EOF'
---
title: "Code"
date: 2026-03-01
---
```c {title="kernel.cu" hl="2" linenos start=10}
/* a "comment" */
int x = 1 < 2;
return x;
```

```klingon
nuqneH
```
EOF
run build "$S" -o "$TMP/k"
check "a site with code options builds" test "$rc" -eq 0
page=$TMP/k/posts/code/index.html
# the C block alone, from its <pre> to its </pre>
block=$(sed -n '/<figcaption class="code-title">kernel.cu/,/<\/pre>/p' "$page")
out=$block
check "a titled block is a figure with a caption" contains "$block" '<figure class="code"><figcaption class="code-title">kernel.cu</figcaption><pre class="linenos" tabindex="0" data-lang="c"><code class="language-c">'
check "lines are numbered from start" contains "$block" '<span class="ln" aria-hidden="true">10</span>'
check "the last line has its number" contains "$block" '<span class="ln" aria-hidden="true">12</span>'
check "hl marks line 2 only" test "$(printf '%s\n' "$block" | grep -c 'class="line hl"')" -eq 1
check "hl marks the right line" contains "$(printf '%s\n' "$block" | grep 'class="line hl"')" '>11</span>'
opens=$(printf '%s\n' "$block" | grep -o '<span' | wc -l)
closes=$(printf '%s\n' "$block" | grep -o '</span>' | wc -l)
check "spans balance in a wrapped block ($opens open, $closes closed)" test "$opens" -eq "$closes"
# the code's own text survives, escaped
text=$(printf '%s\n' "$block" | sed 's/<[^>]*>//g')
check "the code's text is all there, escaped" contains "$text" 'int x = 1 &lt; 2;'
if grep -q 'class="hl-' "$page"; then
	echo "note: highlighting is built in"
	check "highlighted lines keep their spans inside the line" contains "$block" '<span class="line hl"><span class="ln" aria-hidden="true">11</span><span class="hl-'
	check "an unknown language is a warning" contains "$err" "content/posts/code.md:11:1: warning: unknown language 'klingon'"
else
	echo "note: highlighting is not built in (no hl- spans)"
	check "without highlighting, no language is unknown" test -z "$err"
fi
check "an unknown language is plain text" grep -q '<pre tabindex="0" data-lang="klingon"><code class="language-klingon">nuqneH' "$page"

# ---- the example blog's media posts ----

cp -r examples/techblog "$TMP/techblog"
rm -rf "$TMP/techblog/.folio-cache" "$TMP/techblog/public"
run build "$TMP/techblog" -o "$TMP/tb"
check "the example blog builds" test "$rc" -eq 0
P=$TMP/tb/posts
p02=$P/gpu-systems-02-the-thread-warp-and-block-execution-model/index.html
p08=$P/gpu-systems-08-profiling-and-the-roofline-view/index.html
p13=$P/gpu-systems-13-reduction-kernels-in-depth/index.html

check "GPU Systems 02 has a <model-viewer>" grep -q '<model-viewer src="sm.glb" poster="sm.svg"' "$p02"
check "GPU Systems 02 has the model's still inside it, sized" grep -q '<img slot="poster" src="sm.svg" alt="A blue slab standing for one SM" width="480" height="300" decoding="async"></model-viewer>' "$p02"
check "GPU Systems 02 loads model-viewer when the reader asks for the 3D view (enhance.js)" grep -q '<script src="/enhance\.[0-9a-f]*\.js" defer [^>]*data-viewer="/assets/model-viewer.min.js"[^>]*></script>' "$p02"
check "GPU Systems 02 does not load model-viewer up front" not grep -q '<script type="module" src="/assets/model-viewer.min.js">' "$p02"
check "GPU Systems 02 has a note callout" grep -q '<aside class="callout callout-note"' "$p02"
check "GPU Systems 02's model is copied" test -s "${p02%/index.html}/sm.glb"
check "a site with a model has the model-viewer asset" test -s "$TMP/tb/assets/model-viewer.min.js"
size=$(wc -c <"$TMP/tb/assets/model-viewer.min.js")
check "the asset is model-viewer itself ($size bytes)" test "$size" -gt 100000
check "the asset defines the custom element" grep -q 'model-viewer' "$TMP/tb/assets/model-viewer.min.js"
check "a post without a model does not load model-viewer" not grep -q 'model-viewer.min.js' "$p08"

check "GPU Systems 08 has a <figure> (numbered: its label the id) with a sized image" grep -q '<figure id="fig:roofline"><img src="roofline.svg" alt="Roofline" width="480" height="300" fetchpriority="high" decoding="async"><figcaption>' "$p08"
check "GPU Systems 08 has <math>" grep -q '<math xmlns="http://www.w3.org/1998/Math/MathML"' "$p08"
check "GPU Systems 08 has display math" grep -q '<math xmlns="http://www.w3.org/1998/Math/MathML" display="block">' "$p08"
out=$(scripts "$p08")
check "GPU Systems 08 (math, a figure, code) loads only enhance.js (its code's copy button)" expr "$out" : '<script src="/enhance\.[0-9a-f]\{16\}\.js" defer data-copy="Copy" data-copied="Copied">$' >/dev/null
check "enhance.js is at most 1 KB" test "$(wc -c <"$TMP/tb/enhance.js")" -le 1024

reduced_picture=0
grep -q '<picture><source media="(prefers-reduced-motion: reduce)" srcset="tree-reduction-still.svg"><img src="tree-reduction.svg"' "$p13" && reduced_picture=1
reduced_script=0
grep -q 'prefers-reduced-motion: reduce).matches) for (const v of document.querySelectorAll("video.animation"))' "$p13" && reduced_script=1
check "GPU Systems 13's animation honours reduced motion (picture or script)" test $((reduced_picture + reduced_script)) -ge 1
check "GPU Systems 13 has a tip callout with its title" grep -q '<aside class="callout callout-tip" role="note"><p class="callout-title">Measure before you unroll</p>' "$p13"
check "GPU Systems 13's animation files are copied" test -s "${p13%/index.html}/tree-reduction-still.svg"


# ---- a model needs its still; media take their files' size ----

S=$TMP/model-site
new_site "$S" "Models"
mkdir -p "$S/content/posts/m"
printf 'glTF' >"$S/content/posts/m/a.glb"
printf -- '---\ntitle: "M"\ndate: 2026-03-02\n---\n:::model3d{src="a.glb" caption="A model"}\n:::\n' \
	>"$S/content/posts/m/index.md"
run build "$S" -o "$TMP/m"
check "a model without a poster: exit 1" test "$rc" -eq 1
check "a model without a poster: says why, where" contains "$err" 'content/posts/m/index.md:5:1: error: :::model3d needs poster="FILE"'
check "GPU Systems 13's animation has its file's width and height" grep -q '<img src="tree-reduction.svg" alt="[^"]*" width="480" height="200" loading="lazy"' "$p13"

finish
