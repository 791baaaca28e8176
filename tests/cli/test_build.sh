# test_build.sh: folio build as a whole: well-formed feeds and pages,
# reproducible output (twice, and on 1 or 4 threads), usage errors, the
# output guard, and a build killed with SIGKILL at several moments, which
# must leave the previous site complete.
. "$(dirname "$0")/lib.sh"

export SOURCE_DATE_EPOCH=1790000000 # 2026-09-21, as the golden tests use
SITE=examples/techblog

# first_lines TEXT: the first few lines, to show what went wrong.
first_lines() { printf '%s\n' "$1" | head -10; }

# manifest DIR: one line per file (path and checksum), sorted: two folders
# with the same manifest hold the same files with the same bytes.
manifest() {
	(cd "$1" && find . -type f ! -name .folio-output -print0 | sort -z | xargs -0 -r cksum) | cksum
}

# ---- the example blog: feeds and pages ----

run build "$SITE" -o "$TMP/a"
check "techblog builds" test "$rc" -eq 0
check "techblog build prints a summary line" contains "$out" "folio: built "
# on the tests' clock (2026-09-21) the last posts are still to come, and
# the posts before them link to them: a warning each, nothing else
check "techblog build warns only of links to posts still to come" sh -c \
	'! printf "%s\n" "$1" | grep -E "^[a-z]" | grep -v "which this build leaves out (dated 2026-09-2[2-9], in the future)"' \
	_ "$err"
check "techblog build warns of a link to a post still to come" contains "$err" \
	"warning: link '/posts/gpu-systems-20-from-nsight-to-triton-to-flashattention/' leads to"
check "the output carries the marker" test -f "$TMP/a/.folio-output"

if command -v xmllint >/dev/null 2>&1; then
	feeds="$TMP/a/feed.xml $TMP/a/sitemap.xml"
	nseries=0
	ntags=0
	for f in "$TMP"/a/series/*/feed.xml; do [ -f "$f" ] && feeds="$feeds $f" && nseries=$((nseries + 1)); done
	for f in "$TMP"/a/tags/*/feed.xml; do [ -f "$f" ] && feeds="$feeds $f" && ntags=$((ntags + 1)); done
	check "every series has a feed" test "$nseries" -gt 0
	check "every tag has a feed" test "$ntags" -gt 0
	bad=""
	for f in $feeds; do
		xmllint --noout "$f" >/dev/null 2>&1 || bad="$bad ${f#"$TMP"/a/}"
	done
	out=$bad
	check "feed.xml, sitemap.xml and every series and tag feed are well-formed XML" test -z "$bad"
	# the Atom feed's entries and the sitemap's URLs are there
	n=$(grep -c '<entry>' "$TMP/a/feed.xml")
	check "feed.xml has entries" test "$n" -gt 0
	n=$(grep -c '<loc>' "$TMP/a/sitemap.xml")
	check "sitemap.xml lists URLs" test "$n" -gt 100
else
	echo "note: xmllint not found; XML checks skipped"
fi

err=$(python3 -m json.tool "$TMP/a/feed.json" 2>&1 >/dev/null)
check "feed.json is valid JSON" test $? -eq 0
check "feed.json is a JSON Feed 1.1" grep -q '"version": *"https://jsonfeed.org/version/1.1"' "$TMP/a/feed.json"

pages=$(cd "$TMP/a" && find . -name '*.html' | sort)
npages=$(printf '%s\n' "$pages" | wc -l)
check "the example blog has its pages" test "$npages" -gt 100
no_charset=""
mojibake=""
for p in $pages; do
	grep -q '<meta charset="utf-8">' "$TMP/a/$p" || no_charset="$no_charset $p"
	grep -q 'โ†’' "$TMP/a/$p" && mojibake="$mojibake $p"
done
out=$no_charset
check "every HTML page declares <meta charset=\"utf-8\">" test -z "$no_charset"
out=$mojibake
check "no HTML page contains the mojibake of a right arrow" test -z "$mojibake"
check "the right arrow is written as UTF-8" grep -rq '→' "$TMP/a/posts"

if command -v xmllint >/dev/null 2>&1; then
	# libxml2's HTML parser knows HTML 4 only: it calls every HTML5 element
	# (main, nav, article, time, details, ...) an invalid tag. Those
	# messages are left out; every other error (a stray end tag, bad
	# nesting, an unknown entity, ...) fails the test.
	html_errors=$(cd "$TMP/a" && printf '%s\n' "$pages" | xargs xmllint --html --noout 2>&1 |
		grep -E ': HTML parser (error|warning) :' | grep -vE 'Tag [A-Za-z0-9-]+ invalid')
	out=$(first_lines "$html_errors")
	check "every HTML page parses with xmllint --html (HTML5 tag names aside)" test -z "$html_errors"
fi

# ---- reproducible ----

run build "$SITE" -o "$TMP/b"
check "second build succeeds" test "$rc" -eq 0
out=$(diff -r "$TMP/a" "$TMP/b" 2>&1 | head -10)
check "two builds give byte-identical output" diff -r "$TMP/a" "$TMP/b"
rm -rf "$TMP/b"

run build "$SITE" -o "$TMP/j1" -j 1
check "-j 1 builds" test "$rc" -eq 0
run build "$SITE" -o "$TMP/j4" -j 4
check "-j 4 builds" test "$rc" -eq 0
out=$(diff -r "$TMP/j1" "$TMP/j4" 2>&1 | head -10)
check "-j 1 and -j 4 give byte-identical output" diff -r "$TMP/j1" "$TMP/j4"
run build "$SITE" -o "$TMP/j4" --jobs=4
check "--jobs=4 is -j 4" test "$rc" -eq 0
out=$(diff -r "$TMP/j1" "$TMP/j4" 2>&1 | head -10)
check "--jobs=4 gives the same output" diff -r "$TMP/j1" "$TMP/j4"
rm -rf "$TMP/j1" "$TMP/j4"

# ---- usage errors: exit 2 ----

run build "$SITE" --frobnicate
check "unknown option exits 2" test "$rc" -eq 2
check "unknown option is named" contains "$err" "folio build: unknown option '--frobnicate'"
check "unknown option: the message and where to read the usage, not the usage" test "$err" = "folio build: unknown option '--frobnicate'
Run 'folio help build' for its usage."
run build "$SITE" -j 0
check "-j 0 exits 2" test "$rc" -eq 2
check "-j 0 says why" contains "$err" "-j needs a number of threads from 1 to 256, not '0'"
run build "$SITE" -j many
check "-j many exits 2" test "$rc" -eq 2
run build "$SITE" -j 257
check "-j 257 exits 2" test "$rc" -eq 2
run build "$SITE" tests/sites/bundle/site
check "two site folders exit 2" test "$rc" -eq 2
check "two site folders are named" contains "$err" "one site folder only (got a second: 'tests/sites/bundle/site')"
run build "$SITE" -o
check "-o without a value exits 2" test "$rc" -eq 2
check "-o without a value says so" contains "$err" "-o needs a value"
run build "$SITE" --base-url
check "--base-url without a value exits 2" test "$rc" -eq 2
check "usage errors write nothing" test ! -e "$SITE/public"

# ---- site errors: exit 1 ----

mkdir "$TMP/not-a-site"
run build "$TMP/not-a-site" -o "$TMP/nas-out"
check "a folder without folio.yml exits 1" test "$rc" -eq 1
check "a folder without folio.yml is explained" contains "$err" \
	"folio.yml: error: no folio.yml in '$TMP/not-a-site' (is this a site folder? 'folio new site DIR' makes one)"
check "a folder without folio.yml ends with the summary" contains "$err" "folio: 1 error; nothing was written"
check "a folder without folio.yml writes nothing" test ! -e "$TMP/nas-out"
run build "$TMP/no-such-folder" -o "$TMP/nas-out"
check "a missing site folder exits 1" test "$rc" -eq 1
check "a missing site folder is explained" contains "$err" \
	"$TMP/no-such-folder: error: no such folder (hint: 'folio new site DIR' makes a site)"
# without -o, the output folder would be inside it: the site folder is named first
run build "$TMP/no-such-folder/sub"
check "a missing site folder without -o exits 1" test "$rc" -eq 1
check "a missing site folder without -o is named, not its output" contains "$err" \
	"$TMP/no-such-folder/sub: error: no such folder"
check "a missing site folder without -o gives one error" contains "$err" "folio: 1 error; nothing was written"
: >"$TMP/a-file"
run build "$TMP/a-file"
check "a file as the site folder exits 1" test "$rc" -eq 1
check "a file as the site folder is explained" contains "$err" \
	"$TMP/a-file: error: not a folder (hint: give the site's folder, the one that holds folio.yml)"
run build "$SITE" -o "$TMP/x" --base-url example.org
check "a bad --base-url exits 1" test "$rc" -eq 1
check "a bad --base-url is explained" contains "$err" \
	"--base-url: error: base URL 'example.org' must start with http://, https:// or /"
run build "$SITE" -o "$TMP/x" --base-url https://mirror.example/
check "--base-url replaces base_url" grep -q 'href="https://mirror.example/posts/' "$TMP/x/feed.xml"
rm -rf "$TMP/x"

# ---- the output guard ----

mkdir -p "$TMP/precious/sub"
echo "years of work" >"$TMP/precious/thesis.tex"
echo "notes" >"$TMP/precious/sub/notes.txt"
before=$(manifest "$TMP/precious")
run build "$SITE" -o "$TMP/precious"
check "a non-empty folder without the marker is refused (exit 1)" test "$rc" -eq 1
check "the refusal says why" contains "$err" \
	"$TMP/precious: error: refusing to write the site here: it is not empty and was not made by folio"
check "the refused folder is left untouched" test "$(manifest "$TMP/precious")" = "$before"
check "the refused folder gets no marker" test ! -e "$TMP/precious/.folio-output"
check "no staging folder is left beside it" test -z "$(find "$TMP" -maxdepth 1 -name '.precious.folio-*' ! -name '*.folio-spare')"

cp -r tests/sites/bundle/site "$TMP/site"
run build "$TMP/site" -o "$TMP/site"
check "-o SITE is refused (exit 1)" test "$rc" -eq 1
check "-o SITE says why" contains "$err" "refusing to write the site here: it is the site folder or contains it"
run build "$TMP/site" -o "$TMP"
check "-o a parent of SITE is refused" test "$rc" -eq 1
run build "$TMP/site" -o "$TMP/site/content/out"
check "-o inside the sources is refused" test "$rc" -eq 1
check "-o inside the sources says why" contains "$err" "it is inside the site's sources"
run build "$TMP/site" -o /
check "-o / is refused" test "$rc" -eq 1
check "the site is left as it was" diff -r tests/sites/bundle/site "$TMP/site"
run build "$TMP/site"
check "the default output is SITE/public" test -f "$TMP/site/public/index.html"
run build "$TMP/site"
check "a second build replaces SITE/public" test "$rc" -eq 0
rm -rf "$TMP/site"

# ---- SIGKILL: a killed build leaves the previous site complete ----
# A big site (3000 generated posts) is built once into OUT. Then, again
# and again, a build of a changed site (another title: every page differs)
# is killed at a different moment. OUT must then be either the whole old
# site or the whole new one (if the build finished first), never a mix;
# the next normal build must succeed and remove the killed build's staging
# folder.

BIG=$TMP/big
# under the sanitizers a build is ten times slower, under valgrind fifty
# times: a smaller corpus
case $FOLIO in *asan*) : "${BIG_POSTS:=600}" ;; esac
[ -n "${FOLIO_VALGRIND:-}" ] && : "${BIG_POSTS:=200}"
OUT=$TMP/public
GEN=
for g in ../shared/bench/gen_corpus.py; do [ -f "$g" ] && GEN=$g && break; done
if [ -n "$GEN" ]; then
	python3 "$GEN" --posts "${BIG_POSTS:-3000}" --seed 7 --out "$BIG" >/dev/null 2>&1
else
	# no generator at hand: 3000 plain posts with a few paragraphs each
	mkdir -p "$BIG/content/posts"
	printf 'title: "Big"\nbase_url: "https://example.org/"\n' >"$BIG/folio.yml"
	awk -v dir="$BIG/content/posts" -v n="${BIG_POSTS:-3000}" 'BEGIN {
		for (i = 1; i <= n; i++) {
			f = sprintf("%s/post-%04d.md", dir, i)
			printf "---\ntitle: \"Post %d\"\ndate: 2025-%02d-%02d\ntags: [t%d, t%d]\n---\n", i, i % 12 + 1, i % 28 + 1, i % 50, i % 7 > f
			for (k = 0; k < 12; k++)
				printf "Paragraph %d of post %d, with some words to render and count.\n\n", k, i > f
			close(f)
		}
	}'
fi
check "the big corpus is generated" test -f "$BIG/folio.yml"

# set_title T: the big site's title (every page shows it).
set_title() {
	sed -i "s/^title: .*/title: \"$1\"/" "$BIG/folio.yml"
}
set_title "New Title"
run build "$BIG" -o "$TMP/ref-new" --future
check "the big site builds" test "$rc" -eq 0
new=$(manifest "$TMP/ref-new")
rm -rf "$TMP/ref-new"
# the posts' template values are made on several threads: one thread
# gives the same site
rm -rf "$BIG/.folio-cache"
run build "$BIG" -o "$TMP/ref-j1" --future -j 1
check "the big site built on one thread is the same" test "$rc" -eq 0 -a "$(manifest "$TMP/ref-j1")" = "$new"
rm -rf "$TMP/ref-j1"
set_title "Old Title"
run build "$BIG" -o "$OUT" --future
check "the big site builds into OUT" test "$rc" -eq 0
old=$(manifest "$OUT")
check "the two titles give two different sites" test "$old" != "$new"

# staging_left: the staging folders beside OUT (the spare, the next
# build's staging folder, aside).
staging_left() { find "$TMP" -maxdepth 1 -name '.public.folio-*' ! -name '*.folio-spare' | wc -l; }

for delay in 0.05 0.3 0.8 1.5 staging; do
	set_title "New Title"
	"$FOLIO" build "$BIG" -o "$OUT" --future -j 2 >/dev/null 2>&1 &
	pid=$!
	if [ "$delay" = staging ]; then
		# kill it while it writes: once its staging folder has posts in it
		i=0
		while [ "$i" -lt 400 ] && [ -z "$(find "$TMP" -maxdepth 3 -path "$TMP/.public.folio-staging-*/posts/*" 2>/dev/null | head -1)" ]; do
			sleep 0.02
			i=$((i + 1))
		done
	else
		sleep "$delay"
	fi
	kill -9 "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	now=$(manifest "$OUT")
	if [ "$now" = "$new" ]; then
		echo "note: the build finished before the kill at $delay s"
	fi
	out="delay $delay"
	check "killed at $delay: OUT is a complete site, old or new" test "$now" = "$old" -o "$now" = "$new"
	check "killed at $delay: OUT keeps its marker" test -f "$OUT/.folio-output"
	set_title "Old Title"
	run build "$BIG" -o "$OUT" --future
	check "killed at $delay: the next build succeeds" test "$rc" -eq 0
	check "killed at $delay: the next build leaves no staging folder" test "$(staging_left)" -eq 0
	check "killed at $delay: the next build gives the old site" test "$(manifest "$OUT")" = "$old"
done

# Two builds into one folder at once: the second must not delete the
# first one's staging folder while it writes (then the first would publish
# a partial site). Either build may win, or the second may refuse; OUT must
# end up a complete site.
set_title "New Title"
"$FOLIO" build "$BIG" -o "$OUT" --future -j 1 >"$TMP/big.out" 2>&1 &
pid=$!
i=0
while [ "$i" -lt 400 ] && [ -z "$(find "$TMP" -maxdepth 3 -path "$TMP/.public.folio-staging-*/posts/*" 2>/dev/null | head -1)" ]; do
	sleep 0.02
	i=$((i + 1))
done
"$FOLIO" build tests/sites/drafts-future/site -o "$OUT" >/dev/null 2>&1
small_rc=$?
wait "$pid"
big_rc=$?
run build tests/sites/drafts-future/site -o "$TMP/small-ref"
small=$(manifest "$TMP/small-ref")
now=$(manifest "$OUT")
out="big build exit $big_rc, small build exit $small_rc, $(find "$OUT" -type f | wc -l) files in OUT"
check "two builds at once: OUT is one complete site" test "$now" = "$new" -o "$now" = "$small"
check "two builds at once: OUT keeps its marker" test -f "$OUT/.folio-output"
set_title "Old Title"
run build "$BIG" -o "$OUT" --future
check "two builds at once: the next build succeeds" test "$rc" -eq 0
check "two builds at once: no staging folder is left" test "$(staging_left)" -eq 0

# A table of contents lists a page's first 1000 headings, with a warning
# that names the limit, unless the page hides it; a build from the cache
# says it again once the TOC is shown.
TOCS=$TMP/tocs
mkdir -p "$TOCS/content/posts"
printf 'title: "T"\nbase_url: "https://example.org/"\n' >"$TOCS/folio.yml"
toc_post() {
	{
		printf -- '---\ntitle: "Long"\ndate: 2025-01-01\n%b---\n' "$1"
		awk 'BEGIN { for (i = 1; i <= 1001; i++) printf "## Part %d\n\n", i }'
	} >"$TOCS/content/posts/long.md"
}
toc_warning="warning: table of contents: lists the page's first 1000 headings, not all 1001 (see LIMITS in folio-site(5))"
toc_post ""
run build "$TOCS" -o "$TMP/tocs-out"
check "1001 headings: the build succeeds" test "$rc" -eq 0
check "1001 headings: a warning names the TOC limit" contains "$err" "content/posts/long.md:2005:1: $toc_warning"
page=$(cat "$TMP/tocs-out/posts/long/index.html")
check "1001 headings: the TOC ends at the 1000th" contains "$page" '<a href="#part-1000">Part 1000</a>'
check "1001 headings: the TOC leaves out the 1001st" test "$(grep -c 'href="#part-1001"' "$TMP/tocs-out/posts/long/index.html")" -eq 1
check "1001 headings: the 1001st heading is on the page" contains "$page" '<h2 id="part-1001">'
toc_post 'toc: false\n'
run build "$TOCS" -o "$TMP/tocs-out"
check "a hidden TOC: no warning" test "$rc" -eq 0 -a -z "$err"
toc_post 'toc: true\n'
run build "$TOCS" -o "$TMP/tocs-out"
check "shown again, from the cache: the warning again" contains "$err" "$toc_warning"

# A post whose HTML is longer than 64 KiB is written into its page from
# where the build has it, not copied into the page first (see
# tmpl_render_pieces): the page is what a copy would have made, wherever
# the template prints it, in a capture too, and again from the cache.
LONG=$TMP/longpost
mkdir -p "$LONG/content/posts" "$LONG/templates"
printf 'title: "T"\nbase_url: "https://example.org/"\n' >"$LONG/folio.yml"
{
	printf -- '---\ntitle: "Long"\ndate: 2025-01-01\n---\n'
	awk 'BEGIN { for (i = 1; i <= 3000; i++) printf "Paragraph %d of a long post.\n\n", i }'
} >"$LONG/content/posts/long.md"
printf '%s\n' '<main>{{ post.content }}</main>{% set c %}{{ post.content }}{% endset %}<i>{{ post.content | length }} {{ c | length }}</i><main>{{ post.content }}</main>' >"$LONG/templates/post.html"
# whole PAGE: "ok" if it is <main>X</main><i>N N</i><main>X</main> with X
# the 3000 paragraphs in order and N the length of X
long_page() {
	python3 - "$1" <<'PY'
import re, sys
page = open(sys.argv[1], encoding="utf-8").read()
m = re.fullmatch(r"<main>(.*)</main><i>(\d+) (\d+)</i><main>(.*)</main>\n", page, re.S)
want = "".join("<p>Paragraph %d of a long post.</p>\n" % i for i in range(1, 3001))
print("ok" if m and m.group(1) == want and m.group(4) == want and int(m.group(2)) == len(want)
      and m.group(3) == m.group(2) else "not ok: %d bytes" % len(page))
PY
}
for pass_ in cold cached; do
	run build "$LONG" -o "$TMP/longpost-out"
	check "a 100 KB post ($pass_): the build succeeds" test "$rc" -eq 0
	r=$(long_page "$TMP/longpost-out/posts/long/index.html")
	out=$r
	check "a 100 KB post ($pass_): the page holds its HTML whole, twice, and its length" test "$r" = ok
done

# an unknown language is told once per build, naming its files; again at
# the next build (a page that warned is not kept in the cache); never with
# highlight: {warn_unknown: false}; plain-text names never
UK=$TMP/unknown-lang
"$FOLIO" new site "$UK" >/dev/null
for i in 1 2 3 4; do
	printf -- '---\ntitle: U%s\ndate: 2026-01-0%s\n---\n```vhdl\nx\n```\n\n```vhdl\ny\n```\n\n```text\nplain\n```\n\n```output\n$ ok\n```\n' "$i" "$i" \
		>"$UK/content/posts/u$i.md"
done
for pass_ in first again; do
	run build "$UK" -o "$TMP/unknown-out"
	check "unknown language ($pass_): one warning for the build" \
		test "$(printf '%s\n' "$err" | grep -c "unknown language")" -eq 1
	check "unknown language ($pass_): at its first block, with the count and the files" contains "$err" \
		"content/posts/u1.md:5:1: warning: unknown language 'vhdl' in 8 code blocks of 4 files (content/posts/u1.md, content/posts/u2.md, content/posts/u3.md, ...)"
done
check "text and output blocks warn of nothing" test -z "$(printf '%s\n' "$err" | grep -E "'(text|output)'")"
printf 'highlight: {warn_unknown: false}\n' >>"$UK/folio.yml"
run build "$UK" -o "$TMP/unknown-out"
check "highlight.warn_unknown: false silences it" test -z "$(printf '%s\n' "$err" | grep "unknown language")"

# math: false in a front matter: dollar signs are text in that post only,
# the cache included (the same body renders to another page)
MO=$TMP/math-off
"$FOLIO" new site "$MO" >/dev/null
printf -- '---\ntitle: Formula\ndate: 2026-01-03\n---\nIt is $x_1$.\n' >"$MO/content/posts/formula.md"
printf -- '---\ntitle: Prices\ndate: 2026-01-04\n---\nIt is $x_1$.\n' >"$MO/content/posts/prices.md"
run build "$MO"
check "math on: both posts typeset" test "$(grep -l 'math inline' "$MO/public/posts/formula/index.html" "$MO/public/posts/prices/index.html" | wc -l)" -eq 2
sed -i 's/^date: 2026-01-04/date: 2026-01-04\nmath: false/' "$MO/content/posts/prices.md"
run build "$MO"
check "math: false builds" test "$rc" -eq 0
check "math: false: that post's dollars are text" grep -q '<p>It is \$x_1\$.</p>' "$MO/public/posts/prices/index.html"
check "math: false: the other post still typesets" grep -q 'math inline' "$MO/public/posts/formula/index.html"
sed -i 's/^math: false/math: maybe/' "$MO/content/posts/prices.md"
run build "$MO"
check "math: maybe is an error at its value" contains "$err" "content/posts/prices.md:4:7: error: 'math' must be true or false, found 'maybe'"

# math.delimiters: brackets as MathJax writes them; unknown names and an
# empty list are errors at their place
MB=$TMP/math-brackets
"$FOLIO" new site "$MB" >/dev/null
printf -- '---\ntitle: Brackets\ndate: 2026-01-03\n---\nIt is \\(x_1\\).\n\n\\[\ny\n\n+ z\n\\]\n' >"$MB/content/posts/br.md"
run build "$MB"
check "brackets off: an escaped parenthesis" grep -q '<p>It is (x_1).</p>' "$MB/public/posts/br/index.html"
printf 'math:\n  delimiters: [dollars, brackets]\n' >>"$MB/folio.yml"
run build "$MB"
check "brackets on: builds" test "$rc" -eq 0
check "brackets on: inline math" grep -q '<p>It is <span class="math inline">' "$MB/public/posts/br/index.html"
check "brackets on: a display block over a blank line" test "$(grep -c 'class="math display"' "$MB/public/posts/br/index.html")" -eq 1
sed -i 's/delimiters: \[dollars, brackets\]/delimiters: [dollars, parens]/' "$MB/folio.yml"
run build "$MB"
check "math.delimiters: an unknown name" contains "$err" "folio.yml:$(grep -n parens "$MB/folio.yml" | cut -d: -f1):25: error: math.delimiters: unknown delimiters 'parens'"
sed -i 's/delimiters: .*/delimiters: []/' "$MB/folio.yml"
run build "$MB"
check "math.delimiters: an empty list" contains "$err" "error: math.delimiters is empty (to turn math off, write math: false)"
sed -i 's/delimiters: .*/delimiters: brackets/' "$MB/folio.yml"
printf -- '---\ntitle: Price\ndate: 2026-01-04\n---\nIt costs $5 and $x$.\n\n\\[\nnever closed\n' >"$MB/content/posts/price.md"
run build "$MB"
check "brackets alone: an unclosed \\[ is an error at its place" contains "$err" 'content/posts/price.md:7:1: error: display math: no closing \] below this one'
sed -i '$d' "$MB/content/posts/price.md"
sed -i '$d' "$MB/content/posts/price.md"
run build "$MB"
check "brackets alone: dollars are text" grep -q '<p>It costs \$5 and \$x\$.</p>' "$MB/public/posts/price/index.html"

# paginate_path: the later pages of listings under another folder, which
# frees /page/ for a page; a name of folio's own is an error
PP=$TMP/paginate
"$FOLIO" new site "$PP" >/dev/null
sed -i 's/^posts_per_page: .*/posts_per_page: 1/' "$PP/folio.yml"
printf 'paginate_path: pages\n' >>"$PP/folio.yml"
printf -- '---\ntitle: Page\n---\nA page whose slug is page.\n' >"$PP/content/pages/page.md"
run build "$PP"
check "paginate_path: builds, with a page named page" test "$rc" -eq 0 -a -f "$PP/public/page/index.html"
check "paginate_path: the home's second page is under it" test -f "$PP/public/pages/2/index.html"
check "paginate_path: the home links to it" grep -q 'href="/pages/2/"' "$PP/public/index.html"
sed -i 's/^paginate_path: pages/paginate_path: tags/' "$PP/folio.yml"
run build "$PP"
check "paginate_path: a folder of folio's own is an error" contains "$err" \
	"error: paginate_path must be one path segment of lower-case letters, digits, '-' and '_', not a folder of folio's own (posts, series, tags, categories, archive, search), found 'tags'"
sed -i '/^paginate_path:/d' "$PP/folio.yml"
run build "$PP"
check "without paginate_path, a page named page is an error" contains "$err" "the page slug 'page' is taken by folio's own pages"

# redirects: an old address no page has sends to a page of the site; to
# nowhere is a broken link, from a page's own address an error
RD=$TMP/redirects
"$FOLIO" new site "$RD" >/dev/null
printf 'redirects:\n  /old-tag/: /tags/markdown/\n  /archives.html: /archive/\n' >>"$RD/folio.yml"
run build "$RD"
check "redirects: builds" test "$rc" -eq 0
check "redirects: a folder's address is a redirect page" grep -q 'url=/tags/markdown/' "$RD/public/old-tag/index.html"
check "redirects: a file's address too" grep -q 'rel="canonical" href="https://example.org/archive/"' "$RD/public/archives.html"
printf '  /gone/: /nowhere/\n' >>"$RD/folio.yml"
run build "$RD"
check "redirects: to nowhere is a broken link at its place" contains "$err" "error: broken link '/nowhere/': the site has no page or file /nowhere/"
sed -i 's|^  /gone/: /nowhere/|  /about/: /archive/|' "$RD/folio.yml"
run build "$RD"
check "redirects: from a page's address is an error" contains "$err" \
	"error: redirects: '/about/' is the address of a page of the site (hint: a redirect is for an address no page has)"

# a formula's error inside a quote and a list item: at the file's column,
# the caret under the character (KaTeX's own position, mapped back)
MC=$TMP/math-containers
"$FOLIO" new site "$MC" >/dev/null
front='---\ntitle: T\ndate: 2026-01-03\n---\n'
printf -- "$front"'\n> $$\n> x = \\text{a_b}\n> $$\n' >"$MC/content/posts/quo.md"
printf -- "$front"'\n- item\n\n    $$\n    x = \\text{a_b}\n    $$\n' >"$MC/content/posts/lst.md"
run build "$MC"
check "math in a quote: the error's column" contains "$err" "content/posts/quo.md:7:14: error: math: Expected 'EOF', got '_'
 7 | > x = \\text{a_b}
   |              ^"
check "math in a list item: the error's column" contains "$err" "content/posts/lst.md:9:16: error: math: Expected 'EOF', got '_'
 9 |     x = \\text{a_b}
   |                ^"

# math.compat: mathjax rewrites what MathJax takes and KaTeX refuses;
# without it that is KaTeX's error; an error after a rewrite is at the
# author's column; an unknown dialect is an error at its value
MJ=$TMP/math-mathjax
"$FOLIO" new site "$MJ" >/dev/null
printf -- '---\ntitle: Loss\ndate: 2026-01-03\n---\nThe $\\text{max_len} + t_\\max$ steps.\n' >"$MJ/content/posts/loss.md"
run build "$MJ"
check "katex dialect: MathJax's TeX is an error" contains "$err" "content/posts/loss.md:5:15: error: math: Expected 'EOF', got '_'"
printf 'math:\n  compat: mathjax\n' >>"$MJ/folio.yml"
run build "$MJ"
check "compat: mathjax: builds" test "$rc" -eq 0
check "compat: mathjax: the rewritten TeX typeset" grep -q 'max\\_len} + t_{\\max}' "$MJ/public/posts/loss/index.html"
printf -- '---\ntitle: Bad\ndate: 2026-01-04\n---\nThe $\\text{a_b} + \\foo$ steps.\n' >"$MJ/content/posts/bad.md"
run build "$MJ"
check "compat: mathjax: an error at the author's column" contains "$err" "content/posts/bad.md:5:19: error: math: Undefined control sequence: \\foo"
rm "$MJ/content/posts/bad.md"
sed -i 's/compat: mathjax/compat: mathml/' "$MJ/folio.yml"
run build "$MJ"
check "math.compat: an unknown dialect" contains "$err" "error: math.compat: unknown dialect 'mathml' (known: mathjax, which rewrites what MathJax accepts and KaTeX refuses; katex, the default)"

# positions are exact in every container (list items, quotes, tables,
# footnotes, directives, display math over several lines), in characters
PO=$TMP/positions
"$FOLIO" new site "$PO" >/dev/null
cat >"$PO/content/posts/pos.md" <<'MD'
---
title: Positions
date: 2026-01-02
---
Intro → text.

- item one
  - nested item → with $\frac{1}{$ bad math
> quote with $\badmacro$ here

| a | b |
|---|---|
| x | $\oops$ |

Footnote ref[^1].

[^1]: A footnote with $\nope$ inside.

$$
a = b
+ \undefinedcmd
$$

:::note
A note with $\inside$ it.
:::

> ## A heading → with $\inheading$ in a quote
MD
run build "$PO"
check "positions: a nested list item, in characters after an arrow" contains "$err" "content/posts/pos.md:8:34: error: math:"
check "positions: a block quote" contains "$err" "content/posts/pos.md:9:15: error: math: Undefined control sequence: \\badmacro"
check "positions: a table cell" contains "$err" "content/posts/pos.md:13:8: error: math: Undefined control sequence: \\oops"
check "positions: a footnote" contains "$err" "content/posts/pos.md:17:24: error: math: Undefined control sequence: \\nope"
check "positions: display math over lines" contains "$err" "content/posts/pos.md:21:3: error: math: Undefined control sequence: \\undefinedcmd"
check "positions: a directive" contains "$err" "content/posts/pos.md:25:14: error: math: Undefined control sequence: \\inside"
check "positions: a heading in a quote" contains "$err" "content/posts/pos.md:28:24: error: math: Undefined control sequence: \\inheading"

# the closing line counts in the singular what there is one of
O=$TMP/one
mkdir -p "$O/content/posts"
printf 'title: "One"\nbase_url: "https://example.org/"\n' >"$O/folio.yml"
printf -- '---\ntitle: "Only"\ndate: 2026-01-02\n---\nText.\n' >"$O/content/posts/only.md"
run build "$O" -o "$TMP/one-out"
check "one post: built (1 post, N files) ($out)" contains "$out" " pages (1 post, "
run check "$O"
check "one post: checked (1 post, N files) ($out)" contains "$out" " pages (1 post, "

# errors of the content and of the model in one run: a post's bad date
# beside a misspelled recommended_start, as a key and as a value
R=$TMP/together
"$FOLIO" new site "$R" >/dev/null
sed -i 's/^recommended_start: .*/recomended_start: first-steps-1-the-plan/' "$R/content/series/first-steps.md"
printf -- '---\ntitle: "Bad"\ndate: notadate\n---\n' >"$R/content/posts/bad.md"
run build "$R"
check "together: the bad date" contains "$err" "content/posts/bad.md:3:7: error: malformed date 'notadate'"
check "together: the misspelled key, in the same run" contains "$err" \
	"error: unknown series key 'recomended_start' (did you mean 'recommended_start'?)"
sed -i 's/^recomended_start: .*/recommended_start: first-steps-1-the-pln/' "$R/content/series/first-steps.md"
run build "$R"
check "together: the bad date again" contains "$err" "content/posts/bad.md:3:7: error: malformed date 'notadate'"
check "together: the misspelled start, in the same run" contains "$err" \
	"content/series/first-steps.md:7:20: error: recommended_start names no post: 'first-steps-1-the-pln' (did you mean 'first-steps-1-the-plan'?)"

# the site's data is read only: a template that sets an attribute of a
# value every page shares (a post's tag, a heading of its contents, a
# related post, the author, the menu, a data file, the language's
# strings, an entry of best_of) is refused, as a post's own map is;
# before, the change leaked into every page rendered after it, in an
# order the threads chose. A page's own values stay its to change.
R=$TMP/readonly
mkdir -p "$R/content/posts" "$R/templates" "$R/data"
cat >"$R/folio.yml" <<'YML'
title: "Read only"
base_url: "https://example.org/"
author:
  name: "Ann"
menu:
  - label: Home
    url: /
best_of:
  - post: a
YML
printf 'colours:\n  sky: blue\n' >"$R/data/palette.yml"
for p in a b c; do
	printf -- '---\ntitle: "%s"\ndate: 2026-01-0%s\ntags: [shared]\n---\n## One\n\n## Two\n\n## Three\n\nText.\n' \
		"$p" "$(printf '%s' "$p" | tr abc 123)" >"$R/content/posts/$p.md"
done
for what in "tg = post.tags[0]:tg.name" "h = post.toc[0]:h.text" "r = post.related[0]:r.why" \
	"au = site.author:au.name" "m = site.menu[0]:m.label" "pal = data.palette:pal.colours" \
	"c = data.palette.colours:c.sky" "w = t:w.copy" "b = best_of[0]:b.note" "as = site.asset:as.x"; do
	bind=${what%%:*}
	attr=${what#*:}
	printf '{%% extends "base.html" %%}{%% block main %%}{%% set %s %%}{%% set %s = "changed" %%}{%% endblock %%}\n' \
		"$bind" "$attr" >"$R/templates/post.html"
	run build "$R" -o "$TMP/readonly-out"
	check "read only: 'set $attr' of '$bind' is refused ($err)" contains "$err" \
		"error: 'set $attr' would change the site's data, which templates only read"
	check "read only: ... and nothing is written for 'set $attr'" test "$rc" -eq 1
done
printf '{%% extends "base.html" %%}{%% block main %%}{%% set page.note = "mine" %%}{%% set ns = namespace(n=post.tags[0].name) %%}{%% set ns.n = ns.n ~ "!" %%}<p id="own">{{ page.note }} {{ ns.n }}</p>{%% endblock %%}\n' \
	>"$R/templates/post.html"
run build "$R" -o "$TMP/readonly-out"
check "read only: a page's own map and a namespace still change ($err)" test "$rc" -eq 0
check "read only: ... as the page says" grep -q '<p id="own">mine shared!</p>' "$TMP/readonly-out/posts/a/index.html"

finish
