# test_search.sh: the search index and page. The index's files (names that
# are hashes of their bytes, the same bytes for the same site, only the
# shards that changed written again, the documents' counts kept in
# .folio-cache/search.pack, search: false and its map), the
# script's size, folio serve keeping the index up to date, then the example
# blog in a real browser: tests/browser/search.mjs types queries on its
# search page (results, excerpts, filters, keys, the shared address, the
# relevance set of tests/search/techblog.tsv, axe, JavaScript off). The
# browser part needs node, chromium and tests/browser/node_modules: without
# them it fails on CI (CI=true) and is skipped elsewhere.
. "$(dirname "$0")/lib.sh"

export SOURCE_DATE_EPOCH=1790000000
browser_env
trap 'stop_server; stop_serve; rm -rf "$TMP"' EXIT
trap 'exit 1' INT TERM HUP

cp -r examples/techblog "$TMP/techblog"
rm -rf "$TMP/techblog/.folio-cache" "$TMP/techblog/public"
run build "$TMP/techblog" -o "$TMP/site"
check "the example blog builds" test "$rc" -eq 0
check "it has a search page" test -f "$TMP/site/search/index.html"
check "and an index" test -f "$TMP/site/search/index.json"

# ---- the files ----

# named_by_hash DIR: every file of DIR/search/{t,d,f} is named by the
# first 12 hex digits of the XXH3 of its bytes
named_by_hash() {
	python3 - "$1" <<'EOF'
import os, sys, subprocess
bad = []
for sub in ("t", "d", "f"):
    d = os.path.join(sys.argv[1], "search", sub)
    for name in os.listdir(d):
        h = subprocess.run(["xxhsum", "-H3", os.path.join(d, name)], capture_output=True, text=True).stdout
        if not h or h.split()[0][-16:][:12] != name.split(".")[0]:
            bad.append(name)
print(" ".join(bad[:5]))
sys.exit(1 if bad else 0)
EOF
}
if command -v xxhsum >/dev/null 2>&1; then
	out=$(named_by_hash "$TMP/site")
	check "each file of the index is named by the hash of its bytes" test -z "$out"
fi
check "the index.json names each shard" grep -q '"shards":{' "$TMP/site/search/index.json"
js_gz=$(gzip -9 -c "$TMP/site/search.js" | wc -c)
out="search.js: $js_gz bytes gzipped"
check "the script is at most 8 KB gzipped" test "$js_gz" -le 8192

# the same site, the same bytes
run build "$TMP/techblog" -o "$TMP/site2"
check "a second output of the same site" test "$rc" -eq 0
out=$(diff -r "$TMP/site/search" "$TMP/site2/search" 2>&1 | head -5)
check "has the same index, byte for byte" test -z "$out"

# an edit to one post: the shards that hold none of its words are the last
# build's files (hard links of them: the same inode), the others are new
slug=gpu-systems-11-shared-memory-bank-conflicts
post=$TMP/techblog/content/posts/$slug.md
inodes() {
	python3 - "$1" "$2" <<'EOF'
import json, os, sys
sys.path.insert(0, "tests/search")
import dump
out, slug = sys.argv[1], sys.argv[2]
meta = json.load(open(os.path.join(out, "search", "index.json")))
doc = None
for c, h in enumerate(meta["records"]):
    for i, r in enumerate(json.load(open(os.path.join(out, "search", "d", h + ".json")))):
        if r[0] == "posts/%s/" % slug:
            doc = c * meta["chunk"] + i
for key, h in sorted(meta["shards"].items()):
    p = os.path.join(out, "search", "t", h + ".bin")
    has = any(d == doc for _, _, posts in dump.shard(p) for d, _ in posts)
    print(h, os.stat(p).st_ino, "has" if has else "none", key)
EOF
}
inodes "$TMP/site" $slug >"$TMP/inodes.before"
printf '\nA zyzzogeton paragraph about quokkas.\n' >>"$post"
run build "$TMP/techblog" -o "$TMP/site"
check "the site builds again after an edit" test "$rc" -eq 0
inodes "$TMP/site" $slug >"$TMP/inodes.after"
# a shard without the post before the edit (but those of the new words,
# q and z): the same file after it
out=$(awk '$3 == "none" && $4 !~ /^[qz]/ { print $1, $2 }' "$TMP/inodes.before" | while read -r h ino; do
	grep -q "^$h $ino " "$TMP/inodes.after" || echo "$h"
done)
check "the shards without the edited post are not written again" test -z "$out"
kept=$(awk '$3 == "none"' "$TMP/inodes.before" | wc -l)
out="$kept shards without the post"
check "there are such shards" test "$kept" -ge 1
# words SITE WORD: whether the index of SITE has WORD (tests/search/dump.py
# reads it as folio-site(5) describes it)
words() {
	python3 tests/search/dump.py "$1" "$2" | grep -q "^$2 "
}
check "the new word is in the index" words "$TMP/site" zyzzogeton

# .folio-cache/search.pack: each document's counts, so that the edit above
# counted one post and took the others' from the last build; the index is
# a cold build's (no cache) byte for byte, on any number of threads, and so
# after a second edit and with a damaged pack
pack=$TMP/techblog/.folio-cache/search.pack
check "the documents' counts are kept in .folio-cache" test -s "$pack"
# cold_is SITE NAME: SITE's index is that of a build without the cache
cold_is() {
	mv "$TMP/techblog/.folio-cache" "$TMP/cache.saved"
	run build "$TMP/techblog" -o "$TMP/cold" -j 1
	rm -rf "$TMP/techblog/.folio-cache"
	mv "$TMP/cache.saved" "$TMP/techblog/.folio-cache"
	out=$(diff -r "$1/search" "$TMP/cold/search" 2>&1 | head -5)
	check "$2: the index is a cold build's" test -z "$out"
	rm -rf "$TMP/cold"
}
cold_is "$TMP/site" "an edited post"
printf '\nAnother paragraph, about wombats and zyzzogetons.\n' >>"$post"
FOLIO_TIMINGS=1 run build "$TMP/techblog" -o "$TMP/site" -j 3
check "a second edit builds" test "$rc" -eq 0
docs=$(printf '%s\n' "$err" | sed -n 's/.*search index: .*, \([0-9]*\) documents (\([0-9]*\) counted before).*/\1 \2/p')
out="documents, counted before: $docs"
check "it counts the edited post alone" test -n "$docs" -a "${docs#* }" = "$((${docs% *} - 1))"
cold_is "$TMP/site" "a second edit, on three threads"
check "the new word is in the index" words "$TMP/site" wombat
printf 'folio-search 1\n\0\377\377\377\0\0\0\0\0garbage' >"$pack"
FOLIO_TIMINGS=1 run build "$TMP/techblog" -o "$TMP/site2"
check "a damaged pack is no error" test "$rc" -eq 0
check "nor a message" sh -c "! grep -q 'search.pack' '$TMP/err'"
cold_is "$TMP/site2" "a damaged pack"
FOLIO_TIMINGS=1 run build "$TMP/techblog" -o "$TMP/site3"
docs=$(printf '%s\n' "$err" | sed -n 's/.*search index: .*, \([0-9]*\) documents (\([0-9]*\) counted before).*/\1 \2/p')
out="documents, counted before: $docs"
check "and it is written whole again" test -n "$docs" -a "${docs#* }" = "${docs% *}"
rm -rf "$TMP/site3"

# search: false, and the map
mkdir -p "$TMP/off"
cp -r "$TMP/techblog/content" "$TMP/off/content"
cp -r "$TMP/techblog/static" "$TMP/off/static"
cp -r "$TMP/techblog/code" "$TMP/off/code"
cp -r "$TMP/techblog/templates" "$TMP/off/templates"
sed '/^search:/d' "$TMP/techblog/folio.yml" >"$TMP/off/folio.yml"
printf 'search: false\n' >>"$TMP/off/folio.yml"
run build "$TMP/off" -o "$TMP/off-site"
check "search: false builds" test "$rc" -eq 0
check "with no index" test ! -e "$TMP/off-site/search"
check "and no search box" sh -c "! grep -q 'search-box' '$TMP/off-site/index.html'"
sed '/^search:/d' "$TMP/techblog/folio.yml" >"$TMP/off/folio.yml"
printf 'search:\n  body: false\n  pages: false\n' >>"$TMP/off/folio.yml"
run build "$TMP/off" -o "$TMP/off-site"
check "search: with a map builds" test "$rc" -eq 0
check "and writes the index" test -f "$TMP/off-site/search/index.json"
check "without the body's words" sh -c "! python3 tests/search/dump.py '$TMP/off-site' zyzzogeton | grep -q ."
check "with the titles' words" words "$TMP/off-site" softmax
sed '/^search:/d' "$TMP/techblog/folio.yml" >"$TMP/off/folio.yml"
printf 'search:\n  bodies: false\n' >>"$TMP/off/folio.yml"
run build "$TMP/off" -o "$TMP/off-site"
check "an unknown key of search: is an error" test "$rc" -ne 0
check "that names it" contains "$err" "bodies"

# ---- folio serve: the index served, and made again on an edit ----

serve_start "$TMP/techblog"
serve_wait
check "folio serve serves the example blog" test "$up" -eq 1
if [ "$up" -eq 1 ]; then
	out=$(curl -s "$url/search/index.json")
	check "and its search index" contains "$out" '"shards"'
	shard=$(curl -s "$url/search/" | grep -c 'search.js')
	check "and the search page" test "$shard" -ge 1
	before=$(curl -s "$url/search/index.json")
	printf '\nA quixotry paragraph.\n' >>"$post"
	changed=0
	for _ in $(seq 1 100); do
		now=$(curl -s "$url/search/index.json")
		if [ -n "$now" ] && [ "$now" != "$before" ]; then
			changed=1
			break
		fi
		sleep 0.1
	done
	check "an edit makes the index again" test "$changed" -eq 1
fi
stop_serve
spid=""

# ---- the browser ----

need_browser

# the site as first built (the example blog as it is)
port=$(free_port)
python3 -m http.server --bind 127.0.0.1 --directory "$TMP/site2" "$port" >"$TMP/http.log" 2>&1 &
server=$!
ok=0
for _ in $(seq 1 100); do
	if curl -s -o /dev/null --max-time 1 "http://127.0.0.1:$port/"; then
		ok=1
		break
	fi
	sleep 0.1
done
check "the site is served on a loopback port" test "$ok" -eq 1
if [ "$ok" -eq 1 ]; then
	BASE_URL=http://127.0.0.1:$port timeout 240 node tests/browser/search.mjs >"$TMP/browser.out" 2>&1
	node_rc=$?
	grep -v '^ok ' "$TMP/browser.out" | grep -vE '^[0-9]+ passed, [0-9]+ failed$'
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$TMP/browser.out" | tail -n 1)
	if [ -n "$line" ]; then
		pass=$((pass + $(echo "$line" | sed -E 's/^([0-9]+) passed.*/\1/')))
		fail=$((fail + $(echo "$line" | sed -E 's/.* ([0-9]+) failed$/\1/')))
	fi
	rc=$node_rc
	out=$(tail -n 5 "$TMP/browser.out")
	err=""
	check "search.mjs ends with its counts" test -n "$line"
	check "search.mjs exits 0" test "$node_rc" -eq 0
fi
stop_server
finish
