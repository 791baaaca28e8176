# test_weight.sh: what a reader downloads, on the 10,000-post corpus (the
# benchmarks' c10000, made by ../shared/bench/gen_corpus.py as bench.py
# makes it; WEIGHT_CORPUS names another; where neither the corpus nor its
# generator is at hand, as on a fresh CI machine, a site of as many posts
# from tests/weight/gen_site.py). The site is built once, then:
#  - a typical post (the median of the posts) with the stylesheet: at most
#    35 KiB of HTML and CSS before images (30 KiB until issue 36 added the
#    colour toggle and its dark styles, the default menu, the JSON feed's
#    link and JSON-LD's publisher and page: 34.6 KiB);
#  - the home page with the stylesheet: at most 60 KiB, with every series
#    named on it and the first posts of each in order (home_series.py);
#  - no page over 150 KiB, but a post whose own text is that long;
#  - the home page does not grow with the number of posts: the same size
#    within 2 KiB at 1,000 posts; the archive's index, a page of post cards
#    (archive_per_page of them, 100 by default), stays at most 150 KiB.
. "$(dirname "$0")/lib.sh"

corpora=${WEIGHT_CORPORA:-bench/corpus}
corpus=${WEIGHT_CORPUS:-$corpora/c10000}
small=$corpora/c1000
gen=../shared/bench/gen_corpus.py
if [ ! -f "$corpus/folio.yml" ] && [ -f "$gen" ] && [ -z "${WEIGHT_CORPUS:-}" ]; then
	echo "generating the 10,000-post corpus into $corpus (once)"
	python3 "$gen" --posts 10000 --seed 1 --out "$corpus" >/dev/null
fi
if [ ! -f "$corpus/folio.yml" ] && [ -z "${WEIGHT_CORPUS:-}" ]; then
	echo "no corpus and no $gen: sites of 10,000 and 1,000 posts from tests/weight/gen_site.py"
	corpus=$TMP/c10000
	small=$TMP/c1000
	python3 tests/weight/gen_site.py --posts 10000 --seed 1 --out "$corpus"
	python3 tests/weight/gen_site.py --posts 1000 --seed 1 --out "$small"
fi
check "the 10,000-post site is there" test -f "$corpus/folio.yml"
[ -f "$corpus/folio.yml" ] || { finish; exit 1; }

run build "$corpus" -o "$TMP/site"
check "the 10,000-post corpus builds" test "$rc" -eq 0
[ "$rc" -eq 0 ] || { finish; exit 1; }

# weigh SITE: one line of figures, then one line per page over the limit
weigh() {
	python3 - "$1" <<'EOF'
import glob, os, re, statistics, sys
site = sys.argv[1]
css = sum(os.path.getsize(p) for p in glob.glob(os.path.join(site, "style.*.css")))
posts, others, heavy = [], [], []
body = re.compile(rb'<div class="post-body e-content">(.*?)\n  </div>', re.S)
for dirpath, _, files in os.walk(site):
    for f in files:
        if not f.endswith(".html"):
            continue
        p = os.path.join(dirpath, f)
        n = os.path.getsize(p)
        rel = os.path.relpath(p, site)
        if rel.startswith("posts/"):
            posts.append(n)
            if n > 150 * 1024:
                m = body.search(open(p, "rb").read())
                own = len(m.group(1)) if m else 0
                if n - own > 150 * 1024:  # the page around the text alone is over
                    heavy.append(f"{rel} {n} (its text {own})")
        else:
            others.append(n)
            if n > 150 * 1024:
                heavy.append(f"{rel} {n}")
home = os.path.getsize(os.path.join(site, "index.html"))
archive = os.path.getsize(os.path.join(site, "archive", "index.html"))
print(css, int(statistics.median(posts)), home, archive, max(others), len(posts) + len(others))
for h in heavy:
    print(h)
EOF
}

weigh "$TMP/site" >"$TMP/weights"
set -- $(head -n 1 "$TMP/weights")
css=$1 post=$2 home=$3 archive=$4 biggest=$5 pages=$6
heavy=$(tail -n +2 "$TMP/weights")
echo "weight at 10,000 posts ($pages pages): stylesheet $css B, median post $post B (+ CSS $((post + css)) B), home $home B (+ CSS $((home + css)) B), archive $archive B, largest page but posts $biggest B"
out="$post + $css"
check "a typical post with its stylesheet is at most 35 KiB ($((post + css)) B)" test $((post + css)) -le 35840
out="$home + $css"
check "the home page with its stylesheet is at most 60 KiB ($((home + css)) B)" test $((home + css)) -le 61440
out=$(python3 tests/weight/home_series.py "$TMP/site" --first 3 2>&1)
rc=$?
check "every series is on the home page with its first posts in order ($(echo "$out" | tail -n 1))" test "$rc" -eq 0
out=$heavy
check "no page is over 150 KiB but a post whose own text is" test -z "$heavy"
check "the archive's index is at most 150 KiB ($archive B: a page of archive_per_page cards)" test "$archive" -le 153600

if [ -f "$small/folio.yml" ] && [ -z "${WEIGHT_CORPUS:-}" ]; then
	run build "$small" -o "$TMP/small"
	check "the 1,000-post corpus builds" test "$rc" -eq 0
	set -- $(weigh "$TMP/small" | head -n 1)
	d=$((home - $3))
	out="home $3 B at 1,000 posts, $home B at 10,000"
	check "the home page does not grow with the posts (within 2 KiB from 1,000 to 10,000)" test "${d#-}" -le 2048
fi
finish
