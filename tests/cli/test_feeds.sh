# test_feeds.sh: the feeds and what pages tell machines, held to their
# specs by the checkers of tests/feeds (Python's standard library only, no
# network): JSON Feed 1.1 (jsonfeed.py), Atom, RFC 4287 (atom.py), and each
# post's JSON-LD, its one part number and the sitemap's lastmod
# (metadata.py). First the checkers must fail what is broken (the fixtures
# of tests/feeds/bad, and selftest.py's broken copies of folio's feeds),
# then pass the example blog (with summaries; with whole posts, a logo and
# no author) and every golden site. Last, the part numbers of a series with
# a draft are those of the same build with the draft published.
. "$(dirname "$0")/lib.sh"

export SOURCE_DATE_EPOCH=1790000000 # 2026-09-21, as the golden tests use
F=tests/feeds
export PYTHONDONTWRITEBYTECODE=1 # no __pycache__ beside the checkers

# checker NAME ARG...: runs tests/feeds/NAME.py; sets $rc and $out (its
# output), $err empty.
checker() {
	name=$1
	shift
	out=$(python3 "$F/$name.py" "$@" 2>&1)
	rc=$?
	err=""
}

# ---- the checkers fail what is broken ----

checker jsonfeed $F/bad/no-content.json
check "jsonfeed.py fails an item without content_html or content_text" test "$rc" -eq 1
check "jsonfeed.py names the item without content" test "$out" = \
	"$F/bad/no-content.json: error: items[0]: no content_html or content_text (one of them is required)"
checker jsonfeed $F/bad/no-id.json
check "jsonfeed.py fails an item without id" test "$rc" -eq 1
check "jsonfeed.py names the item without id" test "$out" = "$F/bad/no-id.json: error: items[1]: 'id' is required"
checker atom $F/bad/no-id.xml
check "atom.py fails an entry without atom:id" test "$rc" -eq 1
check "atom.py names the entry without atom:id" test "$out" = \
	"$F/bad/no-id.xml: error: entry 1: no atom:id (exactly one is required)"
checker atom $F/bad/no-author.xml
check "atom.py fails a feed without author, a date without time, an entry without content or link" \
	test "$rc" -eq 1
check "atom.py reports each of the three" test "$out" = \
	"$F/bad/no-author.xml: error: entry 1: no atom:author, and the feed has none (one is required)
$F/bad/no-author.xml: error: entry 1: atom:updated must be an RFC 3339 date-time (uppercase T and Z), found '2026-01-20'
$F/bad/no-author.xml: error: entry 1: no atom:content and no rel=\"alternate\" link (one is required)"

# ---- the example blog, as it is: summaries in the feeds ----

run build examples/techblog -o "$TMP/a"
check "the example blog builds" test "$rc" -eq 0
checker jsonfeed "$TMP/a/feed.json"
check "the example's feed.json is a valid JSON Feed 1.1" test "$rc" -eq 0 -a -z "$out"
check "each item of the example's feed.json has content_html" test \
	"$(grep -c '"content_html": "' "$TMP/a/feed.json")" -eq "$(grep -c '"id": "' "$TMP/a/feed.json")"
checker atom "$TMP/a/feed.xml" "$TMP"/a/series/*/feed.xml "$TMP"/a/tags/*/feed.xml
check "the example's Atom feeds (the site's, each series', each tag's) are valid" test "$rc" -eq 0 -a -z "$out"
checker metadata "$TMP/a"
check "the example's JSON-LD, part numbers and sitemap are right" test "$rc" -eq 0
check "metadata.py checks every post, series and URL of the example" \
	contains "$out" "checked 121 posts, 9 series, 312 URLs"
checker selftest "$TMP/a/feed.json" "$TMP/a/feed.xml"
check "selftest.py: the checkers catch each broken copy of the example's feeds" test "$rc" -eq 0
out=$(printf '%s\n' "$out" | grep -v '^FAIL' | tail -n 1)
check "selftest.py runs every case" test "$out" = "56 passed, 0 failed"
check "the example no longer shows two numbers for a part" sh -c \
	'! grep -rqE "Part [0-9]+ in [^<]*\([0-9]+ of [0-9]+\)" "$1"' _ "$TMP/a/posts"
check "GPU Systems 13 is part 13 on its page" grep -q 'Part 13 of 20 in GPU Systems' \
	"$TMP/a/posts/gpu-systems-13-reduction-kernels-in-depth/index.html"

# ---- whole posts in the feeds, a logo, no author ----

cp -R examples/techblog "$TMP/full"
awk '/^author:/ { skip = 1; next } skip && /^  / { next } { skip = 0 }
     /^feeds:/ { print "feeds: {content: full}"; print "logo: /logo.png"; drop = 1; next }
     drop && /^  / { next } { drop = 0; print }' examples/techblog/folio.yml >"$TMP/full/folio.yml"
run build "$TMP/full" -o "$TMP/b"
check "the example builds with whole posts in its feeds, a logo and no author" test "$rc" -eq 0
checker jsonfeed "$TMP/b/feed.json"
check "feed.json with whole posts is a valid JSON Feed 1.1" test "$rc" -eq 0 -a -z "$out"
check "feed.json gives the logo as its icon" grep -q '"icon": "https://jae.example.org/logo.png"' "$TMP/b/feed.json"
check "feed.json without an author has no authors" sh -c '! grep -q "\"authors\"" "$1"' _ "$TMP/b/feed.json"
checker atom "$TMP/b/feed.xml" "$TMP"/b/series/*/feed.xml
check "the Atom feeds with whole posts are valid" test "$rc" -eq 0 -a -z "$out"
check "without an author, the Atom feed's author is the site" \
	grep -q "<author><name>Jae&#39;s Tech Blog</name></author>" "$TMP/b/feed.xml"
check "the Atom feed gives the logo as its icon" grep -q '<icon>https://jae.example.org/logo.png</icon>' \
	"$TMP/b/feed.xml"
checker metadata "$TMP/b"
check "JSON-LD with a logo and no author is right" test "$rc" -eq 0
check "JSON-LD's publisher shows the logo" grep -q \
	'"publisher":{"@type":"Organization","name":"Jae\\u0027s Tech Blog","url":"https://jae.example.org/","logo":{"@type":"ImageObject","url":"https://jae.example.org/logo.png"}}' \
	"$TMP/b/posts/gpu-systems-13-reduction-kernels-in-depth/index.html"
check "without an author, JSON-LD's author is the site" grep -q \
	'"author":{"@type":"Organization","name":"Jae\\u0027s Tech Blog"' \
	"$TMP/b/posts/gpu-systems-13-reduction-kernels-in-depth/index.html"

# ---- metadata.py fails what is wrong ----

cp -R "$TMP/a" "$TMP/m"
p13=posts/gpu-systems-13-reduction-kernels-in-depth/index.html
sed -i 's/"mainEntityOfPage":{[^}]*},//; s/Part 13 of 20 in GPU Systems/Part 14 of 20 in GPU Systems/' "$TMP/m/$p13"
sed -i '0,/<lastmod>[^<]*<\/lastmod><\/url>/s//<\/url>/' "$TMP/m/sitemap.xml"
checker metadata "$TMP/m"
check "metadata.py fails a page without mainEntityOfPage, a number that is not its position, a URL without lastmod" \
	test "$rc" -eq 1
check "metadata.py reports the missing mainEntityOfPage" has_line "$out" \
	"$TMP/m/$p13: error: JSON-LD mainEntityOfPage must be the WebPage https://jae.example.org/$(dirname $p13)/, found null"
check "metadata.py reports the number that is not the position" has_line "$out" \
	"$TMP/m/$p13: error: shows Part 14 of 20, but its position is 13"
check "metadata.py reports the URL without lastmod" has_line "$out" \
	"$TMP/m/sitemap.xml: error: https://jae.example.org/ has no lastmod"

# ---- every golden site ----

bad=""
for d in tests/sites/*/expected; do
	[ -f "$d/feed.json" ] || continue
	python3 $F/jsonfeed.py "$d/feed.json" >"$TMP/o" 2>&1 || bad="$bad $(cat "$TMP/o")"
	find "$d" -name feed.xml -exec python3 $F/atom.py {} + >"$TMP/o" 2>&1 || bad="$bad $(cat "$TMP/o")"
	# a site's own post.html (template-override) writes no JSON-LD
	[ -f "${d%/expected}/site/templates/post.html" ] && continue
	python3 $F/metadata.py "$d" >"$TMP/o" 2>&1 || bad="$bad $(grep error "$TMP/o")"
done
out=$bad
check "every golden site's feeds, JSON-LD and sitemap are valid" test -z "$bad"

# ---- publishing a draft renumbers nothing ----

# numbers DIR: each post's page, its Part N of M and its JSON-LD position
numbers() {
	for f in "$1"/posts/*/index.html; do
		printf '%s %s %s\n' "$(basename "$(dirname "$f")")" \
			"$(grep -o 'Part [0-9]* of [0-9]*' "$f" | head -n 1)" "$(grep -o '"position":[0-9]*' "$f")"
	done
}
numbers tests/sites/series-order/expected >"$TMP/without"
numbers tests/sites/series-order-drafts/expected | grep -Fxf "$TMP/without" >"$TMP/same"
out=$(diff "$TMP/without" "$TMP/same")
check "each part keeps its number when the drafts are built too" test -z "$out"
out=$(grep '^order-three ' "$TMP/without")
check "the part after a draft keeps its place among all parts (order-two, a draft, is left out)" \
	test "$out" = 'order-three Part 3 of 3 "position":3'
out=$(numbers tests/sites/series-order-drafts/expected | grep '^order-two ')
check "the draft, built, is the part between them" test "$out" = 'order-two Part 2 of 3 "position":2'

# ---- the old feeds' paths (feeds.also_at) ----

A=$TMP/also
"$FOLIO" new site "$A" >/dev/null
printf 'feeds:\n  also_at:\n    - /feed/index.xml\n    - /blog/index.rss\n    - "/tags/{tag}/feed/"\n    - "/categories/{category}/index.xml"\n    - "/series/{series}/index.xml"\n' >>"$A/folio.yml"
run build "$A" -o "$TMP/also-out"
check "feeds.also_at builds" test "$rc" -eq 0
check "the site's feed again, byte for byte" cmp "$TMP/also-out/feed.xml" "$TMP/also-out/feed/index.xml"
check "... at a path of a file too" cmp "$TMP/also-out/feed.xml" "$TMP/also-out/blog/index.rss"
check "each tag's feed at its old path" cmp "$TMP/also-out/tags/markdown/feed.xml" "$TMP/also-out/tags/markdown/feed/index.xml"
check "each series' feed at its old path" cmp "$TMP/also-out/series/first-steps/feed.xml" "$TMP/also-out/series/first-steps/index.xml"
check "each category's feed, at its old path only" test -f "$TMP/also-out/categories/notes/index.xml" -a ! -e "$TMP/also-out/categories/notes/feed.xml"
out=$(python3 $F/atom.py "$TMP/also-out/categories/notes/index.xml" "$TMP/also-out/blog/index.rss" 2>&1)
check "the feeds written there are valid Atom ($out)" test -z "$out"
check "the sitemap does not list them" sh -c "! grep -q 'index.rss' '$TMP/also-out/sitemap.xml'"
for bad in 'feed/index.html' 'x/../feed.xml' '/feed.xml' '/tags/{tag}/{series}.xml' '/tags/{name}/feed/'; do
	sed -i '/also_at:/,$d' "$A/folio.yml"
	printf '  also_at: ["%s"]\n' "$bad" >>"$A/folio.yml"
	run build "$A" -o "$TMP/also-bad"
	check "feeds.also_at: '$bad' is an error" contains "$err" "error: feeds.also_at: '$bad'"
done
check "... saying why" contains "$err" "has an unknown placeholder (known: {tag}, {category}, {series})"

finish
