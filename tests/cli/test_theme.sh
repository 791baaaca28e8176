#!/bin/sh
# test_theme.sh: the site's language (the theme's strings and dates from
# its i18n/ files, a site's own strings, the errors) and `folio theme
# export` (every file or some templates, never over a file, the same build
# after it, --help).
. tests/cli/lib.sh

# the example blog in another language: its words, its dates, <html lang>
lang_site() {
	rm -rf "$TMP/$1"
	cp -r examples/techblog "$TMP/$1"
	rm -rf "$TMP/$1/public" "$TMP/$1/.folio-cache"
	sed -i "s/^language:.*/language: $1/" "$TMP/$1/folio.yml"
	grep -q "^language: $1\$" "$TMP/$1/folio.yml" || echo "language: $1" >>"$TMP/$1/folio.yml"
}
# first POST_HTML: the first post card's date and reading time on the home page
meta() { grep -o '<time datetime="[^"]*">[^<]*</time> · [^<]*' "$1/index.html" | head -1 | sed 's/<time[^>]*>//; s|</time>||'; }

# the example's home page as the seed's: every series named, with its
# posts in the guide's order (tests/weight/home_series.py)
run build examples/techblog -o "$TMP/en-out"
check "en: the example builds" test "$rc" -eq 0
out=$(python3 tests/weight/home_series.py "$TMP/en-out" 2>&1)
rc=$?
check "en: every series is on the home page with its posts in order ($(echo "$out" | tail -n 1))" test "$rc" -eq 0

# the example's archive as the seed's archive page: its heading and
# sections, its tag cloud, and its post cards field by field
# (tests/weight/archive_seed.py; the seed's page as text: the project's
# copy, tests/weight/archive_seed.txt, the same as ../shared/seeds' where
# that is at hand); built without SOURCE_DATE_EPOCH, so that the seed's
# October posts are published
seed=tests/weight/archive_seed.txt
shared=../shared/seeds/004_8e8589d2c578de17.txt
[ -f "$shared" ] && check "the archive's seed is the shared one" cmp -s "$seed" "$shared"
(unset SOURCE_DATE_EPOCH; "$FOLIO" build examples/techblog -o "$TMP/now-out" >/dev/null 2>&1)
out=$(python3 tests/weight/archive_seed.py "$TMP/now-out" "$seed" 2>&1)
rc=$?
check "the archive shows the seed's cards, every field as the seed has it ($(echo "$out" | tail -n 1))" test "$rc" -eq 0
check "... on one page" test ! -e "$TMP/now-out/archive/page/2/index.html"
check "... of at most 150 KiB" test "$(wc -c <"$TMP/now-out/archive/index.html")" -le 153600

lang_site fr
run build "$TMP/fr" -o "$TMP/fr-out"
O=$TMP/fr-out
check "fr: the build succeeds" test "$rc" -eq 0
check "fr: <html lang=\"fr\">" grep -q '<html lang="fr">' "$O/index.html"
r=$(meta "$O")
check "fr: dates and reading time in French ($r)" test "$r" = "24 octobre 2026 · 5 min de lecture"
check "fr: the home page's headings" grep -q '>Articles récents <span class="count">127 articles</span>' "$O/index.html"
check "fr: the series cards" grep -q '>Par où commencer</a>' "$O/index.html"
check "fr: Part N of M" grep -rq '<summary>Partie 8 sur 10 de MLOps Fundamentals</summary>' "$O/posts"
check "fr: the archive" grep -q '<h1>Parcourir par série, étiquette ou année</h1>' "$O/archive/index.html"
check "fr: the archive page's title" grep -q '<title>Archives · ' "$O/archive/index.html"
check "fr: the 404 page" grep -q "<h1>Page introuvable</h1>" "$O/404.html"
check "fr: pagination" grep -q 'Page 1 sur ' "$O/index.html"
check "fr: aria-labels" grep -q 'aria-label="Étiquettes"' "$O/index.html"
check "fr: no English left on the home page" sh -c "! grep -Eq 'min read|Browse recent|Recommended Start|Series guide' '$O/index.html'"
check "fr: feeds keep RFC dates" grep -q '<updated>2026-' "$O/feed.xml"

lang_site de
run build "$TMP/de" -o "$TMP/de-out"
check "de: the build succeeds" test "$rc" -eq 0
check "de: <html lang=\"de\">" grep -q '<html lang="de">' "$TMP/de-out/index.html"
r=$(meta "$TMP/de-out")
check "de: dates in German ($r)" test "$r" = "24. Oktober 2026 · 5 Min. Lesezeit"
check "de: Teil N von M" grep -rq 'Teil 18 von 20 der Serie' "$TMP/de-out/posts"

lang_site zh
run build "$TMP/zh" -o "$TMP/zh-out"
check "zh: the build succeeds" test "$rc" -eq 0
check "zh: <html lang=\"zh\">" grep -q '<html lang="zh">' "$TMP/zh-out/index.html"
r=$(meta "$TMP/zh-out")
check "zh: dates in Chinese ($r)" test "$r" = "2026年10月24日 · 阅读约 5 分钟"

# every language file of the theme has every name of en.yml, and no other
keys() { sed -n 's/^\([a-z_]*\):.*/\1/p' "$1" | sort; }
keys theme/i18n/en.yml >"$TMP/en.keys"
for f in theme/i18n/*.yml; do
	keys "$f" >"$TMP/keys"
	check "$f: the names of en.yml" cmp -s "$TMP/en.keys" "$TMP/keys"
done
check "the theme has the six languages" test "$(ls theme/i18n | tr '\n' ' ')" = "de.yml en.yml es.yml fr.yml ja.yml zh.yml "

# English stays as it was
run build examples/techblog -o "$TMP/en-out"
check "en: the build succeeds" test "$rc" -eq 0
r=$(meta "$TMP/en-out")
check "en: dates and reading time in English ($r)" test "$r" = "October 24, 2026 · 5 min read"

# a site's own string, over the theme's
S=$TMP/small
mkdir -p "$S/content/posts" "$S/i18n"
printf 'title: "T"\nbase_url: "https://example.org/"\nlanguage: fr\n' >"$S/folio.yml"
printf -- '---\ntitle: "Un"\ndate: 2026-12-03\n---\nLe texte.\n' >"$S/content/posts/un.md"
printf 'min_read: "{n} minute(s)"\n' >"$S/i18n/fr.yml"
run build "$S" -o "$TMP/small-out"
check "override: the build succeeds" test "$rc" -eq 0
r=$(meta "$TMP/small-out")
check "override: the site's string, the theme's date ($r)" test "$r" = "3 décembre 2026 · 1 minute(s)"
check "override: the other strings are the theme's" grep -q '<span class="count">1 article</span>' "$TMP/small-out/index.html"

# the words folio puts in a post's HTML (heading links, callouts without a
# title) are the language's too, and the site's over them
printf -- '---\ntitle: "Deux"\ndate: 2026-12-04\n---\n## Une section\n\n:::note\nUne note.\n:::\n\n:::warning\nAh.\n:::\n' \
	>"$S/content/posts/deux.md"
run build "$S" -o "$TMP/small-out5"
check "fr: a callout's title in French" grep -q '<p class="callout-title">Remarque</p>' "$TMP/small-out5/posts/deux/index.html"
check "fr: a warning's too" grep -q '<p class="callout-title">Attention</p>' "$TMP/small-out5/posts/deux/index.html"
check "fr: the heading link's label" grep -q 'aria-label="Lien vers cette section">#</a>' "$TMP/small-out5/posts/deux/index.html"
printf 'min_read: "{n} minute(s)"\ncallout_note: "Nota bene"\n' >"$S/i18n/fr.yml"
run build "$S" -o "$TMP/small-out6"
check "fr: the site's word for a note, over the theme's (the cache too)" \
	grep -q '<p class="callout-title">Nota bene</p>' "$TMP/small-out6/posts/deux/index.html"
rm "$S/content/posts/deux.md"
printf 'min_read: "{n} minute(s)"\n' >"$S/i18n/fr.yml"

# a name the theme does not have: path:line:col and a suggestion
printf 'min_read: "{n} min"\nmin_raed: "x"\n' >"$S/i18n/fr.yml"
run build "$S" -o "$TMP/small-out2"
check "unknown string: exit 1" test "$rc" -eq 1
check "unknown string: where and what ($err)" contains "$err" \
	"i18n/fr.yml:2:1: error: unknown string 'min_raed' (did you mean 'min_read'?)"
check "unknown string: nothing written" test ! -e "$TMP/small-out2"

# a language nobody has: at folio.yml's key, with the known ones
rm "$S/i18n/fr.yml"
sed -i 's/^language: fr/language: eo/' "$S/folio.yml"
run build "$S" -o "$TMP/small-out3"
check "unknown language: exit 1" test "$rc" -eq 1
check "unknown language: where and what ($err)" contains "$err" \
	"folio.yml:3:11: error: unknown language 'eo' (the theme has de, en, es, fr, ja, zh; for another, write i18n/eo.yml)"
# the site's own file makes it known; what it leaves out is English, with a warning
printf 'plural: one\nmin_read: "{n} minutoj"\n' >"$S/i18n/eo.yml"
run build "$S" -o "$TMP/small-out4"
check "a language of the site: built" test "$rc" -eq 0
check "a language of the site: its string" grep -q '1 minutoj' "$TMP/small-out4/index.html"
check "a language of the site: a warning for the rest ($err)" contains "$err" "i18n/eo.yml:1:1: warning:"
check "a language of the site: <html lang=\"eo\">" grep -q '<html lang="eo">' "$TMP/small-out4/index.html"

# ---- folio theme export ----
run theme --help
check "theme --help: exit 0" test "$rc" -eq 0
check "theme --help: the usage" contains "$out" "usage: folio theme export [DIR] [TEMPLATE...]"
run theme export --help
check "theme export --help: exit 0" test "$rc" -eq 0
check "theme export -h: the usage, nothing done" sh -c "'$FOLIO' theme export -h '$S' | grep -q '^usage: folio theme export' && test ! -e '$S/templates'"
run help theme
check "help theme: the usage" contains "$out" "usage: folio theme export"
run theme
check "theme alone: usage error" test "$rc" -eq 2
run theme frobnicate
check "theme frobnicate: usage error" test "$rc" -eq 2
run theme export --frob
check "theme export --frob: usage error" test "$rc" -eq 2

E=$TMP/exp
rm -rf "$E"
cp -r examples/techblog "$E"
rm -rf "$E/public" "$E/.folio-cache" "$E/static/style.css" "$E/static/favicon.svg"
run build "$E" -o "$TMP/exp-before"
check "export: the site builds before" test "$rc" -eq 0
run theme export "$E"
check "export: exit 0" test "$rc" -eq 0
check "export: the templates" test -f "$E/templates/post.html" -a -f "$E/templates/base.html"
check "export: the static files" test -f "$E/static/style.css" -a -f "$E/static/favicon.svg"
check "export: the language files" test -f "$E/i18n/en.yml" -a -f "$E/i18n/fr.yml" -a -f "$E/i18n/ja.yml"
check "export: no model-viewer (folio adds it where needed)" test ! -e "$E/assets"
check "export: prints what it wrote" contains "$out" "wrote templates/post.html"
check "export: the same bytes as the theme's" cmp -s "$E/templates/post.html" theme/templates/post.html
run build "$E" -o "$TMP/exp-after"
check "export: the site builds after" test "$rc" -eq 0
check "export: byte-identical output" diff -r "$TMP/exp-before" "$TMP/exp-after"

# again: every file exists; refused, nothing written
echo "mine" >"$E/templates/tag.html"
run theme export "$E"
check "again: exit 1" test "$rc" -eq 1
check "again: names the file" contains "$err" "templates/post.html: error: already exists; not overwritten"
check "again: names every one" contains "$err" "static/style.css: error: already exists"
check "again: nothing written" test "$(cat "$E/templates/tag.html")" = "mine"

# named templates, from inside the site
N=$TMP/named
mkdir -p "$N"
printf 'title: "T"\n' >"$N/folio.yml"
echo "keep" >"$N/keep.txt"
case "$FOLIO" in /*) F=$FOLIO ;; *) F=$(pwd)/$FOLIO ;; esac
out=$(cd "$N" && "$F" theme export post.html macros.html 2>"$TMP/err")
rc=$?
check "named: exit 0" test "$rc" -eq 0
check "named: those two only" test "$(cd "$N" && find templates static i18n -type f 2>/dev/null | sort | tr '\n' ' ')" = \
	"templates/macros.html templates/post.html "
# one of them exists: refused, and the other is not written either
rm "$N/templates/macros.html"
run theme export "$N" macros.html post.html
check "named, one exists: exit 1" test "$rc" -eq 1
check "named, one exists: names it" contains "$err" "templates/post.html: error: already exists"
check "named, one exists: the other not written" test ! -e "$N/templates/macros.html"
run theme export "$N" macros.html
check "one file: exit 0" test "$rc" -eq 0
check "one file: said in the singular ($out)" contains "$out" "exported 1 file of the default theme; edit it, it replaces the theme's"
# a name that is not a template
run theme export "$N" pots.html
check "not a template: exit 1" test "$rc" -eq 1
check "not a template: did you mean ($err)" contains "$err" "pots.html: error: not a template of the theme (did you mean 'post.html'?)"
# not a site
mkdir -p "$TMP/nosite"
run theme export "$TMP/nosite"
check "not a site: exit 1" test "$rc" -eq 1
check "not a site: says so" contains "$err" "not a folio site: it has no folio.yml"
check "not a site: nothing written" test ! -e "$TMP/nosite/templates"
run theme export "$TMP/no-such-site"
check "no such folder: exit 1" test "$rc" -eq 1
check "no such folder: says so ($err)" contains "$err" "no-such-site: error: no such folder"


not() { ! "$@"; }

# ---- the pages' metadata and the theme's numbers (the example, in English) ----

lang_site en
printf 'image: /favicon.svg\n' >>"$TMP/en/folio.yml"
run build "$TMP/en" -o "$TMP/en-site-out"
O=$TMP/en-site-out
check "en: the build succeeds" test "$rc" -eq 0
css=$(grep -o '<link rel="stylesheet" href="/style\.[0-9a-f]*\.css">' "$O/index.html" | sed 's/.*href="\/\([^"]*\)".*/\1/')
out=$css
check "the pages link to the fingerprinted stylesheet, which is written" test -n "$css" -a -f "$O/$css"
python3 -c 'import re, sys; sys.stdout.write(re.sub(r"(?m)^[ \t]*\n", "", re.sub(r"/\*.*?\*/", "", open("theme/static/style.css").read(), flags=re.S)))' >"$TMP/style-bare.css"
check "the fingerprinted stylesheet is the theme's style.css without its comments" cmp -s "$O/$css" "$TMP/style-bare.css"
check "... and the plain one is as written" cmp -s "$O/style.css" theme/static/style.css
check "every page links to the same stylesheet" test "$(grep -rl "href=\"/$css\"" "$O" --include='*.html' | wc -l)" -eq "$(grep -rl 'rel="stylesheet"' "$O" --include='*.html' | wc -l)"
# a site's own static/style.css: the pages link to its bytes' name
mkdir -p "$TMP/own/static" "$TMP/own/content/posts"
printf 'title: "Own"\nbase_url: "https://example.org/"\n' >"$TMP/own/folio.yml"
printf -- '---\ntitle: "One"\ndate: 2026-01-02\n---\nText.\n' >"$TMP/own/content/posts/one.md"
printf 'body{color:#123}\n' >"$TMP/own/static/style.css"
run build "$TMP/own" -o "$TMP/own-out"
ocss=$(grep -o 'href="/style\.[0-9a-f]*\.css"' "$TMP/own-out/index.html" | sed 's/href="\/\([^"]*\)"/\1/')
out=$ocss
check "a site's own style.css: the pages link to its fingerprinted name" test -n "$ocss" -a "$ocss" != "$css"
check "... whose bytes are the site's" cmp -s "$TMP/own-out/$ocss" "$TMP/own/static/style.css"
check "the example's home has its ways in (Start here, Best of, recent posts)" grep -q 'class="entry-points"' "$O/index.html"
check "a home without start_here, best_of or featured series has no lone card for the list below it" not grep -q 'class="entry-points"' "$TMP/own-out/index.html"
pcss=$(grep -o '<link rel="stylesheet" href="/print\.[0-9a-f]*\.css" media="print">' "$O/index.html" | sed 's/.*href="\/\([^"]*\)".*/\1/')
out=$pcss
check "the pages link a print stylesheet, for paper only, which is written" test -n "$pcss" -a -f "$O/$pcss"
check "... which leaves the header, footer and navigation off paper" grep -q '^\.site-header,\.site-footer,.*{display:none' "$O/$pcss"
check "the 404 page is noindex" grep -q '<meta name="robots" content="noindex">' "$O/404.html"
check "the 404 page has no canonical link" not grep -q 'rel="canonical"' "$O/404.html"
check "a page that is found has no noindex" not grep -q 'noindex' "$O/index.html"
d1=$(grep -o '<meta name="description" content="[^"]*">' "$O/index.html")
d2=$(grep -o '<meta name="description" content="[^"]*">' "$O/page/2/index.html")
out="$d1 / $d2"
check "a paginated page has its own description" test -n "$d2" -a "$d1" != "$d2"
check "... which says which page it is" contains "$d2" "(page 2 of "
p13=$O/posts/gpu-systems-13-reduction-kernels-in-depth/index.html
check "a series numbered from 0: GPU Systems 13 is part 13, of 20 (its last part), one number only" grep -q '<summary>Part 13 of 20 in GPU Systems</summary>' "$p13"
check "... as its JSON-LD position" grep -q '"position":13,' "$p13"
check "... and its list starts at 0" grep -q '<ol class="series-list" start="0">' "$p13"
check "a post's first figure is its link preview" grep -q '<meta property="og:image" content="https://jae.example.org/posts/gpu-systems-13-reduction-kernels-in-depth/tree-reduction.svg">' "$p13"
check "... with a large card" grep -q '<meta name="twitter:card" content="summary_large_image">' "$p13"
p00=$O/posts/gpu-systems-00-what-you-should-know-before-starting-this-series/index.html
check "a post without a figure: the site's image" grep -q '<meta property="og:image" content="https://jae.example.org/favicon.svg">' "$p00"
check "the home page: the site's image" grep -q '<meta property="og:image" content="https://jae.example.org/favicon.svg">' "$O/index.html"
check "a series post's end: the next part" grep -q '<a class="next-card" rel="next" href="/posts/gpu-systems-14-why-softmax-is-such-a-good-kernel-exercise/"><span class="kicker">Next in this series · part 14</span>' "$p13"
check "a series post has no newer/older links" not grep -q 'class="post-nav"' "$p13"
check "the archive has one h1, the seed's heading, and its posts under one h2 Archive" test "$(grep -c '<h1' "$O/archive/index.html")" -eq 1 -a "$(grep -c '<h1>Browse by series, tag, or year</h1>' "$O/archive/index.html")" -eq 1 -a "$(grep -c '<h2[^>]*>Archive</h2>' "$O/archive/index.html")" -eq 1

finish
