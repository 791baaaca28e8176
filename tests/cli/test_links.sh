# test_links.sh: every internal link, image and #fragment is checked at each
# build (links.check), .md and @/ links, links under a sub-path base_url
# (a crawl of the example blog served under /blog/), folio serve under a
# base path, and folio check (--external against a local server).
. "$(dirname "$0")/lib.sh"

export SOURCE_DATE_EPOCH=1790000000

# site DIR: a small site of two posts, a page and a template of its own.
site() {
	mkdir -p "$1/content/posts" "$1/content/pages" "$1/static/img" "$1/templates"
	cat >"$1/folio.yml" <<'YML'
title: Links
base_url: https://example.org/
YML
	cat >"$1/content/posts/warps.md" <<'MD'
---
title: Warps
date: 2026-01-02
tags: [cuda]
---
## Warp scheduling

Text.
MD
	cat >"$1/content/posts/blocks.md" <<'MD'
---
title: Blocks
date: 2026-01-03
---
See [warps](warps.md#warp-scheduling), [again](@/posts/warps.md) and
[about](@/pages/about.md), ![fig](/img/a.png) and [up](#intro).

## Intro

<a href="/tags/cuda/">cuda</a> <img src="/img/a.png" alt="">
MD
	cat >"$1/content/pages/about.md" <<'MD'
---
title: About
---
About [the feed](/feed.xml).
MD
	printf 'PNG' >"$1/static/img/a.png"
}

# ignored_post DIR: a post whose link to an upload is left unchecked
# (ignore_links)
ignored_post() {
	cat >"$1/content/posts/ign.md" <<'MD'
---
title: Ignored
date: 2026-01-05
ignore_links: ["/downloads/*"]
---
[a](/downloads/big.tar) is uploaded by hand.
MD
}

# ---- a site without a broken link ----

S=$TMP/ok
site "$S"
run build "$S" -o "$TMP/ok-out"
check "a site without broken links builds" test "$rc" -eq 0
check "... and says nothing" test -z "$err"
check ".md links become the post's URL, with the fragment" \
	grep -q 'href="/posts/warps/#warp-scheduling"' "$TMP/ok-out/posts/blocks/index.html"
check "@/ links become the post's URL" grep -q 'href="/posts/warps/"' "$TMP/ok-out/posts/blocks/index.html"
check "@/ links to a page" grep -q 'href="/about/"' "$TMP/ok-out/posts/blocks/index.html"

# ---- each kind of broken link, at its place ----

B=$TMP/broken
site "$B"
cat >"$B/content/posts/bad.md" <<'MD'
---
title: Bad
date: 2026-01-04
---
[a](/posts/warp/) [b](/img/nope.png)
[c](#nowhere) [d](/posts/warps/#nowhere)
[e](nothere.md) [f](@/posts/nothere.md) [g](warps.md#nope)
<a href="/series/none/">h</a>
[i](/posts/warps/#nope)

## Heading
MD
run build "$B" -o "$TMP/broken-out"
check "broken links fail the build" test "$rc" -eq 1
check "nothing is written" test ! -e "$TMP/broken-out"
check "a missing page, with a close name" contains "$err" \
	"content/posts/bad.md:5:5: error: broken link '/posts/warp/': the site has no page or file /posts/warp/ (did you mean '/posts/warps/'?)"
check "a missing static file" contains "$err" \
	"content/posts/bad.md:5:23: error: broken link '/img/nope.png': the site has no page or file /img/nope.png"
check "a fragment on the same page" contains "$err" \
	"content/posts/bad.md:6:5: error: broken link '#nowhere': this page has no element with id 'nowhere'"
check "a fragment on another page" contains "$err" \
	"content/posts/bad.md:6:19: error: broken link '/posts/warps/#nowhere': /posts/warps/ has no element with id 'nowhere'"
check "a .md link to no post" contains "$err" \
	"content/posts/bad.md:7:5: error: broken link 'nothere.md': no post, page or series content/posts/nothere.md"
check "an @/ link to no post" contains "$err" \
	"content/posts/bad.md:7:21: error: broken link '@/posts/nothere.md': no post, page or series content/posts/nothere.md"
check "a .md link's fragment is checked on its post" contains "$err" \
	"content/posts/bad.md:7:45: error: broken link '/posts/warps/#nope': /posts/warps/ has no element with id 'nope'"
check "... and so is the same URL written as it is" contains "$err" \
	"content/posts/bad.md:9:5: error: broken link '/posts/warps/#nope': /posts/warps/ has no element with id 'nope'"
check "a link in raw HTML" contains "$err" \
	"content/posts/bad.md:8:10: error: broken link '/series/none/': the site has no page or file /series/none/"
check "the source line is shown" contains "$err" " 5 | [a](/posts/warp/) [b](/img/nope.png)"

# a link that a template writes is reported at the template's line
T=$TMP/tmpl
site "$T"
mkdir -p "$T/templates"
cat >"$T/templates/404.html" <<'TPL'
<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Not found</title></head>
<body><main><h1>Not found</h1>
<p>Try <a href="{{ "/archives/" | rel_url }}">the archive</a>.</p></main></body></html>
TPL
run build "$T" -o "$TMP/tmpl-out"
check "a template's broken link fails the build" test "$rc" -eq 1
check "... reported at the template's line" contains "$err" \
	"templates/404.html:4:21: error: broken link '/archives/': the site has no page or file /archives/ (did you mean '/archive/'?)"

# ---- links.check and ignore_links ----

W=$TMP/warn
cp -r "$B" "$W"
printf 'links:\n  check: warn\n' >>"$W/folio.yml"
run build "$W" -o "$TMP/warn-out"
check "links.check: warn builds" test "$rc" -eq 0
check "... with warnings" contains "$err" \
	"content/posts/bad.md:5:5: warning: broken link '/posts/warp/'"
O=$TMP/off
cp -r "$B" "$O"
printf 'links:\n  check: off\n' >>"$O/folio.yml"
run build "$O" -o "$TMP/off-out"
check "links.check: off builds" test "$rc" -eq 0
check "... in silence" test -z "$err"
X=$TMP/badmode
cp -r "$S" "$X"
printf 'links:\n  check: maybe\n' >>"$X/folio.yml"
run build "$X" -o "$TMP/badmode-out"
check "a wrong links.check is an error" contains "$err" \
	"folio.yml:4:10: error: links.check must be 'error', 'warn' or 'off', found 'maybe'"
I=$TMP/ignore
site "$I"
ignored_post "$I"
run build "$I" -o "$TMP/ignore-out"
check "ignore_links leaves a link unchecked" test "$rc" -eq 0
run build "$I" -o "$TMP/ignore-out" --base-url https://example.org/blog/
check "... under a sub-path base_url too" test "$rc" -eq 0
check "the build says how many links ignore_links leaves unchecked" contains "$out" \
	"; 1 link left unchecked by ignore_links ('folio check --ignored' lists it)"
run check "$I" --ignored
check "folio check --ignored exits 0" test "$rc" -eq 0
check "... and lists the ignored link that leads nowhere, as a note at its place" contains "$err" \
	"content/posts/ign.md:6:5: note: not checked (ignore_links has '/downloads/*'): broken link '/downloads/big.tar': the site has no page or file /downloads/big.tar"

# a social card's image and a link written with the site's own address
# are checked as their paths are; under a sub-path base_url, a post's
# first image is its card without the base path twice
G=$TMP/card
site "$G"
printf -- '---\ntitle: Card\ndate: 2026-01-07\nimage: /img/none.png\n---\nSee [home](https://example.org/posts/nowhere/).\n' >"$G/content/posts/card.md"
run build "$G" -o "$TMP/card-out"
check "an og:image naming no file is a broken link" contains "$err" \
	"content/posts/card.md: error: broken link 'https://example.org/img/none.png': the site has no page or file /img/none.png (on the page /posts/card/)"
check "a link with the site's own address is checked" contains "$err" \
	"content/posts/card.md:6:12: error: broken link 'https://example.org/posts/nowhere/': the site has no page or file /posts/nowhere/"
sed -i 's|/img/none.png|/img/a.png|; s|posts/nowhere/|posts/warps/|' "$G/content/posts/card.md"
run build "$G" -o "$TMP/card-out"
check "... and both pass once they lead somewhere" test "$rc" -eq 0
sed -i 's|https://example.org/posts/warps/|warps.md|' "$G/content/posts/card.md"
run build "$G" -o "$TMP/card-sub" --base-url https://example.org/blog/
check "under a sub-path base_url, the first image is the card once" grep -q 'og:image" content="https://example.org/blog/img/a.png"' "$TMP/card-sub/posts/blocks/index.html"
# a bundle's image: named relative to the post is its file's card
mkdir -p "$G/content/posts/bundled"
printf -- '---\ntitle: Bundled\ndate: 2026-01-08\nimage: cover.png\n---\nText.\n' >"$G/content/posts/bundled/index.md"
cp "$G/static/img/a.png" "$G/content/posts/bundled/cover.png"
run build "$G" -o "$TMP/card-bundle"
check "a bundle's relative image: builds" test "$rc" -eq 0
check "... and is the card beside its post" grep -q 'og:image" content="https://example.org/posts/bundled/cover.png"' "$TMP/card-bundle/posts/bundled/index.html"

# a first image named with "../" is the card at its resolved address
mkdir -p "$G/content/posts/up" "$G/static/posts/imgs"
cp "$G/static/img/a.png" "$G/static/posts/imgs/up.png"
printf -- '---\ntitle: Up\ndate: 2026-01-09\n---\n<img src="../imgs/up.png" alt="up">\n' >"$G/content/posts/up/index.md"
run build "$G" -o "$TMP/card-up"
check "a first image under ../ builds" test "$rc" -eq 0
check "... its card has no dot segment" grep -q 'og:image" content="https://example.org/posts/imgs/up.png"' "$TMP/card-up/posts/up/index.html"
rm -r "$G/content/posts/up" "$G/static/posts"
# a first image that ignore_links leaves unchecked (missing in the blog it
# came from) makes no card, and its own-origin form is ignored too
printf -- '---\ntitle: Gone\ndate: 2026-01-10\nignore_links:\n  - "/img/gone.png"\n  - "../img/old.png"\n---\n<img src=\"../img/old.png\" alt=\"old\">\n\n[gone](/img/gone.png) [here](https://example.org/img/gone.png)\n' >"$G/content/posts/gone.md"
run build "$G" -o "$TMP/card-gone"
check "an ignored first image: the site builds" test "$rc" -eq 0
check "... and the post has no card that leads nowhere" sh -c '! grep -q og:image "$1"' _ "$TMP/card-gone/posts/gone/index.html"
rm "$G/content/posts/gone.md"

# a link to a draft is a warning that says so
D=$TMP/draft
site "$D"
cat >"$D/content/posts/soon.md" <<'MD'
---
title: Soon
date: 2026-01-06
draft: true
---
Soon.
MD
printf '\nNext: [soon](soon.md).\n' >>"$D/content/posts/warps.md"
run build "$D" -o "$TMP/draft-out"
check "a link to a draft builds" test "$rc" -eq 0
check "... with a warning naming the draft" contains "$err" \
	"warning: link '/posts/soon/' leads to /posts/soon/, which this build leaves out (a draft): the link is dead until it is published"

# ---- folio check ----

run check "$S"
check "folio check passes a good site" test "$rc" -eq 0
check "... and counts the links" contains "$out" "internal links"
check "folio check writes no output" test ! -e "$S/public"
run check "$B"
check "folio check fails on a broken link" test "$rc" -eq 1
check "... at its place" contains "$err" "content/posts/bad.md:5:5: error: broken link '/posts/warp/'"
check "folio check writes nothing there either" test ! -e "$B/public"
# folio check keeps nothing in .folio-cache: no state of its scratch
# folder (each check left one, and the next build's pruning kept them in
# place of real outputs' state), no formulas
R=$TMP/fresh
site "$R"
printf '\nEnergy: $E = mc^2$.\n' >>"$R/content/posts/warps.md"
run check "$R"
check "folio check of a site never built passes" test "$rc" -eq 0
check "... and makes no .folio-cache" test ! -e "$R/.folio-cache"
run build "$R" -o "$TMP/fresh-out"
cache_sums() { (cd "$1/.folio-cache" && find . -type f | sort | xargs md5sum); }
before=$(cache_sums "$R")
for _ in 1 2 3 4 5 6 7 8 9; do "$FOLIO" check "$R" >/dev/null 2>&1; done
check "nine checks leave a build's .folio-cache as it was" test "$(cache_sums "$R")" = "$before"
run build "$R" -o "$TMP/fresh-out"
check "... and the next build finds nothing changed" contains "$out" "nothing changed, the output was kept"
run check "$TMP/no-such-site"
check "folio check of a missing folder exits 1" test "$rc" -eq 1
run check "$S" --frobnicate
check "folio check: an unknown option exits 2" test "$rc" -eq 2

# ---- folio check --external, against a local server ----

xport=$(free_port)
mkdir -p "$TMP/ext/dir"
echo ok >"$TMP/ext/ok.html"
echo in >"$TMP/ext/dir/index.html"
python3 -m http.server "$xport" --bind 127.0.0.1 --directory "$TMP/ext" >"$TMP/ext.log" 2>&1 &
xpid=$!
for _ in $(seq 1 50); do
	curl -s -o /dev/null --max-time 1 "http://127.0.0.1:$xport/ok.html" && break
	sleep 0.1
done
E=$TMP/extsite
site "$E"
cat >"$E/content/posts/out.md" <<MD
---
title: Out
date: 2026-01-07
---
[fine](http://127.0.0.1:$xport/ok.html) and [again](http://127.0.0.1:$xport/ok.html#part).
[gone](http://127.0.0.1:$xport/gone.html)
[moved](http://127.0.0.1:$xport/dir)
MD
run check "$E"
check "folio check leaves external links alone without --external" test "$rc" -eq 0
run check "$E" --external
check "a dead external link fails folio check --external" test "$rc" -eq 1
check "... at its place, with the server's answer" contains "$err" \
	"content/posts/out.md:6:8: error: broken link 'http://127.0.0.1:$xport/gone.html': 404"
check "a permanent redirect is a warning naming the new address" contains "$err" \
	"content/posts/out.md:7:9: warning: link 'http://127.0.0.1:$xport/dir' redirects to 'http://127.0.0.1:$xport/dir/' (301)"
check "... and the good link is no error" test -z "$(printf '%s\n' "$err" | grep "ok.html")"
check "folio check --external writes no output" test ! -e "$E/public"
check "the answers are kept in .folio-cache" grep -q "ok.html" "$E/.folio-cache/external-links"
sed -i '/gone.html/d; /\/dir)/d' "$E/content/posts/out.md"
hits=$(grep -c "ok.html" "$TMP/ext.log")
run check "$E" --external
check "without the dead link, folio check --external passes" test "$rc" -eq 0
check "... counting the addresses, from the cache" contains "$out" "1 external address (1 from the cache)"
check "... without asking the server again" test "$(grep -c "ok.html" "$TMP/ext.log")" -eq "$hits"
kill "$xpid" 2>/dev/null
wait "$xpid" 2>/dev/null
run check "$E" --external
check "a cached answer needs no server" test "$rc" -eq 0
rm -rf "$E/.folio-cache"
run check "$E" --external
check "with no cache and no server, the link is broken" test "$rc" -eq 1
check "... connection refused" contains "$err" "connection refused"

# ---- a sub-path deploy: the example blog under /blog/, crawled ----

port=$(free_port)
mkdir -p "$TMP/www"
run build examples/techblog -o "$TMP/www/blog" --future --base-url "http://127.0.0.1:$port/blog/"
check "the example blog builds under /blog/" test "$rc" -eq 0
python3 -m http.server "$port" --bind 127.0.0.1 --directory "$TMP/www" >/dev/null 2>&1 &
hpid=$!
for _ in $(seq 1 50); do
	curl -s -o /dev/null --max-time 1 "http://127.0.0.1:$port/blog/" && break
	sleep 0.1
done
crawl=$(python3 "$(dirname "$0")/crawl.py" "http://127.0.0.1:$port/blog/" 2>&1)
crc=$?
kill "$hpid" 2>/dev/null
wait "$hpid" 2>/dev/null
check "a crawl of /blog/ finds no broken link or image" test "$crc" -eq 0
check "... over every page" sh -c 'printf "%s\n" "$1" | grep -qE "^crawled [0-9]{3,} pages"' _ "$crawl"
[ "$crc" -eq 0 ] || printf '%s\n' "$crawl" | head -20
check "post bodies carry the base path" grep -q 'href="/blog/posts/' \
	"$TMP/www/blog/posts/gpu-systems-02-the-thread-warp-and-block-execution-model/index.html"

# ---- folio serve under a base path ----

SP=$TMP/sub
site "$SP"
sed -i 's|^base_url:.*|base_url: https://example.org/blog/|' "$SP/folio.yml"
serve_start "$SP"
serve_wait
check "serve under a base path starts" test "$up" -eq 1
code=$(curl -s -o /dev/null -w '%{http_code} %{redirect_url}' "$url/")
check "/ leads to the base path" test "$code" = "302 $url/blog/"
body=$(curl -s "$url/blog/posts/blocks/")
check "pages are served under it" contains "$body" 'href="/blog/posts/warps/#warp-scheduling"'
check "the reload script listens under it" contains "$body" "EventSource('/blog/__folio/events')"
code=$(curl -s -o /dev/null -w '%{http_code}' "$url/posts/blocks/")
check "a path outside the base path is not the site's" test "$code" = 404
ev=$(curl -s -N --max-time 1 "$url/blog/__folio/events" | head -1)
check "the events stream is under it" test "$ev" = "event: hello"
check "serve announces the base path" contains "$(cat "$TMP/serve.err")" "/blog/ (Ctrl-C stops)"
kill "$spid" 2>/dev/null
wait "$spid" 2>/dev/null

# A warm folio build checks again only the links of the pages it renders,
# when the last build's check into the same folder found nothing and every
# file its links led to is still there (its memo, kept with the state);
# whatever else could break a link it did not look at checks every page.
W=$TMP/warm
site "$W"
ignored_post "$W"
run build "$W" -o "$TMP/warm-out"
check "warm links: the first build passes" test "$rc" -eq 0
printf '\nMore text.\n' >>"$W/content/posts/warps.md"
run build "$W" -o "$TMP/warm-out"
check "warm links: a post's text changed, no link broken" test "$rc" -eq 0
# the heading another page links to (#warp-scheduling), gone from a page
# rendered again: the pages not rendered are checked too
sed -i 's/^## Warp scheduling$/## Warp issue/' "$W/content/posts/warps.md"
run build "$W" -o "$TMP/warm-out"
check "warm links: a fragment's heading gone, the page that links to it fails" test "$rc" -eq 1
check "... said at that page's source" contains "$err" "content/posts/blocks.md"
sed -i 's/^## Warp issue$/## Warp scheduling/' "$W/content/posts/warps.md"
run build "$W" -o "$TMP/warm-out"
check "warm links: the heading back, the build passes" test "$rc" -eq 0
# the patterns to leave alone, taken out of a page that is not rendered
# again (its HTML is the same): its link is checked
sed -i '/^ignore_links:/d' "$W/content/posts/ign.md"
run build "$W" -o "$TMP/warm-out"
check "warm links: ignore_links removed, the link it covered is broken" test "$rc" -eq 1
check "... and said" contains "$err" "/downloads/big.tar"
sed -i 's|^date: 2026-01-05$|date: 2026-01-05\nignore_links: ["/downloads/*"]|' "$W/content/posts/ign.md"
run build "$W" -o "$TMP/warm-out"
check "warm links: put back, the build passes" test "$rc" -eq 0
# a file gone that a page not rendered again links to
rm "$W/static/img/a.png"
run build "$W" -o "$TMP/warm-out"
check "warm links: an image gone, the page that shows it fails" test "$rc" -eq 1
check "... said at that page's source" contains "$err" "/img/a.png"
printf 'PNG' >"$W/static/img/a.png"
run build "$W" -o "$TMP/warm-out"
check "warm links: the image back, the build passes" test "$rc" -eq 0
# what the check looked at (FOLIO_TIMINGS: "of N links"): after a check
# that found nothing, only the links of the pages rendered again, even
# when files came and went (a new word renames a file of the search
# index), as long as no file a link led to went
links_seen() { sed -n 's/.*of \([0-9]*\) links.*/\1/p' "$TMP/err"; }
mkdir -p "$W/static/files"
printf 'PDF' >"$W/static/files/paper.pdf"
printf -- '---\ntitle: Papers\n---\nThe [paper](/files/paper.pdf).\n' >"$W/content/pages/papers.md"
run build "$W" -o "$TMP/warm-out"
FOLIO_TIMINGS=1 run build "$W" -o "$TMP/warm-full"
all=$(links_seen)
check "warm links: a new folder's build checks every page's links" test "${all:-0}" -gt 5
find "$TMP/warm-out" -type f | sort >"$TMP/files-before"
printf '\nThe word zyxquorble is new.\n' >>"$W/content/posts/warps.md"
FOLIO_TIMINGS=1 run build "$W" -o "$TMP/warm-out"
find "$TMP/warm-out" -type f | sort >"$TMP/files-after"
check "warm links: a new word, the build passes" test "$rc" -eq 0
check "... and a file of the output went (the search index's)" \
	test -n "$(comm -23 "$TMP/files-before" "$TMP/files-after")"
some=$(links_seen)
check "... and only the links of the pages rendered again were checked" \
	test "${some:-0}" -gt 0 -a "${some:-0}" -lt "$all"
printf 'GIF' >"$W/static/img/new.gif"
FOLIO_TIMINGS=1 run build "$W" -o "$TMP/warm-out"
check "warm links: a static file added, the build passes" test "$rc" -eq 0
check "... and checks none of the pages not rendered again" test "$(links_seen)" -lt "$all"
# a file a link of a page not rendered again led to (a download, which
# rendering does not read), gone while files come (the new word): every
# page is checked, and the link is found
rm "$W/static/files/paper.pdf"
printf '\nAnd glorpwhistle too.\n' >>"$W/content/posts/warps.md"
FOLIO_TIMINGS=1 run build "$W" -o "$TMP/warm-out"
check "warm links: a linked file gone as others come, the build fails" test "$rc" -eq 1
check "... said at the page that links to it" contains "$err" "content/pages/papers.md"
printf 'PDF' >"$W/static/files/paper.pdf"
FOLIO_TIMINGS=1 run build "$W" -o "$TMP/warm-out"
# (the failed build left the output in place, and what its check found:
# nothing; its links all lead to files again)
check "warm links: back again, the build passes" test "$rc" -eq 0
check "... checking only the pages rendered again" test "$(links_seen)" -lt "$all"
# a check that warned (a link to a post dated in the future): the next
# build checks the pages rendered again and the page that warned, whose
# warning it says again; once the post is due, the warning goes
printf -- '---\ntitle: Later\ndate: 2099-01-01\n---\nNot yet.\n' >"$W/content/posts/later.md"
printf -- '---\ntitle: Soon\n---\nSee [later](/posts/later/).\n' >"$W/content/pages/soon.md"
FOLIO_TIMINGS=1 run build "$W" -o "$TMP/warm-out"
check "warm links: a link to a future post, the build passes" test "$rc" -eq 0
check "... with its warning" contains "$err" "content/pages/soon.md:4:13: warning: link '/posts/later/'"
warned=$(grep -c "warning: link" "$TMP/err")
printf '\nAnd one more line.\n' >>"$W/content/posts/warps.md"
FOLIO_TIMINGS=1 run build "$W" -o "$TMP/warm-out"
check "warm links: another post edited, the build passes" test "$rc" -eq 0
check "... checking only the pages rendered again and the one that warned" test "$(links_seen)" -lt "$all"
check "... saying the warning again" contains "$err" "content/pages/soon.md:4:13: warning: link '/posts/later/'"
check "... and no other" test "$(grep -c "warning: link" "$TMP/err")" -eq "$warned"
sed -i 's/^date: 2099-01-01$/date: 2026-01-09/' "$W/content/posts/later.md"
FOLIO_TIMINGS=1 run build "$W" -o "$TMP/warm-out"
check "warm links: the post due, the build passes" test "$rc" -eq 0
check "... and the warning is gone" not_contains "$err" "posts/later/"

# an alias written as a file where another needs a folder ('/old' is the
# file old, '/old/x/' needs the folder old/): folio check finds it, as the
# writing would (two old URLs of an imported blog can be so)
S=$TMP/aliasdir
site "$S"
sed -i 's|^title: Warps$|title: Warps\naliases: [/old/plain]|' "$S/content/posts/warps.md"
sed -i 's|^title: Blocks$|title: Blocks\naliases: [/old/plain/x/]|' "$S/content/posts/blocks.md"
run check "$S"
check "an alias file where another needs a folder: folio check fails" test "$rc" -eq 1
check "an alias file where another needs a folder: said at the alias" contains "$err" "is the address of another page"
sed -i 's|/old/plain\]|/old/plain/]|' "$S/content/posts/warps.md"
run check "$S"
check "the same alias as a folder: folio check passes" test "$rc" -eq 0

finish
