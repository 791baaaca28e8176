# test_patch.sh: folio serve patches an edit of a post's text into the last
# build (only the pages that read what changed are rendered again) and
# falls back to a whole build for everything else. Whatever path a rebuild
# takes, the served site must be byte for byte what `folio build` writes
# for the same files: each step compares the two.
. "$(dirname "$0")/lib.sh"
ws=${WAIT_SCALE:-1}

trap serve_cleanup EXIT
trap 'exit 1' INT TERM
need_curl

export SOURCE_DATE_EPOCH=1790000000
site=$TMP/site
cp -r examples/techblog "$site"
rm -rf "$site/public" "$site/.folio-cache"
a=$site/content/posts/patch-a.md
b=$site/content/posts/patch-b.md
# a post without a summary in its front matter: its first paragraph is
# the summary the home page and the cards show
cat >"$a" <<'EOF'
---
title: "Patch A"
date: 2026-09-20
tags: [cuda]
---

PATCH-FIRST-PARAGRAPH opens the post.

## Launch bounds

Text under the first heading.
EOF
cat >"$b" <<'EOF'
---
title: "Patch B"
date: 2026-09-19
summary: "The second test post."
---

See [the launch bounds](/posts/patch-a/#launch-bounds) of A.
EOF

mkdir -p "$TMP/st"
port=$(free_port)
url=http://127.0.0.1:$port
FOLIO_TIMINGS=1 TMPDIR=$TMP/st "$FOLIO" serve "$site" --port "$port" >"$TMP/serve.out" 2>"$TMP/serve.err" &
spid=$!
serve_wait
check "the server answers" test "$up" -eq 1

# settle N: until the server has ended N rebuilds ("rebuilt" or "error")
settle() {
	for _ in $(seq 1 $((150 * ws))); do
		[ "$(grep -c "rebuilt in\|folio serve: [0-9]* error" "$TMP/serve.err")" -ge "$1" ] && return 0
		sleep 0.1
	done
	return 1
}
patches() { grep -c "timings (ms): patch:" "$TMP/serve.err"; }
rounds=0
# edit: rewrites FILE in place with python's open/write/close (a save, as an
# editor writing the file itself does); the replacement is a sed expression
edit() {
	f=$1
	shift
	sed "$@" "$f" >"$TMP/edit.tmp"
	python3 -c 'import sys; d = open(sys.argv[2]).read(); open(sys.argv[1], "w").write(d)' "$f" "$TMP/edit.tmp"
	rounds=$((rounds + 1))
}
# same_as_build NAME: the served folder is what folio build writes
same_as_build() {
	rm -rf "$TMP/full"
	"$FOLIO" build "$site" -o "$TMP/full" >/dev/null 2>&1
	live=$(ls -d "$TMP"/st/folio-serve-*/site)
	check "$1: the served site is what folio build writes" \
		diff -r -x .folio-output "$live" "$TMP/full"
}
get() { curl -s --max-time 5 "$url$1"; }

n=$(patches)
edit "$a" -e 's/^Text under the first heading\./Text under the first heading, PATCH-BODY-EDIT./'
settle 1
check "a body edit is patched" test "$(patches)" -eq $((n + 1))
check "the post shows it" contains "$(get /posts/patch-a/)" "PATCH-BODY-EDIT"
check "one page is rendered" grep -q "rebuilt in [0-9]* ms: 1 of" "$TMP/serve.err"
same_as_build "a body edit"
# the search index after it: patched (the shards of the words that
# changed), not made whole, and the same files as folio build's
check "the search index is patched" grep -q "search index: .*(1 patched in this session)" "$TMP/serve.err"

n=$(patches)
edit "$a" -e 's/PATCH-FIRST-PARAGRAPH/PATCH-NEW-SUMMARY/'
settle 2
check "an edit of the summary is patched" test "$(patches)" -eq $((n + 1))
check "the home page shows the new summary" contains "$(get /)" "PATCH-NEW-SUMMARY"
check "the tag page too" contains "$(get /tags/cuda/)" "PATCH-NEW-SUMMARY"
same_as_build "a summary edit"

# a heading another post links to, renamed: the link is broken now
events "$TMP/sse1"
edit "$a" -e 's/^## Launch bounds/## Occupancy/'
wait_for "$TMP/sse1" "event: error"
check "a renamed heading breaks the link to it" grep -q "launch-bounds" "$TMP/sse1"
check "where the link is" grep -q "patch-b.md:7:.*error: broken link" "$TMP/serve.err"
settle 3
events "$TMP/sse2"
edit "$b" -e 's/#launch-bounds/#occupancy/'
wait_for "$TMP/sse2" "event: reload"
check "fixing the link reloads" grep -q "event: reload" "$TMP/sse2"
settle 4
same_as_build "a renamed heading"

n=$(patches)
edit "$a" -e 's/^title: "Patch A"/title: "Patch A, PATCH-NEW-TITLE"/'
settle 5
check "a front matter edit is a whole build" test "$(patches)" -eq "$n"
check "the home page shows the new title" contains "$(get /)" "PATCH-NEW-TITLE"
same_as_build "a front matter edit"

n=$(patches)
edit "$a" -e 's/^Text under/![Missing](\/img\/patch-none.png)\n\nText under/'
settle 6
check "a message in the text is a whole build" test "$(patches)" -eq "$n"
check "the message is told" grep -q "patch-none.png' not found" "$TMP/serve.err"
edit "$a" -e '/patch-none.png/d'
settle 7
same_as_build "an image fixed"

# two posts saved at once
n=$(patches)
printf '\nPATCH-TWO-A\n' >>"$a"
printf '\nPATCH-TWO-B\n' >>"$b"
rounds=$((rounds + 1))
settle 8
sleep 0.3
check "two posts saved at once" contains "$(get /posts/patch-a/)$(get /posts/patch-b/)" "PATCH-TWO-A"
check "both are there" contains "$(get /posts/patch-b/)" "PATCH-TWO-B"
check "and patched" test "$(patches)" -gt "$n"
same_as_build "two posts"

# a post's text with a longer reading time changes the series' and the
# site's totals: a whole build
n=$(patches)
python3 -c 'import sys; open(sys.argv[1], "a").write("\n" + "word " * 3000 + "\n")' "$a"
settle 9
check "a new reading time is a whole build" test "$(patches)" -eq "$n"
same_as_build "a longer post"

finish
