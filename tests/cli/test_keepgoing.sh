# test_keepgoing.sh: folio build --keep-going writes the site in spite of
# errors, for previewing: every error is still printed and the exit status
# is 1, the pages that can be are written and swapped in, a formula KaTeX
# refuses shows as its TeX in an error box, a missing image as its alt text;
# without the option nothing is written.
. "$(dirname "$0")/lib.sh"

export SOURCE_DATE_EPOCH=1790000000

site=$TMP/site
mkdir -p "$site/content/posts" "$site/static"
cat >"$site/folio.yml" <<'YML'
title: Keep going
base_url: https://example.org/
math: {}
YML
cat >"$site/content/posts/good.md" <<'MD'
---
title: Good
date: 2026-01-02
---
A fine formula $a+b$ and nothing wrong.
MD
cat >"$site/content/posts/bad.md" <<'MD'
---
title: Bad
date: 2026-01-03
---
Größe → $x + \oops{y}$ and $$\frac{1}{$$ here.

![A chart of warps](/img/chart.png)

See [the missing post](/posts/nowhere/).
MD

# without --keep-going: nothing is written
run build "$site"
check "errors: exit 1" test "$rc" -eq 1
check "nothing written" test ! -e "$site/public"
check "says nothing was written" contains "$err" "errors; nothing was written"

run build "$site" --keep-going
check "--keep-going: still exit 1" test "$rc" -eq 1
check "the bad formula is reported, its column in characters" \
	contains "$err" "content/posts/bad.md:5:14: error: math: Undefined control sequence: \\oops"
check "the second formula is reported" contains "$err" "content/posts/bad.md:5:39: error: math: "
check "the missing image is reported" contains "$err" "content/posts/bad.md:7:21: error: image '/img/chart.png' not found"
check "the broken link is reported" contains "$err" "error: broken link '/posts/nowhere/'"
check "the image is not reported twice as a broken link" test "$(printf '%s\n' "$err" | grep -c "broken link '/img")" -eq 0
check "4 errors" contains "$err" "folio: 4 errors; the site was written anyway (--keep-going), for previewing"
bad=$site/public/posts/bad/index.html
good=$site/public/posts/good/index.html
check "the bad page is written" test -f "$bad"
check "the good page is written" test -f "$good"
check "the home page is written" test -f "$site/public/index.html"
check "the failed formula in an error box, with the message" \
	grep -q '<span class="math-error" title="math: Undefined control sequence: \\oops[^"]*">x + \\oops{y}</span>' "$bad"
check "a failed display formula in a display box" grep -q '<span class="math-error display" title="math: ' "$bad"
check "the missing image as its alt text in a box" \
	grep -q '<span class="image-error" title="image &#39;/img/chart.png&#39; not found (looked in static/)">A chart of warps</span>' "$bad"
check "no img of the missing file" test "$(grep -c 'src="/img/chart.png"' "$bad")" -eq 0
check "the good formula is typeset" grep -q 'class="katex' "$good"
check "the good page has no error box" test "$(grep -c 'math-error\|image-error' "$good")" -eq 0
check "the style of the boxes" grep -q '^\.math-error, \.image-error, \.diagram-error {' "$site/public/style.css"

# again: every error is printed again (an erring build is never up to date)
run build "$site" --keep-going
check "a second build: exit 1" test "$rc" -eq 1
check "a second build: the errors again" contains "$err" "folio: 4 errors; the site was written anyway"

# fixed: a build without errors replaces the preview
sed -i 's/\\oops{y}/y/; s/\$\$\\frac{1}{\$\$/$1$/; s/!\[A chart of warps\](\/img\/chart.png)//; s/(\/posts\/nowhere\/)/(\/posts\/good\/)/' \
	"$site/content/posts/bad.md"
run build "$site"
check "fixed: exit 0" test "$rc" -eq 0
check "fixed: no error box" test "$(grep -c 'math-error\|image-error' "$bad")" -eq 0

# a broken template: that page cannot be made, the others are
mkdir -p "$site/templates"
printf '{%% extends "base.html" %%}{%% block content %%}{{ page.title | nosuchfilter }}{%% endblock %%}\n' \
	>"$site/templates/page.html"
mkdir -p "$site/content/pages"
printf -- '---\ntitle: About\n---\nAbout.\n' >"$site/content/pages/about.md"
rm -rf "$site/public"
run build "$site" -k
check "-k: exit 1" test "$rc" -eq 1
check "-k: the template error" contains "$err" "templates/page.html:1:"
check "-k: the posts are written" test -f "$good"

# a directive's missing file: reported once (not again by the link
# check), shown in place with its caption, and no link to it
printf -- '---\ntitle: Clip\ndate: 2026-01-04\n---\n:::video{src="/clips/none.mp4" poster="/clips/none.png" caption="The warp"}\n:::\n' \
	>"$site/content/posts/clip.md"
run build "$site" -k
check "video: exit 1" test "$rc" -eq 1
check "video: the missing file, once" test "$(printf '%s\n' "$err" | grep -c "error: .*none.mp4")" -eq 1
check "video: the missing poster, once" test "$(printf '%s\n' "$err" | grep -c "error: .*none.png")" -eq 1
check "video: no broken-link report" test -z "$(printf '%s\n' "$err" | grep "broken link")"
check "video: an error box with its caption" grep -q '<span class="image-error" title=":::video src &#39;/clips/none.mp4&#39; not found (looked in static/)">The warp</span>' "$site/public/posts/clip/index.html"
check "video: no link to the missing file" test "$(grep -c 'none.mp4"' "$site/public/posts/clip/index.html")" -eq 0
rm "$site/content/posts/clip.md"

# folio help build documents it
run help build
check "help build: --keep-going" contains "$out" "--keep-going"
check "help build: for previewing" contains "$out" "previewing"

finish
